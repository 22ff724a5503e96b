/**
 * The machine a command line would run on, as far as judging it needs: which
 * of its paths exist, and its own `prlimit` and `bwrap`, known by their real
 * path (re-exported by `command_grants.ts`).
 *
 * @module
 */

import { posix } from "node:path";
import type { Sandbox } from "./_bwrap_options.ts";
import { CannotJudgeError } from "./_cannot_judge.ts";
import { machinePath } from "./_sandbox_view.ts";

/** The machine a command line would run on, as far as judging it needs. */
export interface Machine {
  /** Whether `path` (a path of the machine, outside any sandbox) exists. */
  exists(path: string): boolean;
}

/**
 * The machine of Chapter 15's cases, made up: every path a command line
 * names is there.
 */
export const EVERY_PATH_EXISTS: Machine = { exists: () => true };

/**
 * This machine, as it is now.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(THIS_MACHINE.exists("/"), true);
 * assert.equal(THIS_MACHINE.exists("/no/such/path/here"), false);
 * ```
 */
export const THIS_MACHINE: Machine = {
  exists(path) {
    try {
      Deno.statSync(path);
      return true;
    } catch {
      return false;
    }
  },
};

/** The words this module reads as programs, by their base name. */
const PROGRAMS = ["prlimit", "bwrap"] as const;
export type Program = typeof PROGRAMS[number];

let installed: Map<string, Program> | undefined;
/** This machine's prlimit and bwrap, by real path: where `PATH` finds them, or where Debian puts them. */
function installedPrograms(): Map<string, Program> {
  installed ??= new Map(
    PROGRAMS.map((name) => [onPath(name, hostPath()) ?? `/usr/bin/${name}`, name]),
  );
  return installed;
}

/**
 * The machine's `PATH`, as directories.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(hostPath().length > 0 && hostPath().every((dir) => dir !== ""));
 * ```
 */
export function hostPath(): string[] {
  try {
    return (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":").filter((dir) => dir !== "");
  } catch {
    return ["/usr/bin", "/bin"];
  }
}

/** The real path of the file `name` names in the first of `dirs` that has it. */
function onPath(name: string, dirs: string[], map = (path: string) => path): string | undefined {
  for (const dir of dirs) {
    const found = realFile(map(posix.join(dir, name)));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The real path of the file at `path` of the machine, if there is one. */
function realFile(path: string): string | undefined {
  try {
    const real = Deno.realPathSync(path);
    return Deno.statSync(real).isFile ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Which of this machine's programs `word` runs (outside any sandbox, or
 * inside `sandbox`, through what it shows), if one; throws when a word
 * named like one runs something else.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * import { CannotJudgeError } from "./_cannot_judge.ts";
 *
 * assert.equal(programOf("sleep", null), undefined);
 * assert.throws(() => programOf("./bwrap", null), CannotJudgeError);
 * ```
 */
export function programOf(
  word: string,
  sandbox: Pick<Sandbox, "view" | "path"> | null,
): Program | undefined {
  const named = PROGRAMS.find((name) => posix.basename(word) === name);
  if (named === undefined) return undefined;
  const toMachine = (path: string) => sandbox === null ? path : machinePath(sandbox.view, path);
  const mine = [...installedPrograms()].find(([, name]) => name === named)![0];
  // Where it is not installed, a command line is judged as on a machine with Debian's package.
  const missing = realFile(mine) === undefined;
  let real: string | undefined;
  if (!word.includes("/")) {
    real = onPath(word, sandbox?.path ?? hostPath(), (path) => toMachine(path) ?? "");
    if (real === undefined && (sandbox === null || missing)) real = mine;
  } else if (word.startsWith("/")) {
    const onMachine = toMachine(posix.normalize(word));
    real = realFile(onMachine ?? "") ?? (missing ? onMachine : undefined);
  }
  if (real !== undefined && installedPrograms().get(real) === named) return named;
  throw new CannotJudgeError(
    `${word}: it is not this machine's ${named} (${mine}), so it gives only what it does itself`,
  );
}

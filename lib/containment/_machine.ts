/**
 * The machine a command line would run on, as far as judging it needs: which
 * of its paths exist, and whether each is a folder, and its own `prlimit` and `bwrap`, known by their real
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
  /**
   * Whether `path` (a path of the machine, outside any sandbox) exists;
   * `undefined` where the machine does not say (it is made up): such a path a
   * line names is taken to be there, and of the kind that fits where it is
   * bound, only while the sandbox keeps in sight what the line shows from it,
   * so that the grants say it; where a later mount hides it all, bwrap's
   * stop at a missing path would leave no trace in them, and the line is not
   * judged.
   */
  exists(path: string): boolean | undefined;
  /**
   * `path` with every link and `..` in it resolved as the kernel does, or
   * `undefined` where the machine cannot tell (it is made up, or `path` is missing).
   */
  realPath(path: string): string | undefined;
  /**
   * What the symbolic link at `path` holds, its last part not followed;
   * `undefined` where `path` is no link, or the machine cannot tell.
   */
  linkTarget(path: string): string | undefined;
  /**
   * What is at `path`, its links followed as bwrap's `stat` follows them: a
   * folder, or another file (a device too); `undefined` where the machine
   * cannot tell (it is made up, or `path` is missing).
   */
  kind(path: string): Kind | undefined;
  /**
   * The number of the last capability its kernel has (`cap_last_cap`): a
   * number bwrap takes above it grants nothing.
   */
  readonly lastCapability: number;
}

/** A folder, or anything else bwrap mounts as a file (a device too). */
export type Kind = "folder" | "file";

/** The last capability of Linux since 5.9 (`CAP_CHECKPOINT_RESTORE`), as libcap 2.66 names them. */
const LAST_CAPABILITY = 40;

/** A Linux machine's root and the folders in it (the Filesystem Hierarchy Standard's, and `/proc`, `/sys`, `/run`). */
const TOP_FOLDERS = new Set(
  ["", "bin", "boot", "dev", "etc", "home", "lib", "lib64", "media", "mnt", "opt", "proc"]
    .concat(["root", "run", "sbin", "srv", "sys", "tmp", "usr", "var"]).map((name) => `/${name}`),
);

/**
 * The machine of Chapter 15's cases, made up: the top folders of a Linux
 * machine are there, folders; whether any other path is there, a folder or
 * a file, it does not say (see {@linkcode Machine.exists}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(EVERY_PATH_EXISTS.exists("/usr"), true);
 * assert.equal(EVERY_PATH_EXISTS.exists("/srv/tool/data"), undefined);
 * ```
 */
export const EVERY_PATH_EXISTS: Machine = {
  exists: (path) => TOP_FOLDERS.has(path) ? true : undefined,
  realPath: () => undefined,
  linkTarget: () => undefined,
  kind: (path) => TOP_FOLDERS.has(path) ? "folder" : undefined,
  lastCapability: LAST_CAPABILITY,
};

/**
 * This machine, as it is now.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(THIS_MACHINE.exists("/"), true);
 * assert.equal(THIS_MACHINE.exists("/no/such/path/here"), false);
 * assert.equal(THIS_MACHINE.realPath("/usr/bin/.."), "/usr");
 * assert.equal(THIS_MACHINE.linkTarget("/usr"), undefined);
 * assert.equal(THIS_MACHINE.kind("/usr"), "folder");
 * assert.equal(THIS_MACHINE.kind("/dev/null"), "file");
 * assert.equal(THIS_MACHINE.kind("/no/such/path/here"), undefined);
 * assert.ok(THIS_MACHINE.lastCapability >= 36);
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
  realPath(path) {
    try {
      return Deno.realPathSync(path);
    } catch {
      return undefined;
    }
  },
  linkTarget(path) {
    try {
      return Deno.readLinkSync(path);
    } catch {
      return undefined;
    }
  },
  kind(path) {
    try {
      return Deno.statSync(path).isDirectory ? "folder" : "file";
    } catch {
      return undefined;
    }
  },
  get lastCapability() {
    try {
      return Number(Deno.readTextFileSync("/proc/sys/kernel/cap_last_cap"));
    } catch {
      return LAST_CAPABILITY;
    }
  },
};

/**
 * This machine as it is where it has a path, and made up where it has not
 * (as {@linkcode EVERY_PATH_EXISTS} is): a line of Chapter 15's effect case
 * before the grader makes what it needs (the playground) (re-exported by
 * `command_grants.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(EVERY_PATH_EXISTS_AS_HERE.exists("/usr"), true);
 * assert.equal(EVERY_PATH_EXISTS_AS_HERE.exists("/no/such/path/here"), undefined);
 * assert.equal(EVERY_PATH_EXISTS_AS_HERE.kind("/dev/null"), "file");
 * assert.equal(EVERY_PATH_EXISTS_AS_HERE.kind("/no/such/path/here"), undefined);
 * assert.equal(EVERY_PATH_EXISTS_AS_HERE.realPath("/usr/bin/.."), "/usr");
 * assert.equal(EVERY_PATH_EXISTS_AS_HERE.realPath("/no/such/path/here"), undefined);
 * ```
 */
export const EVERY_PATH_EXISTS_AS_HERE: Machine = {
  ...EVERY_PATH_EXISTS,
  exists: (path) => THIS_MACHINE.exists(path) || EVERY_PATH_EXISTS.exists(path),
  // Where its links lead, as bwrap follows them: a mount through one is judged as on this machine.
  realPath: (path) => THIS_MACHINE.realPath(path),
  linkTarget: (path) => THIS_MACHINE.linkTarget(path),
  kind: (path) => THIS_MACHINE.kind(path) ?? EVERY_PATH_EXISTS.kind(path),
};

/**
 * The most paths judging one line may ask the machine about: each folder
 * above each path it names, every one a `stat` or more (300 paths of 150
 * folders each, 190 KB, asked this machine 45,000 times: 2.4 s of the
 * grader's own loop). The lesson's lines ask about a few dozen.
 */
const MAX_PATHS_ASKED = 4096;

/**
 * `machine`, each answer kept once asked, for judging one line: its paths
 * share their folders, which judging it asks about again and again. Throws
 * {@linkcode CannotJudgeError} when the line's paths ask about more than
 * 4096 paths.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * let asked = 0;
 * const machine = remembering({ ...EVERY_PATH_EXISTS, kind: () => (asked++, "folder") });
 * assert.equal(machine.kind("/srv"), "folder");
 * assert.equal(machine.kind("/srv"), "folder");
 * assert.equal(asked, 1);
 * ```
 */
export function remembering(machine: Machine): Machine {
  const paths = new Set<string>();
  const kept = <T>(answer: (path: string) => T) => {
    const answers = new Map<string, T>();
    return (path: string): T => {
      if (!answers.has(path)) {
        paths.add(path);
        if (paths.size > MAX_PATHS_ASKED) {
          throw new CannotJudgeError(
            `a line whose paths, and the folders above them, are more than the ${MAX_PATHS_ASKED} ` +
              "this judges",
          );
        }
        answers.set(path, answer(path));
      }
      return answers.get(path)!;
    };
  };
  return {
    exists: kept((path) => machine.exists(path)),
    realPath: kept((path) => machine.realPath(path)),
    linkTarget: kept((path) => machine.linkTarget(path)),
    kind: kept((path) => machine.kind(path)),
    get lastCapability() {
      return machine.lastCapability;
    },
  };
}

/** The words this module reads as programs, by their base name. */
const PROGRAMS = ["prlimit", "bwrap"] as const;
export type Program = typeof PROGRAMS[number];

/** What each program prints first when run with `--version`: how the machine's own is known. */
const SAYS: Record<Program, RegExp> = {
  prlimit: /^prlimit from util-linux /,
  bwrap: /^bubblewrap \d/,
};

let installed: Map<string, Program> | undefined;
/** The programs this machine has none of. */
const absent = new Set<Program>();
/**
 * This machine's prlimit and bwrap, by real path: every file so named on
 * `PATH`, or where Debian puts it, that says it is that program when run
 * with `--version`; a file that only has the name (an empty one, a script
 * planted early on `PATH`) is not. Where none is, Debian's path stands for it.
 */
function installedPrograms(): Map<string, Program> {
  if (installed !== undefined) return installed;
  installed = new Map();
  for (const name of PROGRAMS) {
    let found = false;
    for (const dir of [...hostPath(), "/usr/bin", "/bin"]) {
      const real = realFile(posix.join(dir, name));
      if (real === undefined || installed.has(real) || !says(real, name)) continue;
      installed.set(real, name);
      found = true;
    }
    if (!found) {
      installed.set(`/usr/bin/${name}`, name);
      absent.add(name);
    }
  }
  return installed;
}

/** Whether the program at `path`, run with `--version`, says it is `name`. */
function says(path: string, name: Program): boolean {
  try {
    const { stdout } = new Deno.Command(path, {
      args: ["--version"],
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    return SAYS[name].test(new TextDecoder().decode(stdout));
  } catch {
    return false;
  }
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

/**
 * The real path of the program a bare `name` runs outside any sandbox, found
 * on this process's `PATH` as `execvp` finds it; `undefined` where none is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(hostProgram("no-such-program-here"), undefined);
 * ```
 */
export function hostProgram(name: string): string | undefined {
  return onPath(name, hostPath());
}

/** The real path of the program `name` names in the first of `dirs` that has it, as `execvp` finds it. */
function onPath(name: string, dirs: string[], map = (path: string) => path): string | undefined {
  for (const dir of dirs) {
    const found = realFile(map(posix.join(dir, name)));
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The real path of the program at `path` of the machine, if there is one: a
 * file that may be run (a lookup by `PATH` passes over one that may not).
 */
function realFile(path: string): string | undefined {
  try {
    const real = Deno.realPathSync(path);
    const { isFile, mode } = Deno.statSync(real);
    return isFile && ((mode ?? 0) & 0o111) !== 0 ? real : undefined;
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
  const missing = absent.has(named);
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

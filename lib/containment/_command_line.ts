/**
 * A command line built from `prlimit` and bubblewrap, read as far as the
 * program it runs: the limits it sets, the sandbox around the program (what
 * it shows at each path), and the program. `command_grants.ts` makes its
 * grants of it; `other_file_at.ts` looks at what the sandbox shows.
 *
 * @module
 */

import { posix } from "node:path";
import { readBwrap, type Sandbox } from "./_bwrap_options.ts";
import { CannotJudgeError } from "./_cannot_judge.ts";
import { type Machine, programOf, remembering } from "./_machine.ts";
import { readPrlimit } from "./_prlimit_options.ts";

/**
 * The most words a command line may have: reading its mounts costs the
 * square of their number (the lesson's lines have a few dozen words; 49,000
 * took 13 s).
 */
const MAX_WORDS = 1000;

/** A command line, read. */
export interface CommandLine {
  /** Each limit set, by resource (`cpu`, `data`...), as `commandGrants` shows it. */
  limits: Map<string, string>;
  /** The sandbox around the program, or `null` for none. */
  sandbox: Sandbox | null;
  /** The program and its arguments. */
  command: string[];
}

/**
 * Read `argv` as it runs on `machine` (see `commandGrants`, which says what
 * it refuses, with {@linkcode CannotJudgeError}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EVERY_PATH_EXISTS } from "./_machine.ts";
 *
 * const line = readCommandLine(["bwrap", "--ro-bind", "/usr", "/usr", "--", "true"], EVERY_PATH_EXISTS);
 * assert.equal(line.sandbox?.view.get("/usr")?.source, "/usr");
 * assert.deepEqual(line.command, ["true"]);
 * ```
 */
export function readCommandLine(argv: unknown, machine: Machine): CommandLine {
  if (!Array.isArray(argv) || argv.length === 0) {
    throw new CannotJudgeError(
      `${show(argv)}: a command line is a non-empty array of strings`,
    );
  }
  if (argv.length > MAX_WORDS) {
    throw new CannotJudgeError(
      `a command line of ${argv.length} words: more than the ${MAX_WORDS} this judges`,
    );
  }
  for (const part of argv) {
    if (typeof part !== "string") {
      throw new CannotJudgeError(`${show(part)}: a command line holds strings`);
    }
    if (part.includes("\0")) {
      throw new CannotJudgeError(`${show(part)}: a NUL byte, which no program can be given`);
    }
  }
  const limits = new Map<string, string>();
  const remembered = remembering(machine);
  let sandbox: Sandbox | null = null;
  let rest = argv as string[];
  for (;;) {
    if (sandbox !== null && posix.basename(rest[0] ?? "") === "bwrap") {
      throw new CannotJudgeError("a sandbox inside a sandbox");
    }
    const program = rest.length === 0 ? undefined : programOf(rest[0], sandbox);
    if (program === "prlimit") rest = readPrlimit(rest.slice(1), limits);
    else if (program === "bwrap") [sandbox, rest] = readBwrap(rest.slice(1), remembered);
    else break;
  }
  if (rest.length === 0) throw new CannotJudgeError("a command line that runs no program");
  return { limits, sandbox, command: [...rest] };
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 80) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

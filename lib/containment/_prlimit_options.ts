/**
 * prlimit's options, read into the limits they set.
 *
 * @module
 */

import { CannotJudgeError } from "./_cannot_judge.ts";

const RESOURCES = new Set([
  "as",
  "core",
  "cpu",
  "data",
  "fsize",
  "locks",
  "memlock",
  "msgqueue",
  "nice",
  "nofile",
  "nproc",
  "rss",
  "rtprio",
  "rttime",
  "sigpending",
  "stack",
]);
const PRLIMIT_OUTPUT = new Set(["--noheadings", "--raw", "--verbose"]);
/** No limit, as the kernel writes it: the largest number a limit holds. */
const RLIM_INFINITY = 2n ** 64n - 1n;

/**
 * Read prlimit's options into `limits`; return the command after them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const limits = new Map<string, string>();
 * assert.deepEqual(readPrlimit(["--cpu=1", "--", "sleep", "1"], limits), ["sleep", "1"]);
 * assert.equal(limits.get("cpu"), "1");
 * ```
 */
export function readPrlimit(args: string[], limits: Map<string, string>): string[] {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") return args.slice(i + 1);
    if (!arg.startsWith("-")) return args.slice(i);
    if (PRLIMIT_OUTPUT.has(arg)) continue;
    const equals = arg.indexOf("=");
    const name = arg.startsWith("--") ? arg.slice(2, equals === -1 ? undefined : equals) : "";
    if (!RESOURCES.has(name)) {
      throw new CannotJudgeError(`prlimit ${arg}: not a limit (write it as --NAME=LIMIT)`);
    }
    if (equals === -1) throw new CannotJudgeError(`prlimit ${arg}: it sets nothing without =LIMIT`);
    if (limits.has(name)) {
      // The second prlimit's change depends on the first's, and on what it may raise.
      throw new CannotJudgeError(`prlimit ${arg}: the ${name} limit is set twice`);
    }
    limits.set(name, limitValue(arg, arg.slice(equals + 1)));
  }
  return [];
}

/** A limit as `SOFT:HARD`, `SOFT:`, `:HARD` or one value for both, in words. */
function limitValue(arg: string, value: string): string {
  const sides = value.split(":");
  if (sides.length > 2) throw new CannotJudgeError(`prlimit ${arg}: at most SOFT:HARD`);
  const [soft, hard] = sides.length === 1 ? [sides[0], sides[0]] : sides;
  const read = (side: string) => {
    if (side === "") return "unchanged";
    if (side === "unlimited") return "unlimited";
    // As C's strtoull reads it: spaces, a sign, digits, and whatever follows them ignored;
    // a negative number wraps around, so that -1 is RLIM_INFINITY.
    const number = /^[\t\n\v\f\r ]*([+-]?)(\d+)/.exec(side);
    if (number === null || BigInt(number[2]) > RLIM_INFINITY) {
      throw new CannotJudgeError(
        `prlimit ${arg}: ${JSON.stringify(side)} is no limit, and prlimit stops there`,
      );
    }
    const value = number[1] === "-"
      ? (RLIM_INFINITY + 1n - BigInt(number[2])) % (RLIM_INFINITY + 1n)
      : BigInt(number[2]);
    return value === RLIM_INFINITY ? "unlimited" : String(value);
  };
  const [s, h] = [read(soft), read(hard)];
  if (s === "unchanged" && h === "unchanged") {
    throw new CannotJudgeError(`prlimit ${arg}: it sets nothing`);
  }
  if (s === "unchanged") {
    throw new CannotJudgeError(`prlimit ${arg}: the soft limit stays as it is, maybe above ${h}`);
  }
  if (h !== "unchanged" && (h !== "unlimited" && (s === "unlimited" || BigInt(s) > BigInt(h)))) {
    throw new CannotJudgeError(`prlimit ${arg}: the soft limit is above the hard one`);
  }
  return s === h ? s : `${s} soft, ${h} hard`;
}

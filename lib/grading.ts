/**
 * Grade tables: run a learner's function on cases, and say for each whether
 * it passed, failed, or is not written yet.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { NotImplementedError } from "./not_implemented.ts";

/** One case: a label, the arguments, and the expected outcome (`{ throws: NAME }` for an error). */
export interface GradeCase {
  label: string;
  args: unknown[];
  expected: unknown;
}

/** What happened in one case. */
export interface GradeRow {
  case: string;
  expected: unknown;
  observed: unknown;
  status: "PASS" | "FAIL" | "UNFINISHED";
}

/** Options for {@linkcode gradeCases}. */
export interface GradeOptions {
  /** Turns a returned value into the form `expected` is written in. @default {(value) => value} */
  normalize?: (value: unknown) => unknown;
}

/**
 * Run `candidate` on each case, on a copy of its arguments, and compare what
 * it returns (or the name of what it throws, as `{ throws: NAME }`) with the
 * expected outcome. A case fails when the candidate changed its arguments,
 * and is `UNFINISHED` when it threw {@linkcode NotImplementedError}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const rows = gradeCases((a: number, b: number) => a + b, [
 *   { label: "adds", args: [2, 2], expected: 4 },
 *   { label: "refuses", args: [1, 1], expected: { throws: "RangeError" } },
 * ]);
 * assert.deepEqual(rows.map((row) => row.status), ["PASS", "FAIL"]);
 * ```
 */
export function gradeCases(
  // deno-lint-ignore no-explicit-any
  candidate: (...args: any[]) => unknown,
  cases: readonly GradeCase[],
  options: GradeOptions = {},
): GradeRow[] {
  const normalize = options.normalize ?? ((value) => value);
  return cases.map(({ label, args, expected }) => {
    const supplied = structuredClone(args);
    let observed: unknown;
    try {
      observed = normalize(candidate(...supplied));
    } catch (error) {
      if (error instanceof NotImplementedError) {
        return { case: label, expected, observed: "not written yet", status: "UNFINISHED" };
      }
      observed = { throws: error instanceof Error ? error.name : typeof error };
    }
    if (!isDeepStrictEqual(supplied, args)) {
      return { case: label, expected, observed: "changed its input", status: "FAIL" };
    }
    return {
      case: label,
      expected,
      observed,
      status: isDeepStrictEqual(observed, expected) ? "PASS" : "FAIL",
    };
  });
}

/**
 * `PASSED` when every row passed, otherwise `NEEDS_WORK`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(verdict([{ case: "a", expected: 1, observed: 1, status: "PASS" }]), "PASSED");
 * ```
 */
export function verdict(rows: readonly GradeRow[]): "PASSED" | "NEEDS_WORK" {
  return rows.length > 0 && rows.every((row) => row.status === "PASS") ? "PASSED" : "NEEDS_WORK";
}

/**
 * Grading a learner's function against a table of cases: each case passes,
 * fails, or is unfinished (the starter still throws `NotImplementedError`).
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";

/** What a case expects: a value returned, or an error of a class (with some of its fields). */
export type Expected =
  | { returns: unknown }
  | { throws: string; with?: Record<string, unknown> };

/** One case: a name, the arguments, and what the function should do with them. */
export interface Case<Args extends unknown[]> {
  name: string;
  args: Args;
  expected: Expected;
}

/** One row of a grade table. */
export interface GradeRow {
  name: string;
  status: "PASS" | "FAIL" | "UNFINISHED";
  expected: string;
  observed: string;
}

/** A graded table: its rows, and the verdict on all of them. */
export interface Grades {
  rows: GradeRow[];
  /** `PASSED` when every row passes, `UNFINISHED` when any is unfinished, else `NEEDS_WORK`. */
  verdict: "PASSED" | "UNFINISHED" | "NEEDS_WORK";
}

/**
 * Run `candidate` on each case's arguments (a deep copy of them) and grade
 * what it does. A case fails when the function returns or throws something
 * else than expected, or changes its arguments; it is unfinished when the
 * function throws `NotImplementedError`. `candidate` must be synchronous.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const half = (n: number) => {
 *   if (n % 2 !== 0) throw new RangeError(`${n} is odd`);
 *   return n / 2;
 * };
 * const grades = gradeCases(half, [
 *   { name: "an even number", args: [4], expected: { returns: 2 } },
 *   { name: "an odd number", args: [3], expected: { throws: "RangeError" } },
 * ]);
 * assert.equal(grades.verdict, "PASSED");
 * assert.deepEqual(grades.rows[1], {
 *   name: "an odd number",
 *   status: "PASS",
 *   expected: "throws RangeError",
 *   observed: "throws RangeError: 3 is odd",
 * });
 * ```
 */
export function gradeCases<Args extends unknown[]>(
  candidate: (...args: Args) => unknown,
  cases: readonly Case<Args>[],
): Grades {
  const rows = cases.map(({ name, args, expected }): GradeRow => {
    const supplied = structuredClone(args);
    let status: GradeRow["status"];
    let observed: string;
    try {
      const value = candidate(...supplied);
      observed = `returns ${show(value)}`;
      status = "returns" in expected && isDeepStrictEqual(value, expected.returns)
        ? "PASS"
        : "FAIL";
    } catch (error) {
      const { name: kind, message } = error instanceof Error ? error : new Error(String(error));
      observed = `throws ${kind}: ${message}`;
      status = kind === "NotImplementedError"
        ? "UNFINISHED"
        : "throws" in expected && kind === expected.throws &&
            Object.entries(expected.with ?? {}).every(([key, value]) =>
              isDeepStrictEqual((error as Record<string, unknown>)[key], value)
            )
        ? "PASS"
        : "FAIL";
    }
    if (status === "PASS" && !isDeepStrictEqual(supplied, args)) {
      status = "FAIL";
      observed += " (and changed its arguments)";
    }
    return { name, status, expected: describe(expected), observed };
  });
  const verdict = rows.every((row) => row.status === "PASS")
    ? "PASSED"
    : rows.some((row) => row.status === "UNFINISHED")
    ? "UNFINISHED"
    : "NEEDS_WORK";
  return { rows, verdict };
}

/**
 * The grade table as text: a line a case (status, name, what was observed),
 * then `LABEL VERDICT`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const grades = gradeCases((text: string) => text.trim(), [
 *   { name: "spaces go", args: [" a "], expected: { returns: "a" } },
 * ]);
 * assert.equal(formatGrades("TRIM", grades), 'PASS        spaces go -> returns "a"\nTRIM PASSED');
 * ```
 */
export function formatGrades(label: string, grades: Grades): string {
  const lines = grades.rows.map((row) =>
    `${row.status.padEnd(12)}${row.name} -> ${row.observed.slice(0, 90)}` +
    (row.status === "FAIL" ? `\n${" ".repeat(12)}expected: ${row.expected}` : "")
  );
  return [...lines, `${label} ${grades.verdict}`].join("\n");
}

function describe(expected: Expected): string {
  if ("returns" in expected) return `returns ${show(expected.returns)}`;
  const fields = Object.entries(expected.with ?? {}).map(([key, value]) => `${key} ${show(value)}`);
  return `throws ${expected.throws}${fields.length > 0 ? ` with ${fields.join(", ")}` : ""}`;
}

function show(value: unknown): string {
  return value === undefined ? "undefined" : JSON.stringify(value);
}

/**
 * What a grade table says when a learner's headers differ from the expected
 * ones only in the letter case of a name: that header names are written in
 * lower case here, because the Fetch API lower-cases them (HTTP compares
 * them without regard to case, and a record compares its keys exactly).
 *
 * @module
 */

import type { GradeRow } from "../grading/grading.ts";
import type { Difference } from "../grading/json_differences.ts";
import { isObject } from "../mcp/shared/jsonrpc.ts";

/**
 * For a grade table's `explain` option: the words for a `difference`
 * between a row's expected and observed headers that is a name written in
 * other letters' case than the expected one (the one the observed record
 * has, or the one it lacks), or `undefined` for any other difference.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { whatDiffers } from "../grading/grade_table.ts";
 *
 * const row = {
 *   case: "headers",
 *   input: [],
 *   expected: { accept: "application/json" },
 *   observed: { Accept: "application/json" },
 *   message: "",
 *   status: "FAIL" as const,
 * };
 * assert.equal(
 *   whatDiffers(row, headerNameCase),
 *   "Accept: header names are lower case here, as the Fetch API gives them: write accept",
 * );
 * ```
 */
export function headerNameCase(difference: Difference, row: GradeRow): string | undefined {
  const [name, ...inside] = difference.keys;
  const { expected, observed } = row;
  if (typeof name !== "string" || inside.length > 0) return undefined;
  if (!isObject(expected) || !isObject(observed)) return undefined;
  const written = difference.missing === "expected"
    ? name
    : Object.keys(observed).find((key) => key !== name && key.toLowerCase() === name);
  if (written === undefined || written === written.toLowerCase()) return undefined;
  if (!Object.hasOwn(expected, written.toLowerCase())) return undefined;
  return `${written}: header names are lower case here, as the Fetch API gives them: write ${written.toLowerCase()}`;
}

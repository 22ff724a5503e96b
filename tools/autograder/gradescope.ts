/**
 * The grader's results as Gradescope's `results.json`: one object for the
 * whole submission, with every unit's checks as its tests.
 *
 * @module
 */

import type { Results, TestResult } from "../grading/score.ts";

/** Gradescope's results for one submission. */
export interface GradescopeResults {
  score: number;
  output: string;
  output_format: "text";
  test_output_format: "text";
  visibility: "visible";
  stdout_visibility: "hidden";
  execution_time: number;
  tests: (TestResult & { max_score: number })[];
}

/**
 * One `results.json` for everything graded in a submission: each test's name
 * starts with its unit, the score is the sum, and `output` says what else
 * happened (notes, and the problems of any file that could not be graded).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const test = { name: "authorize: nothing allowed", score: 1, max_score: 1, status: "passed" as const, output: "passed", visibility: "visible" as const };
 * const results = { submission: "s", unit: "ch14-a", score: 1, max_score: 1, output: "", tests: [test] };
 * const merged = gradescopeResults([results], ["a note"], 2);
 * assert.equal(merged.score, 1);
 * assert.equal(merged.tests[0].name, "ch14-a · authorize: nothing allowed");
 * assert.equal(merged.output, "ch14-a: 1/1\na note");
 * ```
 */
export function gradescopeResults(
  graded: readonly Results[],
  messages: readonly string[],
  seconds: number,
): GradescopeResults {
  return {
    score: graded.reduce((sum, results) => sum + results.score, 0),
    output: [
      ...graded.map((results) =>
        [`${results.unit}: ${results.score}/${results.max_score}`, results.output]
          .filter((line) => line !== "").join(" ")
      ),
      ...messages,
    ].join("\n"),
    output_format: "text",
    test_output_format: "text",
    visibility: "visible",
    stdout_visibility: "hidden",
    execution_time: Math.round(seconds),
    tests: graded.flatMap((results) =>
      results.tests.map((test) => ({ ...test, name: `${results.unit} · ${test.name}` }))
    ),
  };
}

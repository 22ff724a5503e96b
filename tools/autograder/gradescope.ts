/**
 * The grader's results for one assignment as Gradescope's `results.json`
 * (its documented fields: `score`, `output`, `visibility`,
 * `stdout_visibility`, `execution_time`, and `tests` each with `name`,
 * `score`, `max_score`, `status`, `output` and `visibility`).
 *
 * Hidden cases must not become an oracle: with unlimited resubmissions, a
 * hidden case whose pass or fail a learner can see is a visible case. So
 * each hidden case's test takes the package's hidden visibility
 * (`after_published` unless the instructor chose otherwise), and so does a
 * count of them ("hidden cases: 7 of 9 passed"); what every learner sees at
 * once is a summary that says how many hidden cases were run and when their
 * results show. Gradescope hides a learner's total score while any test is
 * hidden from them, so the total tells nothing either.
 *
 * @module
 */

import { NO_CODE, type Results, type TestResult } from "../grading/score.ts";

/** When Gradescope shows a test to a learner. */
export type Visibility = TestResult["visibility"];
/** Every visibility Gradescope knows. */
export const VISIBILITIES: readonly Visibility[] = [
  "hidden",
  "after_due_date",
  "after_published",
  "visible",
];

/** One test, as Gradescope reads it. */
export interface GradescopeTest {
  name: string;
  score: number;
  max_score: number;
  status: "passed" | "failed";
  output: string;
  visibility: Visibility;
}

/** Gradescope's results for one submission. */
export interface GradescopeResults {
  score: number;
  output: string;
  visibility: "visible";
  stdout_visibility: "hidden";
  execution_time: number;
  tests: GradescopeTest[];
}

/** What one assignment is: the unit it grades, its total, and when hidden cases show. */
export interface Assignment {
  unit: string;
  /** The assignment's total on Gradescope; the unit's own total when absent. */
  points?: number;
  /** @default {"after_published"} */
  hidden?: Visibility;
}

/** When each visibility shows a test, in words a learner reads. */
const WHEN: Record<Visibility, string> = {
  hidden: "are never shown here; your instructor sees them",
  after_due_date: "are shown after the due date",
  after_published: "are shown when your instructor publishes the grades",
  visible: "are shown below",
};

/**
 * One `results.json` for the assignment's unit: its tests, scaled so that
 * full marks are the assignment's points, hidden cases shown when the
 * assignment says, and `notes` (what else the submission held) in the
 * output every learner sees.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const seen = { name: "authorize: nothing allowed", score: 1, max_score: 1, status: "passed" as const, output: "passed", visibility: "visible" as const };
 * const hidden = { ...seen, name: "authorize: hidden case 1", score: 0, status: "failed" as const, output: "failed" };
 * const unit = { submission: "s", unit: "ch14-a", score: 1, max_score: 2, output: "", tests: [seen, hidden] };
 * const results = gradescopeResults(unit, { unit: "ch14-a", points: 10 }, ["ignored lab-02.ipynb"], 2);
 * assert.equal(results.score, 5);
 * assert.equal(results.tests[1].visibility, "after_published");
 * assert.match(results.tests.at(-2)!.output, /1 hidden case was run/);
 * assert.equal(results.tests.at(-1)!.output, "hidden cases: 0 of 1 passed");
 * assert.match(results.output, /ignored lab-02\.ipynb/);
 * ```
 */
export function gradescopeResults(
  graded: Results,
  assignment: Assignment,
  notes: readonly string[],
  seconds: number,
): GradescopeResults {
  const hiddenVisibility = assignment.hidden ?? "after_published";
  const scale = assignment.points === undefined || graded.max_score === 0
    ? 1
    : assignment.points / graded.max_score;
  const tests: GradescopeTest[] = graded.tests.map((test) => ({
    name: test.name,
    score: test.score * scale,
    max_score: test.max_score * scale,
    status: test.status,
    output: test.output,
    visibility: isHidden(test) ? hiddenVisibility : "visible",
  }));
  const hidden = graded.tests.filter(isHidden);
  if (hidden.length > 0) {
    const passed = hidden.filter((test) => test.status === "passed").length;
    const cases = hidden.length === 1 ? "1 hidden case was" : `${hidden.length} hidden cases were`;
    // A submission with no code (its JSON alone) has had nothing re-run.
    const said = hidden.every((test) => test.output === NO_CODE)
      ? `${cases} not run: no code came with this submission.`
      : `${cases} run on your code; their results ${WHEN[hiddenVisibility]}.`;
    tests.push(
      summary("hidden cases", said, "visible"),
      summary(
        "hidden cases: how many passed",
        `hidden cases: ${passed} of ${hidden.length} passed`,
        hiddenVisibility,
      ),
    );
  }
  const total = assignment.points ?? graded.max_score;
  return {
    score: round(graded.score * scale),
    output: [
      `${graded.unit}: graded out of ${round(total)}.`,
      graded.output,
      ...notes,
    ].filter((line) => line !== "").join("\n"),
    visibility: "visible",
    stdout_visibility: "hidden",
    execution_time: Math.round(seconds),
    tests,
  };
}

/** Whether `test` is one of the hidden cases, as the grader names them. */
function isHidden(test: TestResult): boolean {
  return /: hidden case \d+$/.test(test.name);
}

function summary(name: string, output: string, visibility: Visibility): GradescopeTest {
  return { name, score: 0, max_score: 0, status: "passed", output, visibility };
}

/** A total kept to four decimals (the tests' scaled parts keep every digit, so that they add up to it). */
function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

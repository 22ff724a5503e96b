/**
 * From what the sandbox observed, and what the submission claimed, to a
 * score in the results format autograding platforms read: `score`, and
 * `tests` each with `name`, `score`, `max_score`, `status`, `output` and
 * `visibility`. Only behaviour the grader re-ran earns marks: a claim in a
 * JSON file earns nothing, and a claim that the re-run contradicts costs the
 * function every mark.
 *
 * @module
 */

import type { CaseResult } from "./sandbox.ts";
import type { UnitSpec } from "./spec.ts";

/** One check, as platforms read it. */
export interface TestResult {
  name: string;
  score: number;
  max_score: number;
  status: "passed" | "failed";
  output: string;
  visibility: "visible" | "hidden" | "after_due_date" | "after_published";
}

/** The results of one submission. */
export interface Results {
  submission: string;
  unit: string;
  score: number;
  max_score: number;
  output: string;
  tests: TestResult[];
}

/** What is known about a submission when it is scored. */
export interface ScoreInput {
  name: string;
  spec: UnitSpec;
  /** The re-run's results, or undefined when no code came with the submission. */
  cases?: CaseResult[];
  /** The submission JSON, when there is one. */
  evidence?: Record<string, unknown>;
}

/**
 * Score one submission.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const results = scoreSubmission({ name: "alice", spec: UNITS["ch14-a"] });
 * assert.equal(results.score, 0);
 * assert.ok(results.tests.every((test) => test.output.includes("no code")));
 * ```
 */
export function scoreSubmission({ name, spec, cases, evidence }: ScoreInput): Results {
  const tampered = cases && evidence ? contradictions(spec, cases, evidence) : {};
  const tests: TestResult[] = [];
  for (const fn of spec.functions) {
    let hiddenIndex = 0;
    for (const testCase of fn.cases) {
      const label = testCase.hidden ? `hidden case ${++hiddenIndex}` : testCase.label;
      const result = cases?.find((c) => c.fn === fn.name && c.case === testCase.label);
      const passed = result?.status === "PASS" && tampered[fn.name] === undefined;
      let output: string;
      if (result === undefined) output = "not verified: no code came with this submission";
      else if (tampered[fn.name] !== undefined) {
        output = "no marks: the submission's claims about this function do not match the re-run";
      } else if (testCase.hidden) output = passed ? "passed" : "failed";
      else if (result.status === "UNFINISHED") output = "not written yet";
      else {output = passed
          ? "passed"
          : `expected ${JSON.stringify(testCase.expected)}, observed ${result.observed}`;}
      tests.push({
        name: `${fn.name}: ${label}`,
        score: passed ? 1 : 0,
        max_score: 1,
        status: passed ? "passed" : "failed",
        output,
        visibility: "visible",
      });
    }
  }
  if (cases && evidence) {
    const lines = Object.entries(tampered).map(([fn, labels]) => `${fn}: ${labels.join("; ")}`);
    tests.push({
      name: "the submission's claims match the re-run",
      score: 0,
      max_score: 0,
      status: lines.length === 0 ? "passed" : "failed",
      output: lines.length === 0
        ? "every claim matches"
        : `claims the re-run contradicts: ${lines.join(" | ")}`,
      visibility: "visible",
    });
  }
  const notes = [];
  if (cases === undefined) {
    notes.push(
      "No code came with this submission, so nothing could be re-run: submit your notebook with it.",
    );
  }
  if (evidence !== undefined && "explanation" in evidence) {
    notes.push(
      "The written prediction and explanation are marked for human review; they are not scored here.",
    );
  }
  return {
    submission: name,
    unit: spec.unit,
    score: tests.reduce((sum, test) => sum + test.score, 0),
    max_score: tests.reduce((sum, test) => sum + test.max_score, 0),
    output: notes.join(" "),
    tests,
  };
}

/** For each function, the visible cases whose claimed outcome the re-run contradicts. */
export function contradictions(
  spec: UnitSpec,
  cases: readonly CaseResult[],
  evidence: Record<string, unknown>,
): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const [fn, claimed] of Object.entries(spec.claims(evidence))) {
    for (const [label, passed] of Object.entries(claimed)) {
      const result = cases.find((c) => c.fn === fn && c.case === label && !c.hidden);
      const actual = result?.status === "PASS";
      if (result === undefined || actual !== passed) {
        (found[fn] ??= []).push(
          result === undefined
            ? `"${label}" is not one of its cases`
            : `"${label}" claimed ${passed ? "passed" : "not passed"}, re-run ${
              actual ? "passed" : "did not pass"
            }`,
        );
      }
    }
  }
  return found;
}

/**
 * From what the sandbox observed, and what the submission claimed, to a
 * score in the results format autograding platforms read: `score`, and
 * `tests` each with `name`, `score`, `max_score`, `status`, `output` and
 * `visibility`. A hidden case of a group (the cases that test one rule
 * from both sides) earns its mark only when every case of its group
 * passes. Only behaviour the grader re-ran earns marks: a claim in a
 * JSON file earns nothing, and a claim of a pass that the re-run does not
 * reproduce costs the function every mark. A claim that a case did not pass
 * is no offence (the notebook may have been saved before the code was
 * finished), and a case the learner added of their own is shown as theirs
 * and never costs a mark.
 *
 * @module
 */

import type { CaseResult } from "./sandbox.ts";
import type { UnitSpec } from "./spec.ts";

/** What each case's test says when no code came with a submission: nothing of it was re-run. */
export const NO_CODE = "not verified: no code came with this submission";

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
  /** The re-run's results: every case of the unit, visible and hidden. */
  cases: CaseResult[];
  /** Whether code came with the submission; without it, no case is verified. @default {true} */
  codeCame?: boolean;
  /** The submission JSON, when there is one. */
  evidence?: Record<string, unknown>;
  /** Graded functions whose library copy is in the learner's code by form, with what was found (`copied.ts`). @default {{}} */
  copied?: Record<string, string[]>;
  /**
   * Why the learner's code could not be checked (its analysis passed its
   * budget, `analysis.ts`): then no case earns a mark. @default {undefined: it was checked}
   */
  unchecked?: string;
  /**
   * Graded functions whose check against the library's seals could not
   * finish (its probes came to no answer), with what stopped it: no case of
   * theirs earns a mark. @default {{}}
   */
  unverified?: Record<string, string>;
}

/**
 * Score one submission.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const spec = UNITS.get("ch14-a")!;
 * const cases = spec.functions.flatMap((fn) =>
 *   fn.cases.map((c) => ({
 *     unit: "ch14-a", fn: fn.name, case: c.label, hidden: false,
 *     status: "FAIL" as const, observed: "",
 *   }))
 * );
 * const results = scoreSubmission({ name: "alice", spec, cases, codeCame: false });
 * assert.equal(results.score, 0);
 * assert.ok(results.tests.every((test) => test.output.includes("no code")));
 * ```
 *
 * @example A hidden case of a group earns its mark only with the rest of its group
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const spec = { ...UNITS.get("ch14-a")!, functions: [{ name: "authorize", cell: "", cases: [] }] };
 * const hidden = (label: string, status: "PASS" | "FAIL", group?: string) => ({
 *   unit: "ch14-a", fn: "authorize", case: label, hidden: true, status, observed: "", group,
 * });
 * const cases = [
 *   hidden("a constant's side of the rule", "PASS", "whole names"),
 *   hidden("the other side", "FAIL", "whole names"),
 *   hidden("a case of its own", "PASS"),
 * ];
 * const results = scoreSubmission({ name: "alice", spec, cases });
 * assert.deepEqual(results.tests.map((test) => test.score), [0, 0, 1]);
 * ```
 */
export function scoreSubmission(
  { name, spec, cases, codeCame = true, evidence, copied = {}, unchecked, unverified = {} }:
    ScoreInput,
): Results {
  // Code that could not be checked was not run: there is no re-run to hold its claims to.
  const claims = codeCame && evidence && unchecked === undefined
    ? compareClaims(spec, cases, evidence)
    : undefined;
  const tests: TestResult[] = [];
  const libraryNames = new Set(
    spec.functions.flatMap((fn) => fn.library ?? []).map(({ name }) => name),
  );
  const reuse: string[] = [];
  for (const fn of spec.functions) {
    const tampered = claims?.overClaims[fn.name];
    const reached = [
      ...new Set(cases.filter((c) => c.fn === fn.name).flatMap((c) => c.reached ?? [])),
    ].filter((name) => libraryNames.has(name)).sort();
    if (reached.length > 0) {
      reuse.push(`${fn.name} reaches the library's own ${reached.join(", ")}`);
    }
    const copies = Object.hasOwn(copied, fn.name) ? copied[fn.name] : [];
    if (copies.length > 0) {
      reuse.push(`${fn.name} is a copy of the library's own ${copies.join("; ")}`);
    }
    const stopped = Object.hasOwn(unverified, fn.name) ? unverified[fn.name] : undefined;
    if (stopped !== undefined) {
      reuse.push(`${fn.name} could not be checked against the library's seals (${stopped})`);
    }
    let hiddenIndex = 0;
    const own = cases.filter((c) => c.fn === fn.name);
    const failedGroups = new Set(
      own.filter((c) => c.hidden && c.status !== "PASS").flatMap((c) => c.group ?? []),
    );
    for (const result of own) {
      const label = result.hidden ? `hidden case ${++hiddenIndex}` : result.case;
      // A hidden case of a group earns its mark only with the rest of its group.
      const grouped = !result.hidden || result.group === undefined ||
        !failedGroups.has(result.group);
      const passed = result.status === "PASS" && grouped && tampered === undefined &&
        reached.length === 0 && copies.length === 0 && unchecked === undefined &&
        stopped === undefined;
      let output: string;
      if (!codeCame) output = NO_CODE;
      else if (unchecked !== undefined) {
        output = `no marks: ${unchecked}, and code the grader cannot check earns nothing`;
      } else if (copies.length > 0) {
        output = `no marks: ${fn.name} is a copy of the library's own ${
          copies.join("; ")
        }; write it yourself`;
      } else if (stopped !== undefined) {
        output =
          `no marks: ${fn.name}'s check against the library's seals came to no answer (${stopped}), and code the grader cannot check earns nothing`;
      } else if (reached.length > 0) {
        output = `no marks: ${fn.name} reaches the library's own ${
          reached.join(", ")
        }; write it yourself`;
      } else if (tampered !== undefined) {
        output = "no marks: the submission claims passes that the re-run does not reproduce";
      } else if (result.hidden) output = passed ? "passed" : "failed";
      else if (result.status === "UNFINISHED") output = "not written yet";
      else {
        const expected = fn.cases.find((c) => c.label === result.case)?.expected;
        output = passed ? "passed" : mismatch(expected, result.observed);
      }
      tests.push(test(`${fn.name}: ${label}`, passed ? 1 : 0, 1, output));
    }
  }
  if (unchecked !== undefined) {
    tests.push(
      test("every graded function is the learner's own", 0, 0, `not known: ${unchecked}`, false),
    );
  } else if (reuse.length > 0) {
    tests.push(
      test(
        "every graded function is the learner's own",
        0,
        0,
        `no marks for what the library does: ${reuse.join("; ")}`,
        false,
      ),
    );
  }
  if (claims !== undefined) {
    const lines = Object.entries(claims.overClaims).map(([fn, labels]) =>
      `${fn}: ${labels.join("; ")}`
    );
    tests.push(
      test(
        "the submission's claims match the re-run",
        0,
        0,
        lines.length === 0
          ? "every claim of a pass is reproduced"
          : `claims of a pass the re-run does not reproduce: ${lines.join(" | ")}`,
        lines.length === 0,
      ),
    );
    if (claims.ownCases.length > 0) {
      tests.push(
        test(
          "cases of the learner's own",
          0,
          0,
          `not graded, shown as theirs: ${claims.ownCases.join("; ")}`,
        ),
      );
    }
  }
  const notes = [];
  if (!codeCame) {
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

/** What a submission's claims say, against the re-run. */
export interface ClaimsCompared {
  /** For each function, its visible cases claimed passed that the re-run did not pass. */
  overClaims: Record<string, string[]>;
  /** Cases the learner added of their own (labels that are not the unit's), as `fn: "label"`. */
  ownCases: string[];
}

/**
 * Compare the claims in `evidence` with the re-run. Only a claimed pass that
 * the re-run does not reproduce is an over-claim; a claim that a case did not
 * pass, when it now does, is an honest stale claim.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const spec = UNITS.get("ch14-b")!;
 * const cases = spec.functions[0].cases.map((c) => ({
 *   unit: "ch14-b", fn: "splitFrames", case: c.label, hidden: false,
 *   status: "PASS" as const, observed: "",
 * }));
 * const stale = { frames: [{ case: "one frame", status: "FAIL" }], transfer: [] };
 * assert.deepEqual(compareClaims(spec, cases, stale), { overClaims: {}, ownCases: [] });
 * ```
 */
export function compareClaims(
  spec: UnitSpec,
  cases: readonly CaseResult[],
  evidence: Record<string, unknown>,
): ClaimsCompared {
  const compared: ClaimsCompared = { overClaims: {}, ownCases: [] };
  for (const [fn, claimed] of Object.entries(spec.claims(evidence))) {
    for (const [label, passed] of Object.entries(claimed)) {
      const result = cases.find((c) => c.fn === fn && c.case === label && !c.hidden);
      if (result === undefined) compared.ownCases.push(`${fn}: ${JSON.stringify(label)}`);
      else if (passed && result.status !== "PASS") {
        (compared.overClaims[fn] ??= []).push(
          `${JSON.stringify(label)} claimed passed, re-run did not pass`,
        );
      }
    }
  }
  return compared;
}

function test(
  name: string,
  score: number,
  maxScore: number,
  output: string,
  passed = score === maxScore,
): TestResult {
  return {
    name,
    score,
    max_score: maxScore,
    status: passed ? "passed" : "failed",
    output,
    visibility: "visible",
  };
}

/**
 * A failed visible case's line: `expected "dead", observed "live"`, or, when
 * either side is an error or what the sandbox said in words (`it returned
 * …`, `it threw …`), `expected it to throw RangeError; it returned {…}`.
 */
function mismatch(expected: unknown, observed: string): string {
  const throws = typeof expected === "object" && expected !== null &&
      typeof (expected as { throws?: unknown }).throws === "string"
    ? (expected as { throws: string; with?: object })
    : undefined;
  const fields = Object.entries(throws?.with ?? {}).map(([key, value]) => `${key} ${show(value)}`);
  const wanted = throws === undefined
    ? `expected ${show(expected)}`
    : `expected it to throw ${throws.throws}${
      fields.length > 0 ? ` with ${fields.join(", ")}` : ""
    }`;
  // The sandbox writes a value as JSON, which never begins with "it ".
  return observed.startsWith("it ") ? `${wanted}; ${observed}` : `${wanted}, observed ${observed}`;
}

/** An expected value as the report shows it. */
function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

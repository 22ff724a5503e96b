/**
 * Grade tables: run a learner's function on cases, and say for each whether
 * it passed, failed, or is not written yet.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { isObject } from "./jsonrpc.ts";
import { NotImplementedError } from "./not_implemented.ts";

/**
 * One case: a label, the arguments, and the expected outcome: the value
 * returned, or `{ throws: NAME }` for an error of the class `NAME`, or
 * `{ throws: NAME, with: FIELDS }` for one that also carries those fields
 * (such as a `ProtocolError`'s `code`).
 */
export interface GradeCase {
  label: string;
  args: unknown[];
  expected: unknown;
}

/** What happened in one case (a type, not an interface, so rows are `showTable` rows too). */
export type GradeRow = {
  case: string;
  expected: unknown;
  observed: unknown;
  status: "PASS" | "FAIL" | "UNFINISHED";
};

/** Options for {@linkcode gradeCases}. */
export interface GradeOptions {
  /** Turns a returned value into the form `expected` is written in. @default {(value) => value} */
  normalize?: (value: unknown) => unknown;
}

/**
 * Run `candidate` on each case, on a copy of its arguments, and compare what
 * it returns (or the name of what it throws, as `{ throws: NAME }`) with the
 * expected outcome. When the expected error lists fields (`with`), the
 * observed error is shown with the same fields, read from what was thrown,
 * and passes only when they are equal too. A case fails when the candidate
 * changed its arguments, and is `UNFINISHED` when it threw
 * {@linkcode NotImplementedError}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { showTable } from "./display.ts";
 *
 * const rows = gradeCases((a: number, b: number) => a + b, [
 *   { label: "adds", args: [2, 2], expected: 4 },
 *   { label: "refuses", args: [1, 1], expected: { throws: "RangeError" } },
 * ]);
 * assert.deepEqual(rows.map((row) => row.status), ["PASS", "FAIL"]);
 * await showTable(rows, { title: "addition" });
 * ```
 *
 * @example An error's fields, such as a JSON-RPC error code
 * ```ts
 * import assert from "node:assert/strict";
 * import { ProtocolError } from "./errors.ts";
 *
 * const refuse = (code: number) => {
 *   throw new ProtocolError("Method not found", { code });
 * };
 * const expected = { throws: "ProtocolError", with: { code: -32601 } };
 * const rows = gradeCases(refuse, [
 *   { label: "keeps the code", args: [-32601], expected },
 *   { label: "another code", args: [-32600], expected },
 * ]);
 * assert.deepEqual(rows.map((row) => row.status), ["PASS", "FAIL"]);
 * assert.deepEqual(rows[1].observed, { throws: "ProtocolError", with: { code: -32600 } });
 * ```
 */
export function gradeCases(
  // deno-lint-ignore no-explicit-any
  candidate: (...args: any[]) => unknown,
  cases: readonly GradeCase[],
  options: GradeOptions = {},
): GradeRow[] {
  return cases.map((testCase) => {
    const supplied = structuredClone(testCase.args);
    let outcome: Outcome;
    try {
      outcome = { returned: candidate(...supplied) };
    } catch (error) {
      outcome = threwOutcome(error);
    }
    return judge(testCase, outcome, {
      normalize: options.normalize,
      changedInput: !isDeepStrictEqual(supplied, testCase.args),
    });
  });
}

/** What running a function on a case produced: a value, or an error's name and own fields. */
export type Outcome =
  | { returned: unknown }
  | { threw: string; fields?: Record<string, unknown> };

/** Options for {@linkcode judge}. */
export interface JudgeOptions extends GradeOptions {
  /** Whether the function changed the arguments it was given. @default {false} */
  changedInput?: boolean;
}

/**
 * The row for one case, given what the function did: `UNFINISHED` when it
 * threw `NotImplementedError`, `FAIL` when it changed its input or the
 * outcome differs from the expected one, otherwise `PASS`. The autograder
 * judges with it too, in a realm the learner's code never runs in.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const testCase = { label: "refuses", args: [1], expected: { throws: "RangeError" } };
 * assert.equal(judge(testCase, { threw: "RangeError" }).status, "PASS");
 * assert.equal(judge(testCase, { returned: 1 }).status, "FAIL");
 * assert.equal(judge(testCase, { threw: "NotImplementedError" }).status, "UNFINISHED");
 * ```
 */
export function judge(testCase: GradeCase, outcome: Outcome, options: JudgeOptions = {}): GradeRow {
  const { label, expected } = testCase;
  if ("threw" in outcome && outcome.threw === NotImplementedError.name) {
    return { case: label, expected, observed: "not written yet", status: "UNFINISHED" };
  }
  if (options.changedInput) {
    return { case: label, expected, observed: "changed its input", status: "FAIL" };
  }
  let observed: unknown;
  if ("threw" in outcome) {
    observed = thrown(outcome, expected);
  } else {
    try {
      observed = (options.normalize ?? ((value) => value))(outcome.returned);
    } catch {
      observed = { returned: String(outcome.returned).slice(0, 100) };
    }
  }
  return {
    case: label,
    expected,
    observed,
    status: isDeepStrictEqual(observed, expected) ? "PASS" : "FAIL",
  };
}

/**
 * What a thrown value looks like as an {@linkcode Outcome}: its name, and its
 * own fields (a `ProtocolError`'s `code` and `data`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(threwOutcome(new RangeError("too long")), { threw: "RangeError", fields: {} });
 * ```
 */
export function threwOutcome(error: unknown): Outcome {
  const name = error instanceof Error ? error.name : typeof error;
  const fields = isObject(error) ? { ...error } : {};
  return { threw: name, fields };
}

/** What an error looks like to a case expecting `expected`: its name, and the fields it lists. */
function thrown(outcome: { threw: string; fields?: Record<string, unknown> }, expected: unknown) {
  const fields = isObject(expected) && isObject(expected.with) ? expected.with : undefined;
  if (fields === undefined) return { throws: outcome.threw };
  const carried = Object.keys(fields).map((key) => [key, outcome.fields?.[key]]);
  return { throws: outcome.threw, with: Object.fromEntries(carried) };
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

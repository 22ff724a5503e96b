/**
 * Grade tables: run a learner's function on cases, and say for each whether
 * it passed, failed, or is not written yet.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { isObject } from "../mcp/shared/jsonrpc.ts";
import { NotImplementedError } from "./not_implemented.ts";
import { captureStdout } from "../notebook/stdout_capture.ts";
import { describe, messageOf, threwOutcome } from "./threw_outcome.ts";

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

/**
 * What happened in one case (a type, not an interface, so rows are `showTable`
 * rows too): its label, the inputs it was given, the expected and observed
 * outcomes, the message of an error the function threw (or of the reason its
 * value could not be read, `""` when there is none), and the status.
 */
export type GradeRow = {
  case: string;
  input: unknown[];
  expected: unknown;
  observed: unknown;
  message: string;
  status: "PASS" | "FAIL" | "UNFINISHED";
};

/** Options for {@linkcode gradeCases}. */
export interface GradeOptions {
  /** Turns a returned value into the form `expected` is written in. @default {(value) => value} */
  normalize?: (value: unknown) => unknown;
  /**
   * Whether the function must print nothing on stdout (a stdio server's
   * dispatcher): what it prints is kept back, and fails the case. @default {false}
   */
  quiet?: boolean;
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
 * import { showTable } from "../notebook/display.ts";
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
 * import { ProtocolError } from "../mcp/shared/errors.ts";
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
 *
 * @example A function that must print nothing on stdout
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const chatty = (line: string) => {
 *   console.log("got", line);
 *   return line;
 * };
 * const rows = gradeCases(chatty, [{ label: "echo", args: ["ping"], expected: "ping" }], {
 *   quiet: true,
 * });
 * assert.equal(rows[0].status, "FAIL");
 * assert.equal(rows[0].observed, "printed on stdout");
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
    const stop = options.quiet ? captureStdout() : undefined;
    let outcome: Outcome;
    let printed: string | undefined;
    try {
      outcome = { returned: candidate(...supplied) };
    } catch (error) {
      outcome = threwOutcome(error);
    } finally {
      printed = stop?.();
    }
    return judge(testCase, outcome, {
      normalize: options.normalize,
      changedInput: !isDeepStrictEqual(supplied, testCase.args),
      printed,
    });
  });
}

/**
 * What running a function on a case produced: a value, or an error's name,
 * its message and its own fields.
 */
export type Outcome =
  | { returned: unknown }
  | { threw: string; message?: string; fields?: Record<string, unknown> };

/** Options for {@linkcode judge}. */
export interface JudgeOptions extends GradeOptions {
  /** Whether the function changed the arguments it was given. @default {false} */
  changedInput?: boolean;
  /** What the function printed on stdout, when that was kept back; anything fails. @default {undefined} */
  printed?: string;
}

/**
 * The row for one case, given what the function did: `UNFINISHED` when it
 * threw `NotImplementedError`, `FAIL` when it changed its input or the
 * outcome differs from the expected one, otherwise `PASS`. A value returned
 * never passes for an error expected, whatever it looks like (a function
 * that returns `{ throws: "ProtocolError" }` has not refused anything), and
 * an error thrown never passes for a value. The autograder judges with it
 * too, in a realm the learner's code never runs in.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const testCase = { label: "refuses", args: [1], expected: { throws: "RangeError" } };
 * assert.equal(judge(testCase, { threw: "RangeError" }).status, "PASS");
 * assert.equal(judge(testCase, { returned: 1 }).status, "FAIL");
 * assert.equal(judge(testCase, { returned: { throws: "RangeError" } }).status, "FAIL");
 * assert.equal(judge(testCase, { threw: "NotImplementedError" }).status, "UNFINISHED");
 * ```
 */
export function judge(testCase: GradeCase, outcome: Outcome, options: JudgeOptions = {}): GradeRow {
  const { label, args, expected } = testCase;
  const row = (observed: unknown, status: GradeRow["status"], message = ""): GradeRow => ({
    case: label,
    input: args,
    expected,
    observed,
    message,
    status,
  });
  if ("threw" in outcome && outcome.threw === NotImplementedError.name) {
    return row("not written yet", "UNFINISHED");
  }
  if (options.changedInput) return row("changed its input", "FAIL");
  if (options.printed) {
    return row("printed on stdout", "FAIL", JSON.stringify(options.printed.slice(0, 100)));
  }
  if ("threw" in outcome) {
    const observed = thrown(outcome, expected);
    const passed = isThrowSpec(expected) && isDeepStrictEqual(observed, expected);
    return row(observed, passed ? "PASS" : "FAIL", outcome.message ?? "");
  }
  let value: unknown;
  try {
    value = (options.normalize ?? ((value) => value))(outcome.returned);
  } catch (error) {
    // What was returned, as the learner wrote it (a list of flags stays a list), when it is plain data.
    return row({ returned: asWritten(outcome.returned) }, "FAIL", messageOf(error));
  }
  if (isThrowSpec(expected)) return row({ returned: value }, "FAIL");
  return row(value, isDeepStrictEqual(value, expected) ? "PASS" : "FAIL");
}

export { threwOutcome };

/** `value` itself when it is plain JSON data (a copy), otherwise a short description of it. */
function asWritten(value: unknown): unknown {
  try {
    const copy = JSON.parse(JSON.stringify(value) ?? "null");
    if (isDeepStrictEqual(copy, value)) return copy;
  } catch {
    // A cycle, a BigInt, a getter that throws: described below.
  }
  return describe(value);
}

/** Whether `expected` is the form an expected error takes: `{ throws: NAME }`, with `with` or not. */
function isThrowSpec(expected: unknown): boolean {
  return isObject(expected) && Object.hasOwn(expected, "throws") &&
    typeof expected.throws === "string";
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
 * assert.equal(verdict([{ status: "PASS" }, { status: "PASS" }]), "PASSED");
 * assert.equal(verdict([{ status: "PASS" }, { status: "UNFINISHED" }]), "NEEDS_WORK");
 * ```
 */
export function verdict(rows: readonly Pick<GradeRow, "status">[]): "PASSED" | "NEEDS_WORK" {
  return rows.length > 0 && rows.every((row) => row.status === "PASS") ? "PASSED" : "NEEDS_WORK";
}

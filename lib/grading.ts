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

/** An expected error: its class name, and optionally fields the error must carry. */
export interface ExpectedThrow {
  throws: string;
  /** Fields of the error, each deeply equal to the thrown error's. @default {undefined} */
  with?: Record<string, unknown>;
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
      observed = thrown(error, expected);
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

/** What `error` looks like to a case expecting `expected`: its name, and the fields it lists. */
function thrown(error: unknown, expected: unknown): ExpectedThrow {
  const name = error instanceof Error ? error.name : typeof error;
  const fields = isObject(expected) && isObject(expected.with) ? expected.with : undefined;
  if (fields === undefined) return { throws: name };
  const carried = Object.keys(fields).map((key) => [key, Object(error)[key]]);
  return { throws: name, with: Object.fromEntries(carried) };
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

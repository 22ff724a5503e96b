/**
 * Where two JSON values differ, path by path: for a grade row that compares
 * a whole observation, and for a transcript compared with the instructors'
 * reference.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { isObject } from "../mcp/shared/jsonrpc.ts";

/** One place where two values differ. */
export interface Difference {
  /** The place, in JavaScript notation (`steps[0].threw`); `""` for the whole value. */
  path: string;
  /** The keys and indexes that lead there. */
  keys: (string | number)[];
  expected: unknown;
  observed: unknown;
  /** Which side lacks the key altogether (an `undefined` that is there is not missing). */
  missing?: "expected" | "observed";
}

/**
 * Each place where `observed` differs from `expected`. Objects are compared
 * key by key, whatever the order of their keys; arrays item by item. `[]`
 * when they are equal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(differencesOf({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }), []);
 * const [first] = differencesOf({ steps: [{ returned: undefined }] }, { steps: [{ returned: {} }] });
 * assert.deepEqual(first, { path: "steps[0].returned", keys: ["steps", 0, "returned"], expected: undefined, observed: {} });
 * // A key that holds undefined is there: it differs from a key that is not.
 * const [extra] = differencesOf({ a: 1 }, { a: 1, b: undefined });
 * assert.deepEqual(extra, { path: "b", keys: ["b"], expected: undefined, observed: undefined, missing: "expected" });
 * ```
 */
export function differencesOf(
  expected: unknown,
  observed: unknown,
  keys: (string | number)[] = [],
): Difference[] {
  if (isDeepStrictEqual(expected, observed)) return [];
  if (isObject(expected) && isObject(observed)) {
    const all = [...new Set([...Object.keys(expected), ...Object.keys(observed)])].sort();
    return all.flatMap((key) => {
      const found = differencesOf(expected[key], observed[key], [...keys, key]);
      if (!Object.hasOwn(expected, key)) return marked(found, "expected", [...keys, key]);
      return Object.hasOwn(observed, key) ? found : marked(found, "observed", [...keys, key]);
    });
  }
  if (Array.isArray(expected) && Array.isArray(observed)) {
    const length = Math.max(expected.length, observed.length);
    return Array.from({ length }, (_, i) => {
      const found = differencesOf(expected[i], observed[i], [...keys, i]);
      if (i >= expected.length) return marked(found, "expected", [...keys, i]);
      return i < observed.length ? found : marked(found, "observed", [...keys, i]);
    }).flat();
  }
  return [{ path: pathOf(keys), keys, expected, observed }];
}

/**
 * Each place where `observed` differs from `expected`, as
 * `PATH: expected X, observed Y` (`the value` for the whole; `nothing` for a
 * key that is not there, `undefined` for one that holds it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(jsonDifferences({ steps: [{ threw: "ToolError" }] }, { steps: [{ returned: "ate" }] }), [
 *   'steps[0].returned: expected nothing, observed "ate"',
 *   'steps[0].threw: expected "ToolError", observed nothing',
 * ]);
 * ```
 */
export function jsonDifferences(expected: unknown, observed: unknown): string[] {
  return differencesOf(expected, observed).map((difference) =>
    `${difference.path || "the value"}: expected ${sideOf(difference, "expected")}, observed ${
      sideOf(difference, "observed")
    }`
  );
}

/** One side of a difference as JSON: `nothing` where the key is missing, `undefined` where it holds that. */
export function sideOf(difference: Difference, side: "expected" | "observed"): string {
  if (difference.missing === side) return "nothing";
  const value = difference[side];
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * `found`, the differences under a key that one side lacks, marked so; a key
 * the other side holds `undefined` under is itself a difference (the two
 * values compare equal, but the key is there).
 */
function marked(
  found: Difference[],
  missing: "expected" | "observed",
  keys: (string | number)[],
): Difference[] {
  if (found.length === 0) {
    return [{ path: pathOf(keys), keys, expected: undefined, observed: undefined, missing }];
  }
  return found.map((difference) => ({ ...difference, missing }));
}

function pathOf(keys: (string | number)[]): string {
  return keys.map((key, i) =>
    typeof key === "number"
      ? `[${key}]`
      : /^[A-Za-z_$][\w$]*$/.test(key)
      ? (i === 0 ? key : `.${key}`)
      : `[${JSON.stringify(key)}]`
  ).join("");
}

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

/** Options for {@linkcode differencesOf} and {@linkcode jsonDifferences}. */
export interface DifferencesOptions {
  /** The keys and indexes that lead to the two values compared. @default {[]} */
  keys?: (string | number)[];
  /**
   * The most differences to find: the walk stops there, so that a value with
   * a hundred thousand entries where a few were expected costs what those
   * few cost. @default {Infinity}
   */
  limit?: number;
}

/**
 * Each place where `observed` differs from `expected`, the first `limit` of
 * them. Objects are compared key by key, whatever the order of their keys;
 * arrays item by item. `[]` when they are equal.
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
 * assert.equal(differencesOf([], new Array(100_000).fill(0), { limit: 3 }).length, 3);
 * ```
 */
export function differencesOf(
  expected: unknown,
  observed: unknown,
  options: DifferencesOptions = {},
): Difference[] {
  const found: Difference[] = [];
  const limit = options.limit ?? Infinity;
  if (limit < 1) return found;
  for (const difference of walk(expected, observed, options.keys ?? [])) {
    if (found.push(difference) >= limit) break;
  }
  return found;
}

/** The differences of `expected` and `observed` under `keys`, found one at a time. */
function* walk(
  expected: unknown,
  observed: unknown,
  keys: (string | number)[],
): Generator<Difference> {
  if (isDeepStrictEqual(expected, observed)) return;
  if (isObject(expected) && isObject(observed)) {
    const all = [...new Set([...Object.keys(expected), ...Object.keys(observed)])].sort();
    for (const key of all) {
      const missing = !Object.hasOwn(expected, key)
        ? "expected"
        : Object.hasOwn(observed, key)
        ? undefined
        : "observed";
      yield* marked(walk(expected[key], observed[key], [...keys, key]), missing, [...keys, key]);
    }
    return;
  }
  if (Array.isArray(expected) && Array.isArray(observed)) {
    const length = Math.max(expected.length, observed.length);
    for (let i = 0; i < length; i++) {
      const missing = i >= expected.length
        ? "expected"
        : i < observed.length
        ? undefined
        : "observed";
      yield* marked(walk(expected[i], observed[i], [...keys, i]), missing, [...keys, i]);
    }
    return;
  }
  yield { path: pathOf(keys), keys, expected, observed };
}

/**
 * Each place where `observed` differs from `expected` (the first `limit` of
 * them), as `PATH: expected X, observed Y` (`the value` for the whole; `nothing` for a
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
export function jsonDifferences(
  expected: unknown,
  observed: unknown,
  options: DifferencesOptions = {},
): string[] {
  return differencesOf(expected, observed, options).map((difference) =>
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
 * `found`, the differences under a key that one side lacks (`missing`),
 * marked so; a key the other side holds `undefined` under is itself a
 * difference (the two values compare equal, but the key is there).
 */
function* marked(
  found: Generator<Difference>,
  missing: "expected" | "observed" | undefined,
  keys: (string | number)[],
): Generator<Difference> {
  let any = false;
  for (const difference of found) {
    any = true;
    yield missing === undefined ? difference : { ...difference, missing };
  }
  if (!any && missing !== undefined) {
    yield { path: pathOf(keys), keys, expected: undefined, observed: undefined, missing };
  }
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

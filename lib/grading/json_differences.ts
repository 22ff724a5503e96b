/**
 * Where two JSON values differ, path by path, in words: for a grade row that
 * compares a whole observation, and for a transcript compared with the
 * instructors' reference.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { isObject } from "../mcp/shared/jsonrpc.ts";

/**
 * Each place where `observed` differs from `expected`, as
 * `PATH: expected X, observed Y` (the path in JavaScript notation, `the
 * value` for the whole). Objects are compared key by key, whatever the order
 * of their keys; arrays item by item. `[]` when they are equal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(jsonDifferences({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }), []);
 * assert.deepEqual(jsonDifferences({ steps: [{ threw: "ToolError" }] }, { steps: [{ returned: "ate" }] }), [
 *   'steps[0].returned: expected nothing, observed "ate"',
 *   'steps[0].threw: expected "ToolError", observed nothing',
 * ]);
 * ```
 */
export function jsonDifferences(expected: unknown, observed: unknown, path = ""): string[] {
  if (isDeepStrictEqual(expected, observed)) return [];
  if (isObject(expected) && isObject(observed)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(observed)])].sort();
    return keys.flatMap((key) =>
      jsonDifferences(expected[key], observed[key], path === "" ? key : `${path}.${key}`)
    );
  }
  if (Array.isArray(expected) && Array.isArray(observed)) {
    const length = Math.max(expected.length, observed.length);
    return Array.from(
      { length },
      (_, i) => jsonDifferences(expected[i], observed[i], `${path}[${i}]`),
    )
      .flat();
  }
  return [`${path || "the value"}: expected ${show(expected)}, observed ${show(observed)}`];
}

function show(value: unknown): string {
  if (value === undefined) return "nothing";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

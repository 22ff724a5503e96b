/**
 * Lab 02's unwrap rule: what a tool's text means to the caller.
 *
 * @module
 */

/**
 * The value a tool's result text stands for: the text parsed as JSON when it
 * is JSON (an object, a number, a quoted string), and otherwise the text
 * itself, unchanged. `comió` is not JSON, so it stays the string `comió`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(unwrap('{"verb":"go","irregular":true}'), { verb: "go", irregular: true });
 * assert.equal(unwrap("comió"), "comió");
 * assert.equal(unwrap("42"), 42);
 * ```
 */
export function unwrap(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return text;
    throw error;
  }
}

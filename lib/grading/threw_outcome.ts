/**
 * What a thrown value looks like to the grader, with nothing but the language
 * itself: a learner's realm in the grader's sandbox reports its errors with
 * it, and loads no more than it needs.
 *
 * @module
 */

/** A thrown value as an outcome: its name, its message, and its own fields. */
export type Threw = { threw: string; message?: string; fields?: Record<string, unknown> };

/**
 * What a thrown value looks like as a grading outcome: its name, its
 * message, and its own fields (a `ProtocolError`'s `code` and `data`). It
 * never throws, whatever was thrown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(threwOutcome(new RangeError("too long")), {
 *   threw: "RangeError",
 *   message: "too long",
 *   fields: {},
 * });
 * assert.equal(threwOutcome("a string").threw, "string");
 * ```
 */
export function threwOutcome(error: unknown): Threw {
  try {
    if (!(error instanceof Error)) return { threw: typeof error, message: describe(error) };
    const name = typeof error.name === "string" ? error.name : "Error";
    const fields: Record<string, unknown> = {};
    for (const key of Object.keys(error)) fields[key] = error[key as keyof Error];
    return { threw: name, message: messageOf(error), fields };
  } catch {
    return { threw: "Error", message: "an error that could not be read" };
  }
}

/**
 * A thrown value's message, at most 300 characters; never throws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(messageOf(new Error("x".repeat(400))).length, 300);
 * ```
 */
export function messageOf(error: unknown): string {
  try {
    return (error instanceof Error ? String(error.message) : describe(error)).slice(0, 300);
  } catch {
    return "a message that could not be read";
  }
}

/**
 * A short description of any value, for a table, at most 100 characters;
 * never throws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(describe(Object.create(null)), "[object Object]");
 * ```
 */
export function describe(value: unknown): string {
  for (const show of [String, (value: unknown) => Object.prototype.toString.call(value)]) {
    try {
      return show(value).slice(0, 100);
    } catch {
      // Try the next way of showing it.
    }
  }
  return "a value that could not be read";
}

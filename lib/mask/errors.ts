/**
 * The three ways compiling a schema or generating under it can stop. Each
 * class's `name` is its class name, so `error.name` tells them apart.
 *
 * @module
 */

/**
 * The schema uses something the compiler cannot turn into an exact mask: it
 * refuses rather than build a mask that lets a wrong call through.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const error = new UnsupportedSchemaError("uniqueItems", "at /properties/tags");
 * assert.equal(error.name, "UnsupportedSchemaError");
 * assert.equal(error.keyword, "uniqueItems");
 * ```
 */
export class UnsupportedSchemaError extends Error {
  /** The keyword (or feature) that is not supported. */
  readonly keyword: string;

  /** Say which keyword is not supported, and where. */
  constructor(keyword: string, where = "") {
    super(`The schema keyword ${keyword} is not supported${where ? ` (${where})` : ""}`);
    this.name = "UnsupportedSchemaError";
    this.keyword = keyword;
  }
}

/**
 * The schema compiles to more automaton states than the limit allows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const error = new SchemaTooLargeError(60000, 50000);
 * assert.equal(error.name, "SchemaTooLargeError");
 * assert.match(error.message, /60000 states, over the limit of 50000/);
 * ```
 */
export class SchemaTooLargeError extends Error {
  /** Make the error, naming the size reached and the limit. */
  constructor(reached: number, limit: number) {
    super(`The schema's automaton reached ${reached} states, over the limit of ${limit}`);
    this.name = "SchemaTooLargeError";
  }
}

/**
 * Generation used its whole token budget before the arguments were complete.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const error = new MaxTokensError(256, '{"verb":"ea');
 * assert.equal(error.name, "MaxTokensError");
 * assert.equal(error.text, '{"verb":"ea');
 * ```
 */
export class MaxTokensError extends Error {
  /** The text generated before the budget ran out. */
  readonly text: string;

  /** Make the error, naming the budget and keeping the text so far. */
  constructor(maxTokens: number, text: string) {
    super(`Generation stopped after ${maxTokens} tokens without a complete instance`);
    this.name = "MaxTokensError";
    this.text = text;
  }
}

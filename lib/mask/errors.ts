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
 * The schema compiles to more automaton states than the limit allows; the
 * error names the keyword whose automaton grew past it, and where.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const error = new SchemaTooLargeError(60000, 50000, "oneOf", "at #/properties/shape");
 * assert.equal(error.name, "SchemaTooLargeError");
 * assert.equal(error.keyword, "oneOf");
 * assert.match(error.message, /oneOf .*60000 states, over the limit of 50000/);
 * ```
 */
export class SchemaTooLargeError extends Error {
  /** The keyword whose automaton grew past the limit (empty until the compiler knows it). */
  readonly keyword: string;
  /** The size reached. */
  readonly reached: number;
  /** The limit. */
  readonly limit: number;

  /** Make the error, naming the size reached, the limit and, once known, the keyword and where. */
  constructor(reached: number, limit: number, keyword = "", where = "") {
    const what = keyword === "" ? "The schema's automaton" : `The automaton of ${keyword}`;
    super(
      `${what}${where ? ` (${where})` : ""} reached ${reached} states, over the limit of ${limit}`,
    );
    this.name = "SchemaTooLargeError";
    this.keyword = keyword;
    this.reached = reached;
    this.limit = limit;
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

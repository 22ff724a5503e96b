/**
 * Argument completion (`completion/complete`) as a client checks it: what it
 * asks about (a prompt's argument, or a resource template's variable), and
 * the suggestions the server answers with, at most 100 strings.
 *
 * @module
 */

import { isObject, type JsonObject } from "../shared/jsonrpc.ts";

/** What a completion is for: a prompt, by name, or a resource template, by URI template. */
export type CompletionRef = { type: "ref/prompt"; name: string } | {
  type: "ref/resource";
  uri: string;
};

/** The server's suggestions. */
export interface Completion {
  /** The values suggested, at most 100. */
  values: string[];
  /** How many values there are in all, if the server says. */
  total?: number;
  /** Whether there are more values than those given, if the server says. */
  hasMore?: boolean;
}

/**
 * The suggestions in `result`, a `completion/complete` result, or why it is
 * not well formed (a sentence).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(completionOf({ completion: { values: ["paris", "perth"], hasMore: false } }), { values: ["paris", "perth"], hasMore: false });
 * assert.equal(completionOf({ completion: { values: [1] } }), "its completion.values are not a list of at most 100 strings");
 * ```
 */
export function completionOf(result: JsonObject): Completion | string {
  const completion = result.completion;
  if (!isObject(completion)) return "it has no completion object";
  const { values, total, hasMore } = completion;
  if (
    !Array.isArray(values) || values.length > 100 ||
    !values.every((value) => typeof value === "string")
  ) {
    return "its completion.values are not a list of at most 100 strings";
  }
  if (total !== undefined && (typeof total !== "number" || !Number.isInteger(total))) {
    return "its completion.total is not a whole number";
  }
  if (hasMore !== undefined && typeof hasMore !== "boolean") {
    return "its completion.hasMore is not a boolean";
  }
  return {
    values,
    ...(total === undefined ? {} : { total }),
    ...(hasMore === undefined ? {} : { hasMore }),
  };
}

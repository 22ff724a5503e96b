/**
 * What a `tools/call` result says: its text, or the failure it reports.
 *
 * @module
 */

import { ProtocolError, ToolError } from "./errors.ts";
import { isObject, type JsonObject } from "./jsonrpc.ts";

/**
 * The text of the `tools/call` result `result` from the tool `name` (its text
 * items joined by newlines). Throws `ToolError` with that text when the result
 * has `isError: true`, and `ProtocolError` when it has no content list or no
 * text in it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ToolError } from "./errors.ts";
 *
 * assert.equal(toolText("word_count", { content: [{ type: "text", text: "4" }] }), "4");
 * const failed = { content: [{ type: "text", text: "no such verb" }], isError: true };
 * assert.throws(() => toolText("conjugate", failed), ToolError);
 * ```
 */
export function toolText(name: string, result: JsonObject): string {
  if (!Array.isArray(result.content)) {
    throw new ProtocolError(`The result of ${name} has no content list`);
  }
  const texts = result.content
    .filter((item) => isObject(item) && item.type === "text" && typeof item.text === "string")
    .map((item) => item.text as string);
  if (result.isError === true) {
    throw new ToolError(texts.join("\n") || `${name} reported an error without text`);
  }
  if (texts.length === 0) throw new ProtocolError(`The result of ${name} has no text content`);
  return texts.join("\n");
}

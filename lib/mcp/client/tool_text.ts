/**
 * What a `tools/call` result says, as text: the whole of its answer, or the
 * failure it reports, and never a part of it that could pass for the whole.
 *
 * @module
 */

import { describeContent } from "../shared/content.ts";
import { ProtocolError, ToolError } from "../shared/errors.ts";
import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { textDisagreements } from "./text_agreement.ts";

/** What a refusal tells the caller to use instead. */
const WHOLE = "callToolResult() gives the whole result, checked";

/**
 * The text of the `tools/call` result `result` from the tool `name` (its text
 * items joined by newlines), for a result that has been checked (see
 * `checkToolResult`). Throws `ToolError` with that text when the result has
 * `isError: true`. Throws `ProtocolError`, naming `callToolResult`, when the
 * answer is not all text (an image, a resource: returning only the text
 * beside it would hand back part of the answer as if it were the whole), or
 * when a text disagrees with the result's `structuredContent` (see
 * `textDisagreements`: the checked value says one thing, the unchecked text
 * another); and when there is no text at all. A result with
 * `structuredContent` and no text gives that JSON as its text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ToolError } from "../shared/errors.ts";
 *
 * assert.equal(toolText("word_count", { content: [{ type: "text", text: "4" }] }), "4");
 * const failed = { content: [{ type: "text", text: "no such verb" }], isError: true };
 * assert.throws(() => toolText("conjugate", failed), ToolError);
 * ```
 */
export function toolText(name: string, result: JsonObject): string {
  const content = result.content as JsonObject[];
  const texts = content.filter((item) => item.type === "text").map((item) => item.text as string);
  if (result.isError === true) {
    throw new ToolError(texts.join("\n") || `${name} reported an error without text`);
  }
  const others = content.flatMap((item, index) =>
    item.type === "text" ? [] : [`content[${index}] is ${describeContent(item)}`]
  );
  if (others.length > 0) {
    throw new ProtocolError(
      `The result of ${name} holds more than text: ${others.join(", ")}; callTool() answers ` +
        `only with text, so it refuses the result rather than hand back part of it (${WHOLE})`,
    );
  }
  const structured = result.structuredContent;
  if (texts.length === 0) {
    if (structured !== undefined) return JSON.stringify(structured);
    throw new ProtocolError(`The result of ${name} has no text content`);
  }
  const disagreements = isObject(structured) ? textDisagreements(content, structured) : [];
  if (disagreements.length > 0) {
    throw new ProtocolError(
      `The text of ${name}'s result does not agree with its structuredContent: ${
        disagreements.join("; ")
      }; callTool() will not answer with a text its checked value contradicts (${WHOLE}, ` +
        "the disagreement in its notes)",
    );
  }
  return texts.join("\n");
}

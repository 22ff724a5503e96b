/**
 * What a `tools/call` result says, as text: the whole of its answer, or the
 * failure it reports, and never a part of it that could pass for the whole.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { describeContent } from "../shared/content.ts";
import { ProtocolError, ToolError } from "../shared/errors.ts";
import type { JsonObject } from "../shared/jsonrpc.ts";

/**
 * The text of the `tools/call` result `result` from the tool `name` (its text
 * items joined by newlines), for a result that has been checked (see
 * `checkToolResult`). Throws `ToolError` with that text when the result has
 * `isError: true`. Throws `ProtocolError` when the answer is not all text
 * (an image, a resource: returning only the text beside it would hand back
 * part of the answer as if it were the whole), when there is no text, or
 * when the text does not agree with the result's `structuredContent` (a
 * JSON text must be the same JSON; a text for people must be held in it,
 * whole). A result with `structuredContent` and no text gives that JSON as
 * its text.
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
      `The result of ${name} holds more than text: ${others.join(", ")}; this client answers ` +
        "only with text, so it refuses the result rather than hand back part of it",
    );
  }
  const structured = result.structuredContent;
  if (texts.length === 0) {
    if (structured !== undefined) return JSON.stringify(structured);
    throw new ProtocolError(`The result of ${name} has no text content`);
  }
  const text = texts.join("\n");
  if (structured !== undefined && !agrees(text, structured)) {
    throw new ProtocolError(
      `The text of ${name}'s result does not agree with its structuredContent: the text is ${
        preview(text)
      }, the structuredContent ${preview(JSON.stringify(structured))}`,
    );
  }
  return text;
}

/**
 * Whether `text` says what `value` says: a text that is JSON must be the JSON
 * of `value` (whatever its spacing and key order, as the specification's
 * SHOULD asks); a text that is not JSON is a rendering for people, which
 * agrees only when `value` holds exactly that text (as the published
 * filesystem server's `{ content: TEXT }` does).
 */
function agrees(text: string, value: unknown): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return holdsText(value, text, 0);
  }
  return isDeepStrictEqual(parsed, value);
}

/** Whether `value`, at most 32 levels down, holds the string `text`. */
function holdsText(value: unknown, text: string, depth: number): boolean {
  if (value === text) return true;
  if (depth >= 32 || typeof value !== "object" || value === null) return false;
  return Object.values(value).some((inner) => holdsText(inner, text, depth + 1));
}

function preview(text: string): string {
  return JSON.stringify(text.length > 80 ? text.slice(0, 80) + "…" : text);
}

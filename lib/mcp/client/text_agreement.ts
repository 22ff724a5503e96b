/**
 * Whether the texts of a tool's result say what its `structuredContent`
 * says. The specification asks a tool that returns structured content to
 * send its JSON as text as well (a SHOULD, for clients that read only text),
 * and asks nothing of clients; so a text that disagrees is noted, for the
 * caller to see, and what a caller does with the note is its own affair.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import type { ContentBlock } from "../shared/content.ts";
import type { JsonObject } from "../shared/jsonrpc.ts";

/** How deep into `structuredContent` a text is looked for. */
const MAX_DEPTH = 32;

/**
 * One sentence for each text item of `content` that does not agree with
 * `structured`, in order; `[]` when every one agrees. A text agrees when it
 * is the JSON of `structured` or of a value inside it (whatever its spacing
 * and key order: server-memory's `create_entities` sends the JSON of
 * `structuredContent.entities`), or when it is a string inside it, whole
 * (server-filesystem's `{ content: TEXT }`). At most 32 levels are searched,
 * and each value inside is compared once, so the time is bounded by the
 * size of the result times that depth.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const structured = { entities: [{ name: "Ada" }] };
 * assert.deepEqual(textDisagreements([{ type: "text", text: '[{"name":"Ada"}]' }], structured), []);
 * assert.match(
 *   textDisagreements([{ type: "text", text: "Grace" }], structured)[0],
 *   /^content\[0\]'s text does not agree with structuredContent/,
 * );
 * ```
 */
export function textDisagreements(
  content: readonly (ContentBlock | JsonObject)[],
  structured: JsonObject,
): string[] {
  const notes: string[] = [];
  for (const [index, item] of content.entries()) {
    if (item.type !== "text") continue;
    const text = item.text as string;
    if (agrees(text, structured)) continue;
    notes.push(
      `content[${index}]'s text does not agree with structuredContent: the text is ${
        preview(text)
      }, the structuredContent ${preview(JSON.stringify(structured))}`,
    );
  }
  return notes;
}

/** Whether `text`, or the JSON it holds, is `value` or a value inside it. */
function agrees(text: string, value: unknown): boolean {
  let parsed: unknown = undefined;
  let isJson = true;
  try {
    parsed = JSON.parse(text);
  } catch {
    isJson = false;
  }
  return holds(value, (inner) => inner === text || (isJson && isDeepStrictEqual(parsed, inner)));
}

/** Whether `value`, or a value at most `MAX_DEPTH` levels inside it, passes `test`. */
function holds(value: unknown, test: (inner: unknown) => boolean, depth = 0): boolean {
  if (test(value)) return true;
  if (depth >= MAX_DEPTH || typeof value !== "object" || value === null) return false;
  return Object.values(value).some((inner) => holds(inner, test, depth + 1));
}

function preview(text: string): string {
  return JSON.stringify(text.length > 80 ? text.slice(0, 80) + "…" : text);
}

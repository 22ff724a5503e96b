/**
 * A `tools/call` result checked against the MCP version agreed (2025-06-18
 * unless told) before anything is taken from it.
 *
 * @module
 */

import { type ContentBlock, contentProblem } from "../shared/content.ts";
import { ProtocolError } from "../shared/errors.ts";
import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { schemaProblems } from "../shared/schema.ts";
import { LATEST_VERSION, type McpVersion, versionFeatures } from "../shared/versions.ts";
import { textDisagreements } from "./text_agreement.ts";

/** A tool's whole result, checked: what `Client.callToolResult` resolves with. */
export interface ToolResult {
  /** Every content item, each checked to its type. */
  content: ContentBlock[];
  /**
   * The structured value, checked against the tool's `outputSchema` when it
   * has one: an object, or from 2026-07-28 any JSON value.
   */
  structuredContent?: unknown;
  /** Whether the tool reports that it failed (`false` when the server left it out). */
  isError: boolean;
  /** The result's `_meta`, when the server sent one. */
  _meta?: JsonObject;
  /**
   * What the client noticed and did not refuse, one sentence each: a text
   * that disagrees with `structuredContent` (see `textDisagreements`). The
   * specification asks no agreement of a client, so the result stands; the
   * caller decides what a disagreement is worth.
   */
  notes: string[];
}

/** Options for {@linkcode checkToolResult}. */
export interface CheckToolResultOptions {
  /** The tool's advertised `outputSchema`, if it has one. @default {undefined} */
  outputSchema?: JsonObject;
  /**
   * The protocol version agreed: a content type or `structuredContent` it
   * does not define is refused. @default {"2025-06-18"}
   */
  version?: McpVersion;
}

/**
 * Check the result `result` of the tool `name` against the specification,
 * and throw `ProtocolError` saying what is wrong: `isError` that is present
 * but not a boolean, `_meta` that is not an object, no `content` list, a content item that is not well
 * formed ({@linkcode contentProblem}) or of a type the version does not
 * define, `structuredContent` that is not an object (before 2026-07-28,
 * which allows any JSON value), or, for a tool with an `outputSchema`, a
 * successful result without `structuredContent` or with `structuredContent`
 * the schema refuses (checked with ajv, in bounded time: see
 * {@linkcode schemaProblems}). Returns the result as the version has it: a
 * version without structured content (2024-11-05, 2025-03-26) allows other
 * keys beside `content`, so a `structuredContent` there is an unknown key,
 * left out, and never refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ProtocolError } from "../shared/errors.ts";
 *
 * const result = { content: [{ type: "text", text: "no such order" }], isError: "true" };
 * assert.throws(() => checkToolResult("record_delivery", result), ProtocolError);
 * const structured = { content: [{ type: "text", text: "4" }], structuredContent: { n: 4 } };
 * assert.deepEqual(checkToolResult("count", structured, { version: "2025-03-26" }), { content: [{ type: "text", text: "4" }] });
 * ```
 */
export function checkToolResult(
  name: string,
  result: JsonObject,
  { outputSchema, version = "2025-06-18" }: CheckToolResultOptions = {},
): JsonObject {
  const { structuredContent, era } = versionFeatures(version);
  const { structuredContent: _, ...unstructured } = result;
  const fitted = structuredContent ? result : unstructured;
  const problem = versionProblem(fitted, version) ??
    resultProblem(fitted, structuredContent ? outputSchema : undefined, era === "modern");
  if (problem !== undefined) {
    throw new ProtocolError(`The result of ${name} is malformed: ${problem}`);
  }
  return fitted;
}

/**
 * The checked result `result` (see {@linkcode checkToolResult}) as a
 * {@linkcode ToolResult}: its content, its structured value, `isError` as a
 * boolean, its `_meta`, and the notes on it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const result = {
 *   content: [{ type: "text", text: "72°F" }],
 *   structuredContent: { temperature: 22 },
 * };
 * const whole = wholeToolResult(result);
 * assert.equal(whole.isError, false);
 * assert.match(whole.notes[0], /does not agree with structuredContent/);
 * ```
 */
export function wholeToolResult(result: JsonObject): ToolResult {
  const content = result.content as ContentBlock[];
  const structured = result.structuredContent;
  return {
    content,
    ...(structured === undefined ? {} : { structuredContent: structured }),
    isError: result.isError === true,
    ...(result._meta === undefined ? {} : { _meta: result._meta as JsonObject }),
    notes: isObject(structured) ? textDisagreements(content, structured) : [],
  };
}

/** What in `result` the protocol version `version` does not define, if anything. */
function versionProblem(result: JsonObject, version: McpVersion): string | undefined {
  const { contentTypes } = versionFeatures(version);
  if (!Array.isArray(result.content)) return undefined;
  const defined = versionFeatures(LATEST_VERSION).contentTypes; // a type none defines is contentProblem's
  for (const [index, item] of result.content.entries()) {
    const type = isObject(item) ? item.type : undefined;
    if (typeof type === "string" && defined.includes(type) && !contentTypes.includes(type)) {
      return `content[${index}] is of the type ${type}, which ${version} does not define`;
    }
  }
  return undefined;
}

function resultProblem(
  result: JsonObject,
  outputSchema: JsonObject | undefined,
  anyStructured: boolean,
): string | undefined {
  if ("isError" in result && typeof result.isError !== "boolean") {
    return `"isError" must be a boolean, not ${JSON.stringify(result.isError)}`;
  }
  if ("_meta" in result && !isObject(result._meta)) return 'its "_meta" is not an object';
  if (!Array.isArray(result.content)) return "it has no content list";
  for (const [index, item] of result.content.entries()) {
    const problem = contentProblem(item);
    if (problem !== undefined) return `content[${index}] is ${problem}`;
  }
  const structured = result.structuredContent;
  if (structured !== undefined && !anyStructured && !isObject(structured)) {
    return `its structuredContent is not an object: ${JSON.stringify(structured)}`;
  }
  if (outputSchema === undefined || result.isError === true) return undefined;
  if (structured === undefined) {
    return "the tool has an outputSchema, but the result has no structuredContent";
  }
  const problems = schemaProblems(outputSchema, structured);
  if (problems.length > 0) {
    return `its structuredContent does not match the tool's outputSchema: ${problems.join("; ")}`;
  }
  return undefined;
}

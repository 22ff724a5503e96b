/**
 * A `tools/call` result checked against MCP 2025-06-18 before anything is
 * taken from it.
 *
 * @module
 */

import { contentProblem } from "../shared/content.ts";
import { ProtocolError } from "../shared/errors.ts";
import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { schemaProblems } from "../shared/schema.ts";

/** Options for {@linkcode checkToolResult}. */
export interface CheckToolResultOptions {
  /** The tool's advertised `outputSchema`, if it has one. @default {undefined} */
  outputSchema?: JsonObject;
}

/**
 * Check the result `result` of the tool `name` against the specification,
 * and throw `ProtocolError` saying what is wrong: `isError` that is present
 * but not a boolean, no `content` list, a content item that is not well
 * formed ({@linkcode contentProblem}), `structuredContent` that is not an
 * object, or, for a tool with an `outputSchema`, a successful result without
 * `structuredContent` or with `structuredContent` the schema refuses (checked
 * with ajv, in bounded time: see {@linkcode schemaProblems}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ProtocolError } from "../shared/errors.ts";
 *
 * const result = { content: [{ type: "text", text: "no such order" }], isError: "true" };
 * assert.throws(() => checkToolResult("record_delivery", result), ProtocolError);
 * ```
 */
export function checkToolResult(
  name: string,
  result: JsonObject,
  { outputSchema }: CheckToolResultOptions = {},
): void {
  const problem = resultProblem(result, outputSchema);
  if (problem !== undefined) {
    throw new ProtocolError(`The result of ${name} is malformed: ${problem}`);
  }
}

function resultProblem(result: JsonObject, outputSchema?: JsonObject): string | undefined {
  if ("isError" in result && typeof result.isError !== "boolean") {
    return `"isError" must be a boolean, not ${JSON.stringify(result.isError)}`;
  }
  if (!Array.isArray(result.content)) return "it has no content list";
  for (const [index, item] of result.content.entries()) {
    const problem = contentProblem(item);
    if (problem !== undefined) return `content[${index}] is ${problem}`;
  }
  const structured = result.structuredContent;
  if (structured !== undefined && !isObject(structured)) {
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

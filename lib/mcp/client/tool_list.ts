/**
 * The tools a server advertises, gathered from every page of `tools/list`.
 *
 * @module
 */

import { ProtocolError } from "../shared/errors.ts";
import { isObject, type JsonObject } from "../shared/jsonrpc.ts";

/** A tool as its server advertised it. */
export interface Tool extends JsonObject {
  name: string;
  description?: string;
  inputSchema: JsonObject;
  /** The schema of its `structuredContent`, if it promises one. */
  outputSchema?: JsonObject;
}

/** Fetches one page of `tools/list`: the first when `cursor` is undefined. */
export type FetchToolPage = (cursor: string | undefined) => Promise<JsonObject>;

/**
 * Every tool on every page, by name, following `nextCursor` until a page has
 * none. Throws `ProtocolError` for a page without a `tools` list, a tool
 * without a name or an object `inputSchema`, an `outputSchema` that is not
 * an object, a name advertised twice, a
 * cursor that is not a string or was given before, or more than `maxPages`
 * pages.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const pages: Record<string, object> = {
 *   first: { tools: [{ name: "a", inputSchema: { type: "object" } }], nextCursor: "2" },
 *   "2": { tools: [{ name: "b", inputSchema: { type: "object" } }] },
 * };
 * const tools = await collectTools(async (cursor) => ({ ...pages[cursor ?? "first"] }), 10);
 * assert.deepEqual(Object.keys(tools), ["a", "b"]);
 * ```
 */
export async function collectTools(
  fetchPage: FetchToolPage,
  maxPages: number,
): Promise<Record<string, Tool>> {
  const tools = new Map<string, Tool>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1;; page++) {
    if (page > maxPages) throw new ProtocolError(`tools/list went on past ${maxPages} pages`);
    const result = await fetchPage(cursor);
    if (!Array.isArray(result.tools)) {
      throw new ProtocolError("The tools/list result has no `tools` list");
    }
    for (const tool of result.tools) {
      if (!isTool(tool)) {
        throw new ProtocolError(
          `An advertised tool needs a name, an object inputSchema, and an outputSchema that ` +
            `is an object if it has one: ${JSON.stringify(tool)}`,
        );
      }
      if (tools.has(tool.name)) {
        throw new ProtocolError(`The tool ${tool.name} is advertised twice`);
      }
      tools.set(tool.name, tool);
    }
    if (result.nextCursor === undefined) return Object.fromEntries(tools);
    if (typeof result.nextCursor !== "string" || cursors.has(result.nextCursor)) {
      throw new ProtocolError(
        `tools/list gave a cursor it had given before, or not a string: ${
          JSON.stringify(result.nextCursor)
        }`,
      );
    }
    cursor = result.nextCursor;
    cursors.add(cursor);
  }
}

function isTool(value: unknown): value is Tool {
  return isObject(value) && typeof value.name === "string" && isObject(value.inputSchema) &&
    (value.outputSchema === undefined || isObject(value.outputSchema));
}

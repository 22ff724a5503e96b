/**
 * The tools a server advertises, gathered from every page of `tools/list`,
 * each checked against the `Tool` of the version agreed.
 *
 * @module
 */

import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { type McpVersion, versionFeatures } from "../shared/versions.ts";
import { collectPages, type FetchPage } from "./pages.ts";

/** A tool as its server advertised it. */
export interface Tool extends JsonObject {
  name: string;
  title?: string;
  description?: string;
  /** The JSON Schema of its arguments: an object schema (`"type": "object"`). */
  inputSchema: JsonObject;
  /**
   * The schema of its `structuredContent`, if it promises one: an object
   * schema too, or from 2026-07-28 any JSON Schema (an object).
   */
  outputSchema?: JsonObject;
}

/** Fetches one page of `tools/list`: the first when `cursor` is undefined. */
export type FetchToolPage = FetchPage;

/** The hints a tool's `annotations` may give, and their types. */
const HINTS: Record<string, string> = {
  title: "string",
  readOnlyHint: "boolean",
  destructiveHint: "boolean",
  idempotentHint: "boolean",
  openWorldHint: "boolean",
};

/**
 * Every tool on every page, by name (see `collectPages`). Throws
 * `ProtocolError` for a page without a `tools` list, a name advertised
 * twice, a bad cursor, too many pages, or a tool that is not what the
 * specification says at `version` (see {@linkcode toolProblem}).
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
export function collectTools(
  fetchPage: FetchToolPage,
  maxPages: number,
  version: McpVersion = "2025-06-18",
): Promise<Record<string, Tool>> {
  return collectPages<Tool>(fetchPage, {
    method: "tools/list",
    field: "tools",
    noun: "tool",
    problem: (tool) => toolProblem(tool, version),
    key: (tool) => tool.name,
  }, maxPages);
}

/**
 * What is wrong with an advertised tool, as the end of "The tools/list
 * result has a tool …" at `version`, or `undefined` when it is well formed:
 * a string `name`; an `inputSchema` that is an object schema (`"type":
 * "object"`, its `properties` objects, its `required` strings), and an
 * `outputSchema` that is one too if it is there (from 2026-07-28, whose
 * `structuredContent` may be any JSON value, any schema that is an object);
 * a `title` and `description` that are strings; `annotations` whose hints
 * have their types.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(toolProblem({ name: "a", inputSchema: { type: "object" } }), undefined);
 * assert.equal(
 *   toolProblem({ name: "a", inputSchema: { type: "string" } }),
 *   'whose inputSchema is not an object schema ("type": "object")',
 * );
 * const list = { name: "a", inputSchema: { type: "object" }, outputSchema: { type: "array" } };
 * assert.equal(toolProblem(list, "2026-07-28"), undefined);
 * assert.match(toolProblem(list, "2025-11-25") ?? "", /outputSchema is not an object schema/);
 * ```
 */
export function toolProblem(tool: unknown, version: McpVersion = "2025-06-18"): string | undefined {
  if (!isObject(tool)) return "that is not an object";
  if (typeof tool.name !== "string") return 'whose "name" is not a string';
  if (!isObjectSchema(tool.inputSchema)) {
    return 'whose inputSchema is not an object schema ("type": "object")';
  }
  if (tool.outputSchema !== undefined) {
    if (versionFeatures(version).era === "modern") {
      if (!isObject(tool.outputSchema)) return "whose outputSchema is not a JSON Schema object";
    } else if (!isObjectSchema(tool.outputSchema)) {
      return 'whose outputSchema is not an object schema ("type": "object")';
    }
  }
  for (const field of ["title", "description"]) {
    if (field in tool && typeof tool[field] !== "string") {
      return `whose "${field}" is not a string`;
    }
  }
  if ("annotations" in tool) {
    const { annotations } = tool;
    const wrong = !isObject(annotations) ||
      Object.entries(HINTS).some(([hint, type]) =>
        hint in annotations && typeof annotations[hint] !== type
      );
    if (wrong) return "whose annotations are not a string title and boolean hints";
  }
  return undefined;
}

/**
 * Whether `schema` is an object schema, as a tool's schemas must be: its
 * `properties` objects and its `required` a list of names, where it has them.
 */
function isObjectSchema(schema: unknown): boolean {
  if (!isObject(schema) || schema.type !== "object") return false;
  const { properties, required } = schema;
  if (
    properties !== undefined && !(isObject(properties) && Object.values(properties).every(isObject))
  ) {
    return false;
  }
  return required === undefined ||
    (Array.isArray(required) && required.every((name) => typeof name === "string"));
}

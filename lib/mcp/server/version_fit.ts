/**
 * A server's results fitted to the protocol version agreed with a client:
 * what that version does not define is left out (a tool's `outputSchema`
 * and a result's `structuredContent` before 2025-06-18, and `title` beside
 * a name), so that an older client never receives what it may refuse.
 *
 * @module
 */

import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { isMcpVersion, versionFeatures } from "../shared/versions.ts";

/** The lists whose items may carry a `title` from 2025-06-18. */
const LISTS: Readonly<Record<string, string>> = {
  "tools/list": "tools",
  "resources/list": "resources",
  "resources/templates/list": "resourceTemplates",
  "prompts/list": "prompts",
};

/**
 * `result`, the result of `method`, as the protocol version `version` has
 * it (a version this library does not speak: unchanged).
 *
 * @example A 2025-03-26 client is sent no structured content and no output schema
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const result = { content: [{ type: "text", text: "4" }], structuredContent: { n: 4 } };
 * assert.deepEqual(fitResult("tools/call", result, "2025-03-26"), { content: [{ type: "text", text: "4" }] });
 * assert.deepEqual(fitResult("tools/call", result, "2025-06-18"), result);
 * const list = { tools: [{ name: "count", title: "Count", inputSchema: {}, outputSchema: {} }] };
 * assert.deepEqual(fitResult("tools/list", list, "2024-11-05"), { tools: [{ name: "count", inputSchema: {} }] });
 * ```
 */
export function fitResult(method: string, result: JsonObject, version: string): JsonObject {
  if (!isMcpVersion(version)) return result;
  const { structuredContent, titles } = versionFeatures(version);
  if (method === "tools/call" && !structuredContent && "structuredContent" in result) {
    const { structuredContent: _, ...rest } = result;
    return rest;
  }
  const key = LISTS[method];
  if (key === undefined || !Array.isArray(result[key]) || (structuredContent && titles)) {
    return result;
  }
  const items = (result[key] as unknown[]).map((item) => {
    if (!isObject(item)) return item;
    const { title, outputSchema, ...rest } = item;
    return {
      ...rest,
      ...(titles && title !== undefined ? { title } : {}),
      ...(structuredContent && outputSchema !== undefined ? { outputSchema } : {}),
    };
  });
  return { ...result, [key]: items };
}

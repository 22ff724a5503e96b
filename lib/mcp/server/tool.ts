/**
 * A tool as a server holds it: what it advertises in `tools/list`, and the
 * function that answers `tools/call` with text, or with a failure the tool
 * reports itself.
 *
 * @module
 */

import type { JsonObject } from "../shared/jsonrpc.ts";

/** What a tool returns: its text, and whether that text reports a failure. */
export interface ToolOutcome {
  text: string;
  /** True when the tool ran and failed; the reply is then a result with `isError: true`. */
  isError?: boolean;
}

/** One tool a server offers. */
export interface ServerTool {
  name: string;
  description: string;
  /** The JSON Schema its arguments must match, advertised as the tool's `inputSchema`. */
  inputSchema: JsonObject;
  /** Answers a call whose arguments already match `inputSchema`. */
  call(args: JsonObject): ToolOutcome;
}

/**
 * The `tools/call` result for what a tool returned: one text item, and
 * `isError` said out loud either way.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(toolResult({ text: "ate" }), {
 *   content: [{ type: "text", text: "ate" }],
 *   isError: false,
 * });
 * ```
 */
export function toolResult(outcome: ToolOutcome): JsonObject {
  return { content: [{ type: "text", text: outcome.text }], isError: outcome.isError ?? false };
}

/**
 * How a tool is advertised in `tools/list`: everything but its function.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const tool = { name: "echo", description: "d", inputSchema: {}, call: () => ({ text: "" }) };
 * assert.deepEqual(advertised(tool), { name: "echo", description: "d", inputSchema: {} });
 * ```
 */
export function advertised(tool: ServerTool): JsonObject {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}

/**
 * A server's answer to a tool call whose arguments break the tool's input
 * schema, as the protocol version of the call has it. Up to 2025-06-18 the
 * tools page counts "Invalid arguments" among the protocol errors: a
 * JSON-RPC error, -32602. From 2025-11-25 it counts "Input validation
 * errors" among the tool execution errors, "actionable feedback that
 * language models can use to self-correct": a result with `isError: true`
 * whose text names what is wrong. Arguments that are not an object at all
 * are still a protocol error there: they break `CallToolRequest`'s own
 * schema ("Malformed requests").
 *
 * @module
 */

import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { isMcpVersion, versionFeatures } from "../shared/versions.ts";
import { argumentProblems } from "./arguments.ts";
import { ERROR_CODES } from "./replies.ts";
import { RpcError } from "./session_spec.ts";
import { toolResult } from "./tool.ts";

/** The call whose arguments are checked. */
export interface ArgumentsCall {
  /** Its `arguments`, as they came. */
  arguments: unknown;
  /** The protocol version it is answered in. */
  version: string;
}

/**
 * The `tools/call` result owed for `call`'s arguments when they break the
 * input schema of `tool`, or `undefined` when they match it. Throws
 * `RpcError` -32602, the problems in its data, where the refusal is a
 * protocol error: at a version whose invalid arguments are one (or one this
 * library does not know), and for arguments that are not an object. Throws
 * `TypeError` for a schema `argumentProblems` cannot read.
 *
 * @example The same mistake before and after 2025-11-25, and no object at all
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const tool = { name: "conjugate", inputSchema: { type: "object", required: ["verb"] } };
 * assert.equal(refusedArguments(tool, { arguments: { verb: "eat" }, version: "2025-11-25" }), undefined);
 * assert.throws(() => refusedArguments(tool, { arguments: {}, version: "2025-06-18" }), {
 *   name: "RpcError",
 *   code: -32602,
 *   data: ["missing verb"],
 * });
 * assert.deepEqual(refusedArguments(tool, { arguments: {}, version: "2025-11-25" }), {
 *   content: [{ type: "text", text: "Invalid arguments for conjugate: missing verb" }],
 *   isError: true,
 * });
 * assert.throws(() => refusedArguments(tool, { arguments: "eat", version: "2026-07-28" }), {
 *   code: -32602,
 *   data: ["arguments must be object"],
 * });
 * ```
 */
export function refusedArguments(
  tool: { name: string; inputSchema: JsonObject },
  call: ArgumentsCall,
): JsonObject | undefined {
  const problems = argumentProblems(tool.inputSchema, call.arguments);
  if (problems.length === 0) return undefined;
  const what = `Invalid arguments for ${tool.name}`;
  const { version } = call;
  const toolError = isObject(call.arguments) && isMcpVersion(version) &&
    versionFeatures(version).invalidArguments === "toolError";
  if (!toolError) throw new RpcError(ERROR_CODES.invalidParams, what, problems);
  return toolResult({ text: `${what}: ${problems.join("; ")}`, isError: true });
}

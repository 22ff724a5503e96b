/**
 * A server's answer to a tool call whose arguments break the tool's input
 * schema, as the protocol version agreed has it. Up to 2025-06-18 the tools
 * page counts "Invalid arguments" among the protocol errors: a JSON-RPC
 * error, -32602. From 2025-11-25 it counts "Input validation errors" among
 * the tool execution errors, "actionable feedback that language models can
 * use to self-correct": a result with `isError: true` whose text names what
 * is wrong.
 *
 * @module
 */

import type { JsonObject } from "../shared/jsonrpc.ts";
import { isMcpVersion, versionFeatures } from "../shared/versions.ts";
import { ERROR_CODES } from "./replies.ts";
import { RpcError } from "./session_spec.ts";
import { toolResult } from "./tool.ts";

/**
 * The `tools/call` result for arguments of the tool `name` that have
 * `problems` (the lines `argumentProblems` gives), at `version`. Throws
 * `RpcError` -32602, with the problems as its data, at a version whose
 * invalid arguments are a protocol error (and at one this library does not
 * know).
 *
 * @example The same mistake, before and after 2025-11-25
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => refusedArguments("conjugate", ["missing verb"], "2025-06-18"), {
 *   name: "RpcError",
 *   code: -32602,
 *   data: ["missing verb"],
 * });
 * assert.deepEqual(refusedArguments("conjugate", ["missing verb"], "2025-11-25"), {
 *   content: [{ type: "text", text: "Invalid arguments for conjugate: missing verb" }],
 *   isError: true,
 * });
 * ```
 */
export function refusedArguments(
  name: string,
  problems: readonly string[],
  version: string,
): JsonObject {
  const what = `Invalid arguments for ${name}`;
  if (!isMcpVersion(version) || versionFeatures(version).invalidArguments === "protocolError") {
    throw new RpcError(ERROR_CODES.invalidParams, what, [...problems]);
  }
  return toolResult({ text: `${what}: ${problems.join("; ")}`, isError: true });
}

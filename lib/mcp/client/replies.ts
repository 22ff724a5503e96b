/**
 * What this client says when a server asks it something: it offers no
 * capabilities, so it answers `ping` and nothing else.
 *
 * @module
 */

import type { JsonRpcRequest, JsonRpcResponse } from "../shared/jsonrpc.ts";

/**
 * The reply to the server's request `request`: `{}` for `ping`, and the
 * JSON-RPC error -32601 ("method not found") for anything else, such as
 * `sampling/createMessage`, which a client offers only when it declares the
 * capability.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(replyToServer({ jsonrpc: "2.0", id: 7, method: "ping" }), {
 *   jsonrpc: "2.0",
 *   id: 7,
 *   result: {},
 * });
 * assert.deepEqual(replyToServer({ jsonrpc: "2.0", id: "s", method: "sampling/createMessage" }), {
 *   jsonrpc: "2.0",
 *   id: "s",
 *   error: { code: -32601, message: "Method not found: sampling/createMessage" },
 * });
 * ```
 */
export function replyToServer(request: JsonRpcRequest): JsonRpcResponse {
  if (request.method === "ping") return { jsonrpc: "2.0", id: request.id, result: {} };
  return {
    jsonrpc: "2.0",
    id: request.id,
    error: { code: -32601, message: `Method not found: ${request.method}` },
  };
}

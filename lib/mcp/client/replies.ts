/**
 * What this client says when a server asks it something: `ping` is always
 * answered; `elicitation/create` only by a client given an `elicit` function
 * (which declares the capability); anything else is "method not found".
 *
 * @module
 */

import { isObject, type JsonRpcRequest, type JsonRpcResponse } from "../shared/jsonrpc.ts";
import { type Elicit, withDefaults } from "./elicitation.ts";

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

/**
 * The reply to the server's request `request`, as {@linkcode replyToServer}
 * gives it, except that `elicitation/create` is answered by `elicit`, when
 * given, with the schema's defaults filled in (see `withDefaults`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const elicit = () => Promise.resolve({ action: "accept" as const, content: {} });
 * const params = { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string", default: "Ada" } } } };
 * const reply = await answerServer({ jsonrpc: "2.0", id: 1, method: "elicitation/create", params }, elicit);
 * assert.deepEqual(reply, { jsonrpc: "2.0", id: 1, result: { action: "accept", content: { name: "Ada" } } });
 * ```
 */
export async function answerServer(
  request: JsonRpcRequest,
  elicit?: Elicit,
): Promise<JsonRpcResponse> {
  if (request.method !== "elicitation/create" || elicit === undefined) {
    return replyToServer(request);
  }
  const params = isObject(request.params) ? request.params : {};
  const result = withDefaults(params.requestedSchema, await elicit(params));
  return { jsonrpc: "2.0", id: request.id, result };
}

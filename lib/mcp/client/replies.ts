/**
 * What this client says when a server asks it something: `ping` is always
 * answered; `elicitation/create` only by a client given an `elicit` function,
 * and `sampling/createMessage` only by one given a `sample` function (each
 * declares its capability); anything else is "method not found".
 *
 * @module
 */

import { isObject, type JsonRpcRequest, type JsonRpcResponse } from "../shared/jsonrpc.ts";
import { type Elicit, withDefaults } from "./elicitation.ts";
import { type Sample, samplingRequest, samplingResult } from "./sampling.ts";

/** How this client answers what a server may ask it, where it offers to. */
export interface ServerAnswers {
  /** Asks the user (`elicitation/create`). */
  elicit?: Elicit;
  /** Asks the client's model (`sampling/createMessage`). */
  sample?: Sample;
}

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
 * given, with the schema's defaults filled in (see `withDefaults`), and
 * `sampling/createMessage` by `sample`, when given: its params checked first
 * (-32602, "invalid params", saying what is wrong), and a model that fails
 * answered as an internal error (-32603), the connection kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const elicit = () => Promise.resolve({ action: "accept" as const, content: {} });
 * const params = { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string", default: "Ada" } } } };
 * const reply = await answerServer({ jsonrpc: "2.0", id: 1, method: "elicitation/create", params }, { elicit });
 * assert.deepEqual(reply, { jsonrpc: "2.0", id: 1, result: { action: "accept", content: { name: "Ada" } } });
 *
 * const sample = () => Promise.resolve({ text: "ate", model: "stand-in", stopReason: "endTurn" as const });
 * const asked = await answerServer({ jsonrpc: "2.0", id: 2, method: "sampling/createMessage", params: { messages: [], maxTokens: 9 } }, { sample });
 * assert.deepEqual(asked, { jsonrpc: "2.0", id: 2, error: { code: -32602, message: "Invalid params: messages must be a non-empty array" } });
 * ```
 */
export async function answerServer(
  request: JsonRpcRequest,
  answers: ServerAnswers = {},
): Promise<JsonRpcResponse> {
  const { elicit, sample } = answers;
  if (request.method === "elicitation/create" && elicit !== undefined) {
    const params = isObject(request.params) ? request.params : {};
    const result = withDefaults(params.requestedSchema, await elicit(params));
    return { jsonrpc: "2.0", id: request.id, result };
  }
  if (request.method === "sampling/createMessage" && sample !== undefined) {
    const checked = samplingRequest(request.params);
    if (typeof checked === "string") {
      return {
        jsonrpc: "2.0",
        id: request.id,
        error: { code: -32602, message: `Invalid params: ${checked}` },
      };
    }
    try {
      return { jsonrpc: "2.0", id: request.id, result: samplingResult(await sample(checked)) };
    } catch (error) {
      const said = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return {
        jsonrpc: "2.0",
        id: request.id,
        error: { code: -32603, message: `The client's model failed: ${said}` },
      };
    }
  }
  return replyToServer(request);
}

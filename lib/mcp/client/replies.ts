/**
 * What this client says when a (legacy) server asks it something: `ping` is
 * always answered; `elicitation/create` only by a client given an `elicit`
 * function, at a version that has it (2025-06-18 on), and in form mode (the
 * mode this client declares); `sampling/createMessage` only by one given a
 * `sample` function (each declares its capability); anything else is
 * "method not found".
 *
 * @module
 */

import { isObject, type JsonRpcRequest, type JsonRpcResponse } from "../shared/jsonrpc.ts";
import { type McpVersion, versionFeatures } from "../shared/versions.ts";
import {
  checkedAnswer,
  type Elicit,
  elicitationProblem,
  type ElicitResult,
} from "./elicitation.ts";
import { type Sample, samplingRequest, samplingResult } from "./sampling.ts";

/** How this client answers what a server may ask it, where it offers to. */
export interface ServerAnswers {
  /** Asks the user (`elicitation/create`). */
  elicit?: Elicit;
  /** Asks the client's model (`sampling/createMessage`). */
  sample?: Sample;
  /** The protocol version agreed, which decides what may be asked. @default {undefined} (none agreed yet) */
  version?: McpVersion;
  /** Aborted when the server cancels its request: the model is told. @default {undefined} */
  signal?: AbortSignal;
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
 * given and the version agreed has elicitation (before 2025-06-18 there is
 * no such method: -32601, and `elicit` is never asked), with each of the
 * schema's defaults that its own field takes filled in where the user left
 * it out, and the answer sent only where it fits the form, throwing
 * `FormAnswerError` otherwise (see `checkedAnswer`); an `elicit` that fails
 * is answered as an internal error (-32603), as a failing model is, the
 * connection kept; a URL-mode question is refused
 * with -32602, since this client declares form mode only ("Clients MUST
 * return an error … for a mode they did not declare"). And
 * `sampling/createMessage` is answered by `sample`, when given: its params
 * checked first, as the version agreed has them (-32602, "invalid params",
 * saying what is wrong), and a model that fails answered as an internal
 * error (-32603), the connection kept.
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
  const { elicit, sample, version, signal } = answers;
  const invalid = (why: string): JsonRpcResponse => ({
    jsonrpc: "2.0",
    id: request.id,
    error: { code: -32602, message: `Invalid params: ${why}` },
  });
  // The client's own side failing (its user's form, its model) is no fault of the server's.
  const failed = (who: string, error: unknown): JsonRpcResponse => {
    const said = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { jsonrpc: "2.0", id: request.id, error: { code: -32603, message: `${who}: ${said}` } };
  };
  const elicits = version === undefined || versionFeatures(version).elicitation;
  if (request.method === "elicitation/create" && elicit !== undefined && elicits) {
    const params = isObject(request.params) ? request.params : {};
    const problem = elicitationProblem(params);
    if (problem !== undefined) return invalid(problem);
    let answer: ElicitResult;
    try {
      answer = await elicit(params);
    } catch (error) {
      return failed("The user could not be asked", error);
    }
    return {
      jsonrpc: "2.0",
      id: request.id,
      result: checkedAnswer(params.requestedSchema, answer),
    };
  }
  if (request.method === "sampling/createMessage" && sample !== undefined) {
    const checked = samplingRequest(request.params, version);
    if (typeof checked === "string") return invalid(checked);
    try {
      const answer = await sample(checked, { signal: signal ?? new AbortController().signal });
      return { jsonrpc: "2.0", id: request.id, result: samplingResult(answer) };
    } catch (error) {
      return failed("The client's model failed", error);
    }
  }
  return replyToServer(request);
}

/**
 * JSON-RPC 2.0 messages as MCP uses them: one frame in, one typed message out,
 * or a {@linkcode ProtocolError} that says what was wrong with the frame.
 *
 * @module
 */

import { ProtocolError } from "./errors.ts";

/** A request id. MCP allows strings and integers. */
export type RequestId = string | number;

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** A request: a method, its params, and an id the response must carry. */
export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: JsonObject;
}

/** A notification: a method and params, no id, and no response. */
export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: JsonObject;
}

/** A successful response. */
export interface JsonRpcResult {
  jsonrpc: "2.0";
  id: RequestId;
  result: JsonObject;
}

/** An error response. Its id is `null` when the server could not read the request's. */
export interface JsonRpcError {
  jsonrpc: "2.0";
  id: RequestId | null;
  error: { code: number; message: string; data?: unknown };
}

/** A response of either kind. */
export type JsonRpcResponse = JsonRpcResult | JsonRpcError;

/** Any message that may arrive on the wire. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

const utf8 = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

/**
 * Parse one frame into a JSON-RPC 2.0 message, or throw `ProtocolError` when
 * it is not UTF-8, not JSON, not an object (a batch array included), not
 * `"jsonrpc": "2.0"`, carries an id of the wrong type, or is a response with
 * both or neither of `result` and `error`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ProtocolError } from "./errors.ts";
 *
 * const bytes = new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"result":{}}');
 * assert.deepEqual(parseMessage(bytes), { jsonrpc: "2.0", id: 1, result: {} });
 * assert.throws(() => parseMessage(new TextEncoder().encode("[]")), ProtocolError);
 * ```
 */
export function parseMessage(frame: Uint8Array): JsonRpcMessage {
  let text: string;
  try {
    text = utf8.decode(frame);
  } catch {
    throw new ProtocolError(`A frame of ${frame.length} bytes is not valid UTF-8`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProtocolError(`A frame is not JSON: ${preview(text)}`);
  }
  return checkMessage(value, text);
}

/** Check that an already-parsed value is a JSON-RPC 2.0 message; `text` is used in messages. */
function checkMessage(value: unknown, text: string): JsonRpcMessage {
  if (Array.isArray(value)) {
    throw new ProtocolError(`A JSON-RPC batch (an array) is not allowed in MCP: ${preview(text)}`);
  }
  if (!isObject(value)) {
    throw new ProtocolError(`A frame is JSON but not an object: ${preview(text)}`);
  }
  if (value.jsonrpc !== "2.0") {
    throw new ProtocolError(
      `Expected "jsonrpc": "2.0", got ${JSON.stringify(value.jsonrpc) ?? "nothing"}: ${
        preview(text)
      }`,
    );
  }
  if ("params" in value && !isObject(value.params)) {
    throw new ProtocolError(`"params" must be an object: ${preview(text)}`);
  }
  if ("method" in value) {
    if (typeof value.method !== "string") {
      throw new ProtocolError(`"method" must be a string: ${preview(text)}`);
    }
    if ("id" in value && !isRequestId(value.id)) {
      throw new ProtocolError(`A request id must be a string or an integer: ${preview(text)}`);
    }
    return value as unknown as JsonRpcRequest | JsonRpcNotification;
  }
  const hasResult = "result" in value;
  const hasError = "error" in value;
  if (hasResult && hasError) {
    throw new ProtocolError(`A response has both "result" and "error": ${preview(text)}`);
  }
  if (!hasResult && !hasError) {
    throw new ProtocolError(`A message has no method, result or error: ${preview(text)}`);
  }
  if (hasResult) {
    if (!isRequestId(value.id)) {
      throw new ProtocolError(`A response id must be a string or an integer: ${preview(text)}`);
    }
    if (!isObject(value.result)) {
      throw new ProtocolError(`"result" must be an object: ${preview(text)}`);
    }
    return value as unknown as JsonRpcResult;
  }
  if (value.id !== null && !isRequestId(value.id)) {
    throw new ProtocolError(`A response id must be a string or an integer: ${preview(text)}`);
  }
  const error = value.error;
  if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== "string") {
    throw new ProtocolError(
      `"error" must be an object with an integer code and a message: ${preview(text)}`,
    );
  }
  return value as unknown as JsonRpcError;
}

/**
 * Encode a message as one frame: compact JSON and a newline.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const frame = encodeMessage({ jsonrpc: "2.0", method: "notifications/initialized" });
 * assert.equal(new TextDecoder().decode(frame), '{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
 * ```
 */
export function encodeMessage(message: JsonRpcMessage): Uint8Array {
  return encoder.encode(JSON.stringify(message) + "\n");
}

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * True for a valid request id: a string or an integer (MCP never allows `null`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual([1, "1", 0, 1.5, null, true].map(isRequestId), [true, true, true, false, false, false]);
 * ```
 */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || Number.isSafeInteger(value);
}

function preview(text: string): string {
  return JSON.stringify(text.length > 80 ? text.slice(0, 80) + "…" : text);
}

/**
 * The JSON-RPC replies a server sends: a result, or an error with the code
 * the specification gives for what went wrong.
 *
 * @module
 */

import type { JsonObject } from "../shared/jsonrpc.ts";

/** The JSON-RPC error codes a server owes. */
export const ERROR_CODES = {
  /** The line is not JSON. */
  parseError: -32700,
  /** JSON, but not a request: a batch, no `"jsonrpc": "2.0"`, no string method, a bad id. */
  invalidRequest: -32600,
  /** A request for a method the server does not have. */
  methodNotFound: -32601,
  /** The method exists but its params do not fit it: an unknown tool, bad arguments. */
  invalidParams: -32602,
  /** The server failed while answering: a resource or a prompt that could not be read. */
  internalError: -32603,
} as const;

/**
 * A successful response to the request `id`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(success(1, {}), { jsonrpc: "2.0", id: 1, result: {} });
 * ```
 */
export function success(id: string | number, result: JsonObject): JsonObject {
  return { jsonrpc: "2.0", id, result };
}

/**
 * An error response to the request `id` (`null` when it could not be read),
 * with `data` when there is more to say.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(failure(2, ERROR_CODES.invalidParams, "Resource not found", { uri: "a" }), {
 *   jsonrpc: "2.0",
 *   id: 2,
 *   error: { code: -32602, message: "Resource not found", data: { uri: "a" } },
 * });
 * ```
 */
export function failure(id: unknown, code: number, message: string, data?: unknown): JsonObject {
  const error = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: "2.0", id, error };
}

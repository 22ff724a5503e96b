/**
 * What one message POSTed to a Streamable HTTP endpoint is, before any era
 * or session is asked of it.
 *
 * @module
 */

import { isRequestId, type JsonObject } from "../shared/jsonrpc.ts";

/**
 * What a POSTed message is: a request (a method and an id: the session
 * answers it on its POST, with an error if it is not well formed), a
 * notification or a response (accepted with 202), or none of these
 * (`undefined`: refused with 400, since no reply could go anywhere).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(messageKind({ jsonrpc: "2.0", id: 1, method: "tools/list" }), "request");
 * assert.equal(messageKind({ jsonrpc: "2.0", method: "notifications/initialized" }), "notification");
 * assert.equal(messageKind({ jsonrpc: "2.0", id: 1, result: {} }), "response");
 * assert.equal(messageKind({ jsonrpc: "2.0", id: 1, result: {}, error: {} }), undefined);
 * ```
 */
export function messageKind(
  message: JsonObject,
): "request" | "notification" | "response" | undefined {
  const method = typeof message.method === "string";
  if (method && isRequestId(message.id)) return "request";
  if (message.jsonrpc !== "2.0") return undefined;
  if (method && !("id" in message)) return "notification";
  const replied = ("result" in message) !== ("error" in message);
  const id = isRequestId(message.id) || (message.id === null && "error" in message);
  return !("method" in message) && replied && id ? "response" : undefined;
}

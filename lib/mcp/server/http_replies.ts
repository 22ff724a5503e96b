/**
 * The HTTP responses a Streamable HTTP endpoint sends with a JSON body: a
 * refusal, with a JSON-RPC error that says why (as the SDK's servers send),
 * and a reply as one JSON body.
 *
 * @module
 */

import type { JsonObject } from "../shared/jsonrpc.ts";

/** The content type of every JSON body. */
const JSON_TYPE = { "content-type": "application/json" };

/** Options for {@linkcode refusal}. */
export interface RefusalOptions {
  /** Headers added to the response. @default {{}} */
  headers?: Record<string, string>;
  /** The JSON-RPC error code of its body. @default {-32000} */
  code?: number;
}

/**
 * An HTTP refusal with `status`, its body a JSON-RPC error (no id) whose
 * message is `message`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const refused = refusal(405, "PUT is not allowed here", { headers: { allow: "GET, POST" } });
 * assert.equal(refused.status, 405);
 * assert.equal(refused.headers.get("allow"), "GET, POST");
 * assert.deepEqual(await refused.json(), {
 *   jsonrpc: "2.0",
 *   id: null,
 *   error: { code: -32000, message: "PUT is not allowed here" },
 * });
 * ```
 */
export function refusal(status: number, message: string, options: RefusalOptions = {}): Response {
  const { headers = {}, code = -32000 } = options;
  const body = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } });
  return new Response(body, { status, headers: { ...JSON_TYPE, ...headers } });
}

/**
 * `message` (a request's reply) as a response of its own: 200, one JSON body.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const reply = jsonReply({ jsonrpc: "2.0", id: 1, result: {} });
 * assert.equal(reply.headers.get("content-type"), "application/json");
 * assert.deepEqual(await reply.json(), { jsonrpc: "2.0", id: 1, result: {} });
 * ```
 */
export function jsonReply(message: JsonObject): Response {
  return new Response(JSON.stringify(message), { status: 200, headers: JSON_TYPE });
}

/**
 * What a Streamable HTTP response may carry, as the transport's letter says:
 * a POST's response holds the server's requests and notifications, then the
 * reply to the request that POST carried, and nothing else; the GET stream
 * holds no reply at all. A reply found anywhere else is refused, however
 * well its id matches a request in flight: the id alone is not trusted.
 *
 * @module
 */

import { ProtocolError } from "../shared/errors.ts";
import { isObject, type JsonRpcRequest } from "../shared/jsonrpc.ts";

const decoder = new TextDecoder();

/**
 * What `frame`, read from the response to the POST of `request` (or, with
 * `undefined`, from the GET stream), is: `"reply"` when it is that request's
 * reply, `"message"` for anything else the stream may carry (a request or a
 * notification of the server's, or bytes that are no message at all, which
 * the connection refuses). Throws `ProtocolError` naming both requests for a
 * reply to any other request, and for any reply on the GET stream.
 *
 * @example The reply to request 2 on the POST of request 1 is refused
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const bytes = (message: object) => new TextEncoder().encode(JSON.stringify(message));
 * const request = { jsonrpc: "2.0" as const, id: 1, method: "tools/call" };
 * assert.equal(carried(request, bytes({ jsonrpc: "2.0", id: 1, result: {} })), "reply");
 * assert.equal(carried(request, bytes({ jsonrpc: "2.0", method: "notifications/progress" })), "message");
 * assert.throws(
 *   () => carried(request, bytes({ jsonrpc: "2.0", id: 2, result: {} })),
 *   /POST of request 1 \(tools\/call\) carried the reply to request 2/,
 * );
 * assert.throws(() => carried(undefined, bytes({ jsonrpc: "2.0", id: 1, result: {} })), /GET stream/);
 * ```
 */
export function carried(
  request: JsonRpcRequest | undefined,
  frame: Uint8Array,
): "reply" | "message" {
  let message: unknown;
  try {
    message = JSON.parse(decoder.decode(frame));
  } catch {
    return "message";
  }
  if (!isObject(message) || "method" in message) return "message";
  if (request !== undefined && message.id === request.id) return "reply";
  const which = message.id === null || message.id === undefined
    ? "a reply with no request id"
    : `the reply to request ${JSON.stringify(message.id)}`;
  if (request === undefined) {
    throw new ProtocolError(
      `The GET stream carried ${which}: no reply may go there, only what the server sends unasked`,
    );
  }
  throw new ProtocolError(
    `The response to the POST of request ${JSON.stringify(request.id)} (${request.method}) ` +
      `carried ${which}: a POST's response carries the reply to what that POST carried, ` +
      "nothing else, so it is refused however well its id matches",
  );
}

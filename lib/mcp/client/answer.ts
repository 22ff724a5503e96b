/**
 * Unit A's check on a reply: it must answer the request that is waiting.
 *
 * @module
 */

import { ProtocolError } from "../shared/errors.ts";
import type { JsonObject, JsonRpcResponse, RequestId } from "../shared/jsonrpc.ts";

/**
 * Return `message.result` only when `message` is a successful response whose
 * id is exactly `requestId`; throw `ProtocolError` for any other id (the
 * string `"1"` never answers request `1`) and for an error response.
 *
 * @example A stale reply is refused
 * ```ts
 * import assert from "node:assert/strict";
 * import { ProtocolError } from "../shared/errors.ts";
 *
 * const reply = { jsonrpc: "2.0" as const, id: 1, result: { ok: true } };
 * assert.deepEqual(answerFor(1, reply), { ok: true });
 * assert.throws(() => answerFor(2, reply), ProtocolError);
 * assert.throws(() => answerFor("1", reply), ProtocolError);
 * ```
 */
export function answerFor(requestId: RequestId, message: JsonRpcResponse): JsonObject {
  if (message.id !== requestId) {
    throw new ProtocolError(
      `The reply's id ${JSON.stringify(message.id)} does not match the request's id ${
        JSON.stringify(requestId)
      }`,
    );
  }
  if ("error" in message) {
    const { code, message: text, data } = message.error;
    throw new ProtocolError(`The server answered with error ${code}: ${text}`, { code, data });
  }
  return message.result;
}

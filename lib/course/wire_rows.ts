/**
 * Messages on the wire as a lesson shows them: which way each went, its id,
 * what it is in a few words (a call, `input_required` and what it asks, a
 * result's text, an error's code), and the whole message a click away.
 *
 * @module
 */

import { isObject, type JsonObject } from "../mcp/shared/jsonrpc.ts";
import { CodeValue, type Row } from "../notebook/tables.ts";
import type { WireMessage } from "./raw_link.ts";

/**
 * `message` in a few words: a request's method (a tool's name, and what a
 * retry carries), an error's code and message, `input_required` and the
 * keys of its questions, or a result's text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const asked = { resultType: "input_required", inputRequests: { "sampling-1": {} }, requestState: "s" };
 * assert.equal(messageSummary({ jsonrpc: "2.0", id: 1, result: asked }), "input_required: asks sampling-1, with a requestState");
 * assert.equal(
 *   messageSummary({ jsonrpc: "2.0", id: 2, error: { code: -32602, message: "Invalid params" } }),
 *   "error -32602: Invalid params",
 * );
 * assert.equal(
 *   messageSummary({ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "4" }] } }),
 *   "result: 4",
 * );
 * ```
 */
export function messageSummary(message: JsonObject): string {
  if (typeof message.method === "string") {
    const params = isObject(message.params) ? message.params : {};
    const tool = typeof params.name === "string" ? ` ${params.name}` : "";
    const carried = ["inputResponses", "requestState"].filter((key) => key in params);
    return `${message.method}${tool}${carried.length > 0 ? `, with ${carried.join(" and ")}` : ""}`;
  }
  if (isObject(message.error)) return `error ${message.error.code}: ${message.error.message}`;
  const result = isObject(message.result) ? message.result : {};
  if (result.resultType === "input_required") {
    const asks = Object.keys(isObject(result.inputRequests) ? result.inputRequests : {});
    const state = typeof result.requestState === "string" ? ", with a requestState" : "";
    return `input_required: asks ${asks.length > 0 ? asks.join(", ") : "nothing"}${state}`;
  }
  const texts = (Array.isArray(result.content) ? result.content : [])
    .map((item) => isObject(item) && typeof item.text === "string" ? item.text : "…");
  return `${result.isError === true ? "a tool error" : "result"}: ${texts.join(" ")}`;
}

/**
 * `wire` as table rows: `way` (client → server, or back), `id`, `what` (as
 * {@linkcode messageSummary} says it) and the whole `message`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const rows = wireRows([{ direction: ">", message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t" } } }]);
 * assert.deepEqual(Object.keys(rows[0]), ["way", "id", "what", "message"]);
 * assert.equal(rows[0].what, "tools/call t");
 * ```
 */
export function wireRows(wire: readonly WireMessage[]): Row[] {
  return wire.map(({ direction, message }) => ({
    way: direction === ">" ? "client → server" : "server → client",
    id: new CodeValue(message.id),
    what: messageSummary(message),
    message: new CodeValue(message),
  }));
}

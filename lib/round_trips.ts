/**
 * Reading a saved transcript back: which requests the client made, and
 * whether each was answered.
 *
 * @module
 */

import { isObject, type RequestId } from "./jsonrpc.ts";

/** One message the client sent, and what came back for it. */
export interface Exchange {
  /** The method the client sent. */
  method: string;
  /** The request's id; absent for a notification. */
  id?: RequestId;
  /** What answered the request: a result, an error, or nothing (`undefined`). */
  reply?: "result" | "error";
}

/**
 * The client's messages in a transcript (`> ` and `< ` lines, one JSON
 * message each), in the order sent: each request with the kind of reply that
 * carried its id, and each notification. The server's own requests and
 * notifications are left out. Throws `SyntaxError` naming the line when a
 * line has no direction mark or is not a JSON object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const text = [
 *   '> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
 *   '< {"jsonrpc":"2.0","id":1,"result":{}}',
 *   '> {"jsonrpc":"2.0","method":"notifications/initialized"}',
 *   '> {"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}',
 * ].join("\n");
 * assert.deepEqual(roundTrips(text), [
 *   { method: "initialize", id: 1, reply: "result" },
 *   { method: "notifications/initialized" },
 *   { method: "tools/list", id: 2, reply: undefined },
 * ]);
 * ```
 */
export function roundTrips(text: string): Exchange[] {
  const exchanges: Exchange[] = [];
  const pending = new Map<RequestId, Exchange>();
  text.split("\n").forEach((line, index) => {
    if (line === "") return;
    const direction = line.slice(0, 2);
    let message: unknown;
    try {
      message = JSON.parse(line.slice(2));
    } catch {
      message = undefined;
    }
    if ((direction !== "> " && direction !== "< ") || !isObject(message)) {
      throw new SyntaxError(
        `Transcript line ${index + 1} is not "> " or "< " and a JSON object: ${line.slice(0, 60)}`,
      );
    }
    const id = message.id as RequestId | undefined;
    if (direction === "> " && typeof message.method === "string") {
      const exchange: Exchange = { method: message.method };
      if (id !== undefined) {
        exchange.id = id;
        exchange.reply = undefined;
        pending.set(id, exchange);
      }
      exchanges.push(exchange);
    } else if (direction === "< " && !("method" in message) && id !== undefined) {
      const exchange = pending.get(id);
      if (exchange !== undefined && exchange.reply === undefined) {
        exchange.reply = "error" in message ? "error" : "result";
      }
    }
  });
  return exchanges;
}

/**
 * Reading a saved transcript back: which requests the client made, and
 * whether each was answered.
 *
 * @module
 */

import type { Direction } from "../mcp/client/connection.ts";
import { ProtocolError } from "../mcp/shared/errors.ts";
import { type JsonRpcMessage, parseMessage, type RequestId } from "../mcp/shared/jsonrpc.ts";

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
 * notifications are left out, and so are the client's replies to them.
 * Each message is read with {@linkcode parseMessage}, as the client reads
 * what arrives; throws `SyntaxError` naming the line when a line has no
 * direction mark or is not a JSON-RPC 2.0 message.
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
    const [direction, message] = readLine(line, index + 1);
    if ("method" in message) {
      if (direction !== ">") return;
      const exchange: Exchange = { method: message.method };
      if ("id" in message) {
        exchange.id = message.id;
        exchange.reply = undefined;
        pending.set(message.id, exchange);
      }
      exchanges.push(exchange);
    } else if (direction === "<" && message.id !== null) {
      const exchange = pending.get(message.id);
      if (exchange !== undefined && exchange.reply === undefined) {
        exchange.reply = "error" in message ? "error" : "result";
      }
    }
  });
  return exchanges;
}

/** One transcript line as its direction and its message, read by the client's own parser. */
function readLine(line: string, number: number): [Direction, JsonRpcMessage] {
  const direction = line.slice(0, 2);
  if (direction === "> " || direction === "< ") {
    try {
      return [direction[0] as Direction, parseMessage(encoder.encode(line.slice(2)))];
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      throw new SyntaxError(`Transcript line ${number}: ${error.message}`, { cause: error });
    }
  }
  throw new SyntaxError(`Transcript line ${number} starts with neither "> " nor "< "`);
}

const encoder = new TextEncoder();

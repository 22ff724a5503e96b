/**
 * A transcript in the form made for reading (Lab 02, Block G): each message
 * the client sent as `> METHOD PARAMS`, each reply as `< RESULT` (or
 * `< error ERROR`), rendered from the exact transcript.
 *
 * @module
 */

import { parseMessage } from "../mcp/shared/jsonrpc.ts";

const encoder = new TextEncoder();

/**
 * `text` (a transcript: `> ` or `< ` and one JSON-RPC message a line) in the
 * readable form: a request or notification becomes its direction, method and
 * params (`{}` when it has none), a response its direction and result, or
 * `error` and the error. Throws `SyntaxError` naming a line that is not a
 * transcript line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const text = [
 *   '> {"jsonrpc":"2.0","id":0,"method":"tools/list","params":{}}',
 *   '< {"jsonrpc":"2.0","id":0,"result":{"tools":[]}}',
 *   '> {"jsonrpc":"2.0","method":"notifications/initialized"}',
 *   '< {"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}',
 * ].join("\n");
 * assert.equal(readableTranscript(text), [
 *   "> tools/list {}",
 *   '< {"tools":[]}',
 *   "> notifications/initialized {}",
 *   '< error {"code":-32601,"message":"Method not found"}',
 *   "",
 * ].join("\n"));
 * ```
 */
export function readableTranscript(text: string): string {
  return text.split("\n").filter((line) => line !== "").map((line, index) => {
    const direction = line.slice(0, 2);
    if (direction !== "> " && direction !== "< ") {
      throw new SyntaxError(`Transcript line ${index + 1} starts with neither "> " nor "< "`);
    }
    let message;
    try {
      message = parseMessage(encoder.encode(line.slice(2)));
    } catch (error) {
      throw new SyntaxError(`Transcript line ${index + 1}: ${(error as Error).message}`);
    }
    if ("method" in message) {
      return `${direction}${message.method} ${JSON.stringify(message.params ?? {})}`;
    }
    return "error" in message
      ? `${direction}error ${JSON.stringify(message.error)}`
      : `${direction}${JSON.stringify(message.result)}`;
  }).map((line) => line + "\n").join("");
}

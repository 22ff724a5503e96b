/**
 * The wire transcript: every message a client sends or receives, one a line,
 * `>` for client to server and `<` for server to client.
 *
 * @module
 */

import type { Direction } from "./connection.ts";

/**
 * Collects a client's messages through its `transcript` option, in the order
 * they crossed the wire, and saves them as a text file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Client } from "./client.ts";
 * import { fileURLToPath } from "node:url";
 *
 * // Lab 02's grammar server, which needs no permission at all.
 * const grammar = [Deno.execPath(), "run", "--quiet", fileURLToPath(new URL("../../../servers/grammar.ts", import.meta.url))];
 * const transcript = new Transcript();
 * {
 *   await using client = new Client(grammar, { transcript: transcript.record });
 *   await client.initialize();
 * }
 * const [request, reply, initialized] = transcript.lines();
 * assert.match(request, /^> \{.*"method":"initialize"/);
 * assert.match(reply, /^< \{.*"protocolVersion":"2025-06-18"/);
 * assert.equal(initialized, '> {"jsonrpc":"2.0","method":"notifications/initialized"}');
 * ```
 */
export class Transcript {
  readonly #lines: string[] = [];

  /** Record one message: give this to a client as its `transcript` option. */
  readonly record = (direction: Direction, line: string): void => {
    this.#lines.push(`${direction} ${line}`);
  };

  /** The recorded lines, oldest first, each `> ` or `< ` and one JSON message. */
  lines(): string[] {
    return [...this.#lines];
  }

  /** The transcript as text: one line a message, each ending in a newline. */
  text(): string {
    return this.#lines.map((line) => line + "\n").join("");
  }

  /** Write the transcript to `path`, replacing what was there. */
  async save(path: string | URL): Promise<void> {
    await Deno.writeTextFile(path, this.text());
  }
}

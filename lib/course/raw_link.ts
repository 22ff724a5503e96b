/**
 * A server spoken to in raw JSON-RPC, one request at a time: Lab 03 makes a
 * multi round-trip request by hand, writing each message itself (its id, its
 * `_meta`, the retry's `inputResponses` and `requestState`) and reading each
 * reply whole. The link does only what is not the lesson: it starts the
 * server as its own process group, frames what goes and comes, waits for the
 * reply that carries the request's id, and ends the server and its group.
 *
 * @module
 */

import { ProtocolError, TimeoutError } from "../mcp/shared/errors.ts";
import {
  isObject,
  type JsonObject,
  type JsonRpcMessage,
  parseMessage,
} from "../mcp/shared/jsonrpc.ts";
import type { Incoming } from "../mcp/client/client_transport.ts";
import { StdioTransport } from "../mcp/client/stdio_transport.ts";

/** One message on the wire: `>` sent to the server, `<` received from it. */
export interface WireMessage {
  direction: ">" | "<";
  message: JsonObject;
}

/** Options for {@linkcode RawLink}. */
export interface RawLinkOptions {
  /** How long each request waits for its reply, in milliseconds. @default {30000} */
  timeoutMs?: number;
}

/**
 * A server started from `command`, spoken to one raw request at a time.
 *
 * @example A request, and the reply that carries its id (the grammar server speaks only the
 * handshake era: a modern request's method is not one it knows)
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileURLToPath } from "node:url";
 *
 * const grammar = fileURLToPath(new URL("../../servers/grammar.ts", import.meta.url));
 * await using link = new RawLink([Deno.execPath(), "run", "--quiet", grammar]);
 * const reply = await link.send({
 *   jsonrpc: "2.0",
 *   id: 7,
 *   method: "server/discover",
 *   params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
 * });
 * assert.equal(reply.id, 7);
 * assert.ok("error" in reply);
 * assert.deepEqual(link.wire.map((sent) => sent.direction), [">", "<"]);
 * ```
 */
export class RawLink implements AsyncDisposable {
  /** Every message sent and received, in order. */
  readonly wire: WireMessage[] = [];
  readonly #transport: StdioTransport;
  /** What the server sends, read from the first reply on (a transport is read once). */
  #frames?: AsyncIterator<readonly Incoming[]>;
  readonly #timeoutMs: number;
  /** Messages read and not yet looked at. */
  readonly #waiting: JsonObject[] = [];
  /** The read in progress, kept across a deadline so that no batch is lost. */
  #reading?: Promise<IteratorResult<readonly Incoming[]>>;

  /** Start the server `command` (program and arguments). */
  constructor(command: readonly string[], options: RawLinkOptions = {}) {
    this.#transport = new StdioTransport(command);
    this.#timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** The server's process id, which is also its process-group id. */
  get pid(): number {
    return this.#transport.pid;
  }

  /**
   * Send `request` as it is, and resolve with the reply that carries its id
   * (a result or an error, whole). What else the server sends meanwhile
   * (a notification) is kept in {@linkcode wire} and passed over. Rejects
   * with `ProtocolError` for a reply to another id or a server that is gone,
   * with `TimeoutError` when no reply comes within the deadline, and with
   * `TypeError`, sending nothing, for a request that is not a JSON object.
   */
  async send(request: JsonObject): Promise<JsonObject> {
    if (!isObject(request)) {
      throw new TypeError(`A request is a JSON object, not ${Deno.inspect(request).slice(0, 80)}`);
    }
    const line = JSON.stringify(request);
    this.wire.push({ direction: ">", message: JSON.parse(line) });
    // Sent as it is, well formed or not: what the server makes of it is the lesson.
    await this.#transport.send(request as unknown as JsonRpcMessage, line);
    const deadline = performance.now() + this.#timeoutMs;
    while (true) {
      const message = this.#waiting.shift() ?? await this.#next(deadline, request.id);
      if (!("id" in message) || "method" in message) continue;
      if (message.id !== request.id) {
        throw new ProtocolError(
          `A reply to id ${JSON.stringify(message.id)} came while request ${
            JSON.stringify(request.id)
          } waited`,
        );
      }
      return message;
    }
  }

  /** The next message the server sends, read before `deadline`. */
  async #next(deadline: number, id: unknown): Promise<JsonObject> {
    this.#frames ??= this.#transport.incoming[Symbol.asyncIterator]();
    this.#reading ??= this.#frames.next();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), Math.max(0, deadline - performance.now()));
    });
    const read = await Promise.race([this.#reading, late]).finally(() => clearTimeout(timer));
    if (read === "late") {
      throw new TimeoutError(
        `Request ${JSON.stringify(id)} had no reply within ${this.#timeoutMs} ms`,
      );
    }
    this.#reading = undefined;
    if (read.done) throw await this.#transport.gone;
    for (const item of read.value) {
      if (!(item instanceof Uint8Array)) throw item.error;
      const message = parseMessage(item) as unknown as JsonObject;
      if (!isObject(message)) continue;
      this.wire.push({ direction: "<", message });
      this.#waiting.push(message);
    }
    return this.#waiting.shift() ?? await this.#next(deadline, id);
  }

  /** End the server and everything in its process group; resolve with its exit status. */
  async close(): Promise<Deno.CommandStatus> {
    // A read in progress ends with the server; otherwise the reading, if begun, is ended here.
    const ending = this.#reading === undefined ? this.#frames?.return?.(undefined) : undefined;
    const status = await this.#transport.close();
    await ending;
    return status;
  }

  /** Close the link at the end of an `await using` block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

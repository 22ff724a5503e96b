/**
 * JSON-RPC 2.0 over a server's stdio: one request at a time, each with a
 * deadline, and each reply handed to an answer function that decides whether
 * it answers the request that waits. A connection that delivered a reply it
 * could not trust is not trusted again.
 *
 * @module
 */

import { drain, within } from "../shared/_async.ts";
import { answerFor, type AnswerFunction } from "./answer.ts";
import { DeadlineTimer } from "./deadline_timer.ts";
import { ProtocolError, TimeoutError } from "../shared/errors.ts";
import { readFrames, type SplitFrames, splitFrames } from "../shared/framing.ts";
import {
  isObject,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcResponse,
  parseMessage,
  type RequestId,
} from "../shared/jsonrpc.ts";
import { type CloseStep, describeExit, ServerProcess } from "./server_process.ts";
import type { ConnectionOptions, Direction, RequestOptions } from "./connection_options.ts";
import { replyToServer } from "./replies.ts";

export type { ConnectionOptions, Direction, RequestOptions } from "./connection_options.ts";

interface Waiting {
  id: RequestId;
  method: string;
  cancellable: boolean;
  /** When the request times out, on the `performance.now()` clock. */
  deadline: number;
  resolve: (result: JsonObject) => void;
  reject: (error: unknown) => void;
}

/** How much a connection reads, and drops, after refusing what a server sent. */
const DRAIN_AFTER_REFUSAL = 1 << 20;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A JSON-RPC connection to a server it starts. It answers the server's own
 * requests (`ping` with `{}`, anything else with "method not found"), skips
 * notifications, and ends a request at once when the server exits, closes
 * its stdout, or sends what cannot be trusted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileURLToPath } from "node:url";
 *
 * // Lab 02's grammar server, which needs no permission at all.
 * const grammar = [Deno.execPath(), "run", "--quiet", fileURLToPath(new URL("../../../servers/grammar.ts", import.meta.url))];
 * await using connection = new Connection(grammar);
 * assert.deepEqual(await connection.request("ping", {}), {});
 * ```
 */
export class Connection implements AsyncDisposable {
  readonly #server: ServerProcess;
  readonly #timeoutMs: number;
  readonly #answer: AnswerFunction;
  readonly #transcript?: (direction: Direction, line: string) => void;
  readonly #reading: Promise<void>;
  readonly #watching: Promise<void>;
  readonly #cancelled = new Set<RequestId>();
  readonly #maxUnread: number;
  readonly #timer = new DeadlineTimer(() => this.#waiting?.deadline, () => this.#expire());
  #nextId = 1;
  #queue: Promise<unknown> = Promise.resolve();
  #waiting?: Waiting;
  #broken?: ProtocolError;

  /** Start the server `command` (program and arguments). */
  constructor(command: readonly string[], options: ConnectionOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#answer = options.answer ?? answerFor;
    this.#transcript = options.transcript;
    this.#maxUnread = options.maxUnread ?? 1 << 18;
    this.#server = new ServerProcess(command, options);
    this.#reading = this.#read(options.limit ?? 65536, options.splitFrames ?? splitFrames);
    this.#watching = this.#watchExit();
  }

  /** The server's process id, which is also its process-group id. */
  get pid(): number {
    return this.#server.pid;
  }

  /** The deadline of each request, in milliseconds. */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /** The last lines the server wrote on stderr. */
  stderrLines(): string[] {
    return this.#server.stderrLines();
  }

  /** What closing the server did, and when (see {@linkcode ServerProcess.closeSteps}). */
  closeSteps(): CloseStep[] {
    return this.#server.closeSteps();
  }

  /**
   * Send a request once the previous one has finished, and resolve with the
   * result the answer function accepts. Rejects with `TimeoutError` when the
   * deadline passes first (and, if `cancellable`, tells the server with
   * `notifications/cancelled`; if it passed before the request could be sent,
   * nothing is sent), or with `ProtocolError` when the reply cannot be
   * trusted or the server goes away.
   */
  request(method: string, params: JsonObject, options: RequestOptions = {}): Promise<JsonObject> {
    const { cancellable = true, deadline } = options;
    const turn = this.#queue.then(() => this.#exchange(method, params, cancellable, deadline));
    this.#queue = turn.catch(() => {});
    return turn;
  }

  /** Send a notification. */
  notify(method: string, params?: JsonObject): void {
    this.#send({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
  }

  /** Trust the connection no more: every later request fails with a `ProtocolError` saying why. */
  distrust(reason: string): ProtocolError {
    this.#broken ??= new ProtocolError(reason);
    return this.#broken;
  }

  /**
   * End the server and everything in its process group (see
   * {@linkcode ServerProcess.close}). A request still waiting fails. Resolves
   * with the server's exit status; calling it again is safe.
   */
  async close(): Promise<Deno.CommandStatus> {
    this.#fail(new ProtocolError("The client is closed"));
    this.#timer.stop();
    const status = await this.#server.close();
    await Promise.all([this.#reading, this.#watching]);
    return status;
  }

  /** Close the connection at the end of an `await using` block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #exchange(
    method: string,
    params: JsonObject,
    cancellable: boolean,
    deadline?: number,
  ): Promise<JsonObject> {
    if (this.#broken !== undefined) return Promise.reject(this.#broken);
    const now = performance.now();
    deadline ??= now + this.#timeoutMs;
    if (deadline <= now) {
      return Promise.reject(
        new TimeoutError(`${method} was not sent: its ${this.#timeoutMs} ms deadline had passed`),
      );
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting = { id, method, cancellable, deadline, resolve, reject };
      this.#timer.watch(deadline);
      this.#send({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** End the waiting request with a `TimeoutError`, and tell the server if it may be cancelled. */
  #expire(): void {
    const waiting = this.#waiting!;
    this.#waiting = undefined;
    const { id, method, cancellable } = waiting;
    if (cancellable) {
      this.#cancelled.add(id);
      this.#send({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: id, reason: `No reply within ${this.#timeoutMs} ms` },
      });
    }
    waiting.reject(
      new TimeoutError(`${method} (id ${id}) had no reply within ${this.#timeoutMs} ms`),
    );
  }

  /**
   * Write `message` to the server. What the server has not read yet waits in
   * memory, so a server that asks for replies while never reading (a flood
   * of pings) would make it grow without end: past `maxUnread` bytes, the
   * server is no longer trusted and is closed.
   */
  #send(message: JsonRpcMessage): void {
    if (this.#server.unread > this.#maxUnread) {
      this.#fail(
        new ProtocolError(
          `The server left more than ${this.#maxUnread.toLocaleString("en")} bytes unread ` +
            `on its stdin while it kept writing: the client distrusts it, and closes it`,
        ),
      );
      void this.#server.close();
      return;
    }
    const line = JSON.stringify(message);
    this.#transcript?.(">", line);
    this.#server.send(encoder.encode(line + "\n")).catch((error) =>
      this.#fail(
        new ProtocolError(`Could not write to the server${this.#context()}`, { cause: error }),
      )
    );
  }

  async #read(limit: number, split: SplitFrames): Promise<void> {
    const { stdout, closed } = this.#server;
    try {
      for await (const frames of readFrames(stdout, { limit, split, signal: closed })) {
        for (const frame of frames) this.#receive(frame);
        if (this.#broken !== undefined) break;
      }
      if (this.#broken === undefined && !closed.aborted) {
        const status = await within(this.#server.exited, 100);
        this.#fail(
          new ProtocolError(
            status === undefined
              ? `The server closed its stdout but is still running${this.#context()}`
              : exitMessage(status, this.#context()),
          ),
        );
      }
    } catch (error) {
      this.#fail(error as ProtocolError);
    }
    // Read a little more, so that a server part-way through a long reply can finish
    // it and exit when its input ends; a flood, past that, is left to block.
    await drain(stdout, closed, { maxBytes: DRAIN_AFTER_REFUSAL });
  }

  async #watchExit(): Promise<void> {
    const status = await this.#server.exited;
    // Let the reader take the last bytes the server wrote before it went.
    await within(this.#reading, 100);
    this.#fail(new ProtocolError(exitMessage(status, this.#context())));
  }

  #receive(frame: Uint8Array): void {
    this.#transcript?.("<", decoder.decode(frame));
    if (this.#broken !== undefined) return;
    if (frame.length === 0) {
      // The stdio transport allows nothing on a server's stdout but messages.
      this.#fail(new ProtocolError("A blank line is not an MCP message, nor part of one"));
      return;
    }
    let message: JsonRpcMessage;
    try {
      message = parseMessage(frame);
    } catch (error) {
      this.#fail(error as ProtocolError);
      return;
    }
    if (!("method" in message)) this.#settle(message);
    else if ("id" in message) this.#send(replyToServer(message));
    // Notifications need nothing from this client.
  }

  #settle(response: JsonRpcResponse): void {
    if (response.id !== null && this.#cancelled.delete(response.id)) return;
    const waiting = this.#waiting;
    if (waiting === undefined) {
      this.#fail(
        new ProtocolError(
          `A reply with id ${JSON.stringify(response.id)} arrived while no request was waiting`,
        ),
      );
      return;
    }
    this.#waiting = undefined;
    try {
      const result = this.#answer(waiting.id, response);
      if (!isObject(result)) {
        throw new ProtocolError(
          `The result of ${waiting.method} is not an object: ${JSON.stringify(result)}`,
        );
      }
      waiting.resolve(result);
    } catch (error) {
      this.#broken ??= error instanceof ProtocolError
        ? error
        : new ProtocolError("A reply was refused", { cause: error });
      waiting.reject(error);
    }
  }

  /** Trust the connection no more, and fail the request that waits. */
  #fail(error: ProtocolError): void {
    this.#broken ??= error;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.reject(error);
  }

  /** The server's last stderr lines, for an error message. */
  #context(): string {
    const lines = this.#server.stderrLines().slice(-5);
    return lines.length === 0 ? "" : `; its last stderr lines:\n  ${lines.join("\n  ")}`;
  }
}

function exitMessage(status: Deno.CommandStatus, context: string): string {
  return `The server exited with status ${describeExit(status)}${context}`;
}

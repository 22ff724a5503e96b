/**
 * JSON-RPC 2.0 to a server, over stdio or another transport: one request at
 * a time unless more are allowed in flight, each with a deadline, and each
 * reply handed to an answer function that decides whether it answers the
 * request it came for. A connection that delivered a reply it could not
 * trust is not trusted again.
 *
 * @module
 */

import { answerFor } from "./answer.ts";
import type { ClientTransport } from "./client_transport.ts";
import { InFlightLimit } from "./in_flight_limit.ts";
import { PendingRequests, type Waiting } from "./pending_requests.ts";
import { isWithheld, ProtocolError, TimeoutError } from "../shared/errors.ts";
import {
  isObject,
  isRequestId,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcResponse,
  parseMessage,
  type RequestId,
} from "../shared/jsonrpc.ts";
import type { CloseStep } from "./server_process.ts";
import { StdioTransport } from "./stdio_transport.ts";
import type {
  AnswerFunction,
  ConnectionOptions,
  Direction,
  RequestOptions,
} from "./connection_options.ts";
import { ServerAsks } from "./server_asks.ts";
import { FormAnswerError } from "./elicitation.ts";
import { type OpenRequest, OpenRequests } from "./open_requests.ts";
import type { McpVersion } from "../shared/versions.ts";

export type { ConnectionOptions, Direction, RequestOptions } from "./connection_options.ts";
export type { OpenRequest } from "./open_requests.ts";

const decoder = new TextDecoder();

/** How many times a modern request whose response stream broke is sent again. */
const REISSUES = 3;

/** What ends a request whose stream broke, so that it is sent again with a new id. */
class Reissue {
  constructor(readonly error: ProtocolError) {}
}

/**
 * A JSON-RPC connection to a server: one it starts from a command (over
 * stdio), or one it reaches through a {@linkcode ClientTransport} (Streamable
 * HTTP). It answers the server's own requests (`ping` with `{}`, anything
 * else with "method not found", unless it was given a way to answer),
 * hands notifications to whoever listens, and ends a request at once when
 * the server goes away or sends what cannot be trusted.
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
export class Connection<Closed = Deno.CommandStatus> implements AsyncDisposable {
  readonly #server: ClientTransport<Closed>;
  readonly #timeoutMs: number;
  readonly #answer: AnswerFunction;
  /** Whether the caller gave the answer function (the `answer` option), for what a withheld one is told. */
  readonly #answerGiven: boolean;
  readonly #transcript?: (direction: Direction, line: string) => void;
  readonly #reading: Promise<void>;
  readonly #maxUnread: number;
  /** The requests sent and not yet answered. */
  readonly #pending: PendingRequests;
  readonly #limit: InFlightLimit;
  /** The requests with no deadline. */
  readonly #open = new OpenRequests();
  /** The server's own requests being answered (see `ServerAsks`). */
  readonly #asks: ServerAsks;
  readonly #listeners = new Set<(message: JsonRpcNotification) => void>();
  #nextId = 1;
  #ended = false;
  #exited = false;
  #broken?: ProtocolError;
  #version?: McpVersion;

  /**
   * Start the server `command` (program and arguments), or speak through
   * `transport` (whose own options then hold its byte limit).
   */
  constructor(
    server: readonly string[] | ClientTransport<Closed>,
    options: ConnectionOptions = {},
  ) {
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#answer = options.answer ?? answerFor;
    this.#answerGiven = options.answer !== undefined;
    this.#transcript = options.transcript;
    this.#maxUnread = options.maxUnread ?? 1 << 18;
    this.#limit = new InFlightLimit(options.maxInFlight ?? 1);
    this.#asks = new ServerAsks(
      { elicit: options.elicit, sample: options.sample },
      (reply) => this.#send(reply),
    );
    this.#pending = new PendingRequests(
      this.#timeoutMs,
      (id) => this.#cancel(id, "No reply before its deadline"),
    );
    this.#server = isCommand(server)
      ? new StdioTransport(server, options) as unknown as ClientTransport<Closed>
      : server;
    this.#reading = this.#read();
    void this.#server.gone.then((error) => {
      this.#ended = true;
      this.#exited = this.#broken === undefined;
      this.#fail(error);
    });
  }

  /** Whether the server has gone: its process exited, or closed its stdout. */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Whether the server went away of its own accord while the connection was
   * trusted and open: not after the client closed it, nor after a reply it
   * refused.
   */
  get exited(): boolean {
    return this.#exited;
  }

  /** The transport the connection speaks through. */
  get transport(): ClientTransport<Closed> {
    return this.#server;
  }

  /** The server's process id, which is also its process-group id (a server it started only). */
  get pid(): number {
    if (this.#server instanceof StdioTransport) return this.#server.pid;
    throw new TypeError("A server reached through a transport has no process id here");
  }

  /** The deadline of each request, in milliseconds. */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /**
   * The protocol version agreed with the server, which decides how its own
   * requests are answered (a modern server sends none: one that does is
   * distrusted). Set once the client has agreed it.
   */
  set version(version: McpVersion) {
    this.#version = version;
  }

  /** The last lines the server wrote on stderr (none for a server it did not start). */
  stderrLines(): string[] {
    return this.#server instanceof StdioTransport ? this.#server.stderrLines() : [];
  }

  /** What closing the server did, and when (none for a server it did not start). */
  closeSteps(): CloseStep[] {
    return this.#server instanceof StdioTransport ? this.#server.closeSteps() : [];
  }

  /**
   * Send a request once fewer than `maxInFlight` are in flight (by default,
   * once the previous one has finished), and resolve with the result the
   * answer function accepts. Rejects with `TimeoutError` when the
   * deadline passes first (and, if `cancellable`, tells the server with
   * `notifications/cancelled`; if it passed before the request could be sent,
   * nothing is sent), or with `ProtocolError` when the reply cannot be
   * trusted or the server goes away. A request whose response stream broke
   * (a modern Streamable HTTP POST) is sent again with a new id, at most
   * three times, within the deadline it had when it was first sent.
   */
  request(method: string, params: JsonObject, options: RequestOptions = {}): Promise<JsonObject> {
    return this.#limit.run(async () => {
      // One deadline for the request, however often its stream breaks: a server that broke it just
      // before each deadline held a request four times as long.
      const deadline = options.deadline ??
        performance.now() + (options.timeoutMs ?? this.#timeoutMs);
      for (let sent = 0;; sent++) {
        try {
          return await this.#exchange(method, params, { ...options, deadline });
        } catch (error) {
          if (!(error instanceof Reissue)) throw error;
          if (sent >= REISSUES) throw error.error;
        }
      }
    });
  }

  /**
   * Send a request with no deadline and outside the in-flight limit, whose
   * reply may never come (a `subscriptions/listen`); see `OpenRequests` for
   * what ends it.
   */
  open(method: string, params: JsonObject): OpenRequest {
    const id = this.#nextId++;
    const reply = this.#broken === undefined ? this.#open.add(id) : Promise.reject(this.#broken);
    if (this.#broken === undefined) this.#send({ jsonrpc: "2.0", id, method, params });
    return {
      id,
      reply,
      cancel: () => {
        if (this.#open.drop(id, new ProtocolError(`${method} (id ${id}) was cancelled`))) {
          this.#cancel(id, "The client no longer wants it");
        }
      },
      broke: () => this.#open.broke(reply),
    };
  }

  /** Hand every notification from the server to `listener`, until the function returned is called. */
  listen(listener: (message: JsonRpcNotification) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Send a notification. */
  notify(method: string, params?: JsonObject): void {
    this.#send({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
  }

  /** Trust the connection no more: every later request fails with a `ProtocolError` saying why. */
  distrust(reason: string): ProtocolError {
    this.#broken ??= new ProtocolError(reason);
    this.#open.failAll(this.#broken);
    return this.#broken;
  }

  /**
   * End the transport: for a server it started, the server and everything in
   * its process group (see `ServerProcess.close`). A request still waiting
   * fails. Resolves with what the transport's close gives (the server's exit
   * status over stdio); calling it again is safe.
   */
  async close(): Promise<Closed> {
    this.#fail(new ProtocolError("The client is closed"));
    this.#pending.stop();
    this.#asks.end();
    const status = await this.#server.close();
    await this.#reading;
    return status;
  }

  /** Close the connection at the end of an `await using` block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #exchange(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject> {
    const { cancellable = true, errorIsAnswer = false, headers } = options;
    if (this.#broken !== undefined) return Promise.reject(this.#broken);
    const now = performance.now();
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const deadline = options.deadline ?? now + timeoutMs;
    if (deadline <= now) {
      return Promise.reject(
        new TimeoutError(`${method} was not sent: its ${timeoutMs} ms deadline had passed`),
      );
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.add({
        id,
        method,
        cancellable,
        errorIsAnswer,
        deadline,
        timeoutMs,
        resolve,
        reject,
      });
      this.#send({ jsonrpc: "2.0", id, method, params }, headers);
    });
  }

  /** Cancel the request `id`: the transport's own way, or with `notifications/cancelled` saying why. */
  #cancel(id: RequestId, reason: string): void {
    if (this.#server.cancel?.(id)) return;
    this.#send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: id, reason },
    });
  }

  /**
   * Write `message` to the server. What the server has not read yet waits in
   * memory, so a server that asks for replies while never reading (a flood
   * of pings) would make it grow without end: past `maxUnread` bytes, the
   * server is no longer trusted and is closed.
   */
  #send(message: JsonRpcMessage, headers?: Record<string, string>): void {
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
    this.#server.send(message, line, headers === undefined ? undefined : { headers })
      .catch((error) => this.#fail(error as ProtocolError));
  }

  async #read(): Promise<void> {
    try {
      for await (const batch of this.#server.incoming) {
        for (const item of batch) {
          if (item instanceof Uint8Array) this.#receive(item);
          else {
            // That reply alone is lost; a modern request whose stream broke is sent again.
            this.#pending.lose(item.id, item.reissue ? new Reissue(item.error) : item.error);
            this.#open.drop(item.id, item.error, item.reissue);
          }
        }
        if (this.#broken !== undefined) break;
      }
    } catch (error) {
      this.#fail(error as ProtocolError);
    }
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
    else if ("id" in message) {
      let answered: Promise<void>;
      try {
        answered = this.#asks.ask(message, this.#version);
      } catch (error) {
        this.#fail(error as ProtocolError);
        return;
      }
      answered.catch((error) => {
        if (!(error instanceof FormAnswerError)) return this.#fail(error);
        // The user's answer, not the server, failed: each request waiting is ended, the server kept.
        const reason = "The user's answer to the server's form did not fit it";
        for (const id of this.#pending.abandon(error)) this.#cancel(id, reason);
      });
    } else this.#notified(message);
  }

  /**
   * A notification: the server cancelling one of its own requests, or ending
   * an open request of the client's, or news for whoever listens.
   */
  #notified(message: JsonRpcNotification): void {
    const params = isObject(message.params) ? message.params : {};
    if (message.method === "notifications/cancelled" && isRequestId(params.requestId)) {
      this.#asks.cancel(params.requestId);
      this.#open.ended(params.requestId);
      return;
    }
    for (const listener of [...this.#listeners]) listener(message);
  }

  /**
   * Hand `response` to the answer function with the request it is for (see
   * `PendingRequests.take`), unless it ends an open request (see
   * `OpenRequests.settle`).
   */
  #settle(response: JsonRpcResponse): void {
    if (this.#open.settle(response)) return;
    let waiting: Waiting | undefined;
    try {
      waiting = this.#pending.take(response.id);
    } catch (error) {
      this.#fail(error as ProtocolError);
      return;
    }
    if (waiting === undefined) return; // a late reply to a request cancelled
    try {
      const result = this.#answer(waiting.id, response);
      if (!isObject(result)) {
        throw new ProtocolError(
          `The result of ${waiting.method} is not an object: ${JSON.stringify(result)}`,
        );
      }
      waiting.resolve(result);
    } catch (thrown) {
      // The learners' release withholds the library's answerFor: no reply can be checked. A
      // learner who passed it (lib/mcp/mod.ts still exports it) is not told to pass what they did.
      const error = isWithheld(thrown)
        ? new ProtocolError(
          `A reply cannot be checked: ${thrown.message}; ` + (this.#answerGiven
            ? "the answer option you gave is that withheld answerFor: give your own, Unit A's"
            : "pass your answerFor as the Client's answer option"),
        )
        : thrown;
      const answered = waiting.errorIsAnswer && "error" in response && response.id === waiting.id;
      if (answered) {
        const { code, message, data } = response.error;
        waiting.reject(
          new ProtocolError(`The server answered with error ${code}: ${message}`, { code, data }),
        );
        return;
      }
      // What refused it says why, for each later request too: an answer function of the
      // learner's may throw an error of its own class.
      this.#broken ??= error instanceof ProtocolError
        ? error
        : new ProtocolError(`A reply was refused: ${refusal(error)}`, { cause: error });
      this.#open.failAll(this.#broken);
      waiting.reject(error);
    }
  }

  /** Trust the connection no more, and fail every request in flight at once. */
  #fail(error: ProtocolError): void {
    this.#broken ??= error;
    this.#pending.rejectAll(error);
    this.#open.failAll(error);
  }
}

/** What `error` (thrown by an answer function) says, in one line. */
function refusal(error: unknown): string {
  const said = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return said.split("\n")[0];
}

function isCommand(server: unknown): server is readonly string[] {
  return Array.isArray(server);
}

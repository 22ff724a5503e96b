/**
 * Lab 04's client with many requests in flight, over a server's stdio, whose
 * decisions are the learner's own: which request a reply answers
 * (`routeReply`), which requests have passed their deadline (`expiredIds`),
 * and which request a progress notification belongs to (`progressOf`). The
 * plumbing around them (ids, timers, the bound on requests in flight, the
 * server's exit) is given, so that a learner's decision is the only thing
 * that can make it take a wrong reply.
 *
 * @module
 */

import { ProtocolError, TimeoutError } from "../mcp/shared/errors.ts";
import { readFrames } from "../mcp/shared/framing.ts";
import {
  isObject,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcResponse,
  parseMessage,
  type RequestId,
} from "../mcp/shared/jsonrpc.ts";
import type { ServerStatus, Transport } from "../mcp/shared/transport.ts";

/** Progress for a request in flight, as `progressOf` gives it. */
export interface Progress {
  request: RequestId;
  progress: number;
  total: number | null;
  message: string | null;
}

/** The learner's decisions, as the link calls them. */
export interface MultiplexDecisions {
  /** The id of the request `reply` answers, `null` to drop it; throws `ProtocolError` to refuse it. */
  routeReply(
    reply: JsonRpcResponse,
    inFlight: readonly RequestId[],
    cancelled: readonly RequestId[],
  ): RequestId | null;
  /** The ids whose deadline is at or before `now`, earliest first. */
  expiredIds(inFlight: readonly { id: RequestId; deadline: number }[], now: number): RequestId[];
  /** The progress `message` reports for a request in flight, or `null`. */
  progressOf(message: JsonRpcMessage, tokens: readonly [RequestId, RequestId][]): Progress | null;
}

/** Options for {@linkcode MultiplexLink}. */
export interface MultiplexOptions {
  /** The most requests in flight at once; more wait their turn. @default {16} */
  maxInFlight?: number;
  /** Each request's deadline, in milliseconds. @default {5000} */
  timeoutMs?: number;
}

/** Options for one {@linkcode MultiplexLink.request}. */
export interface RequestOptions {
  /** Given each progress notification for this request, as it comes. @default {undefined} */
  onProgress?: (progress: Progress) => void;
  /**
   * This request's deadline, in milliseconds, when it is not the link's: a
   * handshake with a server that is just starting may need more than the
   * calls a step times. @default {the link's `timeoutMs`}
   */
  timeoutMs?: number;
}

interface InFlight {
  method: string;
  timeoutMs: number;
  deadline: number;
  token?: RequestId;
  onProgress?: (progress: Progress) => void;
  resolve: (result: JsonObject) => void;
  reject: (error: unknown) => void;
}

const encoder = new TextEncoder();

/**
 * A JSON-RPC link with many requests in flight, over `server`'s stdio. A
 * refused reply fails every request in flight and every later one; so does
 * the server's exit, at once.
 *
 * @example
 * ```ts ignore
 * const link = new MultiplexLink(spawnServer(command), { routeReply, expiredIds, progressOf });
 * const [a, b] = await Promise.all([link.request("ping", {}), link.request("ping", {})]);
 * await link.close();
 * ```
 */
export class MultiplexLink implements AsyncDisposable {
  readonly #server: Transport;
  readonly #decisions: MultiplexDecisions;
  readonly #maxInFlight: number;
  readonly #timeoutMs: number;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #inFlight = new Map<RequestId, InFlight>();
  readonly #cancelled: RequestId[] = [];
  readonly #turns: (() => void)[] = [];
  readonly #reading: Promise<void>;
  #taken = 0;
  #nextId = 0;
  #broken?: ProtocolError;
  #timer?: ReturnType<typeof setTimeout>;
  #closing?: Promise<ServerStatus>;

  /** Speak to `server` with the learner's `decisions`. */
  constructor(server: Transport, decisions: MultiplexDecisions, options: MultiplexOptions = {}) {
    this.#server = server;
    this.#decisions = decisions;
    this.#maxInFlight = options.maxInFlight ?? 16;
    this.#timeoutMs = options.timeoutMs ?? 5000;
    this.#writer = server.writable.getWriter();
    this.#reading = this.#read();
    void server.status.then((status) =>
      this.#fail(new ProtocolError(`The server exited with code ${status.code}`))
    );
    void this.#drainStderr();
  }

  /** The requests sent and not yet answered or expired. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * Send a request once fewer than `maxInFlight` are in flight, and resolve
   * with its result. Rejects with `TimeoutError` when its deadline passes
   * (and tells the server, `notifications/cancelled`), or `ProtocolError`.
   * The deadline counts from sending, not from the call: a request that
   * waits its turn does not spend its time waiting.
   */
  async request(
    method: string,
    params: JsonObject,
    options: RequestOptions = {},
  ): Promise<JsonObject> {
    if (this.#taken < this.#maxInFlight) this.#taken++;
    else await new Promise<void>((resolve) => this.#turns.push(resolve));
    try {
      if (this.#broken !== undefined) throw this.#broken;
      const id = this.#nextId++;
      const token = options.onProgress === undefined ? undefined : `progress-${id}`;
      const sent = token === undefined ? params : { ...params, _meta: { progressToken: token } };
      const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
      return await new Promise<JsonObject>((resolve, reject) => {
        const deadline = performance.now() + timeoutMs;
        this.#inFlight.set(id, {
          method,
          timeoutMs,
          deadline,
          token,
          onProgress: options.onProgress,
          resolve,
          reject,
        });
        this.#watch();
        this.#send({ jsonrpc: "2.0", id, method, params: sent });
      });
    } finally {
      const next = this.#turns.shift();
      if (next === undefined) this.#taken--;
      else next();
    }
  }

  /** Send a notification. */
  notify(method: string, params: JsonObject = {}): void {
    this.#send({ jsonrpc: "2.0", method, params });
  }

  /** End the server: close its stdin, give it a second, then kill it; resolve with its status. */
  close(): Promise<ServerStatus> {
    this.#closing ??= (async () => {
      this.#fail(new ProtocolError("The link is closed"));
      await this.#writer.close().catch(() => {});
      const exited = await Promise.race([
        this.#server.status.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 1000)),
      ]);
      if (!exited) this.#server.kill();
      const status = await this.#server.status;
      await this.#reading;
      return status;
    })();
    return this.#closing;
  }

  /** Close the link at the end of an `await using` block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #send(message: JsonObject): void {
    this.#writer.write(encoder.encode(JSON.stringify(message) + "\n"))
      .catch((error) => this.#fail(new ProtocolError("The server is gone", { cause: error })));
  }

  async #read(): Promise<void> {
    try {
      for await (const frames of readFrames(this.#server.readable)) {
        for (const frame of frames) this.#receive(parseMessage(frame));
      }
      this.#fail(new ProtocolError("The server closed its stdout"));
    } catch (error) {
      this.#fail(error instanceof ProtocolError ? error : new ProtocolError(String(error)));
    }
  }

  #receive(message: JsonRpcMessage): void {
    if (this.#broken !== undefined) return;
    if (!("method" in message)) return this.#settle(message);
    if ("id" in message) {
      // A request of the server's own: this client answers ping, and nothing else.
      return this.#send(
        message.method === "ping" ? { jsonrpc: "2.0", id: message.id, result: {} } : {
          jsonrpc: "2.0",
          id: message.id,
          error: { code: -32601, message: "Method not found" },
        },
      );
    }
    const tokens: [RequestId, RequestId][] = [];
    for (const [id, request] of this.#inFlight) {
      if (request.token !== undefined) tokens.push([request.token, id]);
    }
    const progress = this.#decisions.progressOf(message, tokens);
    if (progress !== null) this.#inFlight.get(progress.request)?.onProgress?.(progress);
  }

  #settle(reply: JsonRpcResponse): void {
    const id = this.#decisions.routeReply(reply, [...this.#inFlight.keys()], [...this.#cancelled]);
    if (id === null) {
      this.#cancelled.splice(this.#cancelled.indexOf(reply.id as RequestId), 1);
      return;
    }
    const request = this.#inFlight.get(id);
    if (request === undefined) {
      throw new ProtocolError(`No request ${JSON.stringify(id)} is in flight`);
    }
    this.#inFlight.delete(id);
    if ("error" in reply) {
      request.reject(new ProtocolError(reply.error.message, { code: reply.error.code }));
    } else if (isObject(reply.result)) {
      request.resolve(reply.result);
    } else {
      request.reject(new ProtocolError(`The result of ${request.method} is not an object`));
    }
  }

  /** Set one timer for the earliest deadline in flight. */
  #watch(): void {
    clearTimeout(this.#timer);
    let earliest = Infinity;
    for (const { deadline } of this.#inFlight.values()) earliest = Math.min(earliest, deadline);
    if (earliest === Infinity) return;
    this.#timer = setTimeout(() => this.#expire(), Math.max(0, earliest - performance.now()));
  }

  #expire(): void {
    const entries = [...this.#inFlight].map(([id, { deadline }]) => ({ id, deadline }));
    for (const id of this.#decisions.expiredIds(entries, performance.now())) {
      const request = this.#inFlight.get(id);
      if (request === undefined) continue;
      this.#inFlight.delete(id);
      this.#cancelled.push(id);
      // The specification forbids cancelling the handshake; any other request is cancelled.
      if (request.method !== "initialize") {
        this.notify("notifications/cancelled", { requestId: id, reason: "deadline passed" });
      }
      request.reject(
        new TimeoutError(
          `${request.method} (id ${id}) had no reply within ${request.timeoutMs} ms`,
        ),
      );
    }
    this.#watch();
  }

  /** Fail every request in flight at once, and every later one. */
  #fail(error: ProtocolError): void {
    this.#broken ??= error;
    clearTimeout(this.#timer);
    const failed = [...this.#inFlight.values()];
    this.#inFlight.clear();
    for (const request of failed) request.reject(error);
  }

  async #drainStderr(): Promise<void> {
    for await (const _ of this.#server.stderr) { /* a full pipe would block the server */ }
  }
}

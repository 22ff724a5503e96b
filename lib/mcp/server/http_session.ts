/**
 * One client's session of a Streamable HTTP endpoint: a `ServerSession` over
 * the POSTs and streams that carry it. Each POSTed request is answered with
 * one JSON body when its reply is the first thing its handling sends, and
 * otherwise with an event stream of everything its handling sends, ending
 * with the reply; what the session sends unasked goes on the GET stream.
 *
 * @module
 */

import type { JsonObject, RequestId } from "../shared/jsonrpc.ts";
import { jsonReply, refusal } from "./http_replies.ts";
import type { RequestStateSeal } from "./request_state.ts";
import { type EventWatcher, ResumableStream } from "./resumable_stream.ts";
import type { ServerTransport } from "./server_transport.ts";
import { ServerSession } from "./session.ts";
import type { SessionSpec } from "./session_spec.ts";

/** The most streams a session keeps for resuming; older finished ones are dropped. */
const KEEP_STREAMS = 64;

/** The most GET streams a session keeps open; a newer one ends the oldest. */
const KEEP_GETS = 4;

/** A POSTed request waiting for its answer: not yet decided, or streaming. */
interface Exchange {
  decide?: (response: Response) => void;
  stream?: ResumableStream;
}

/**
 * A session serving `spec`, its streams keeping their last `keep` events each.
 *
 * @example A request answered with one JSON body
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const session = new HttpSession({ name: "s", version: "1", tools: [] }, 64);
 * const reply = await session.exchange(1, { jsonrpc: "2.0", id: 1, method: "ping" });
 * assert.deepEqual(await reply.json(), { jsonrpc: "2.0", id: 1, result: {} });
 * session.end();
 * await session.done;
 * ```
 */
export class HttpSession implements ServerTransport {
  /** The session's id, for the `Mcp-Session-Id` header. */
  readonly id = crypto.randomUUID();
  /** Resolves when the session is over. */
  readonly done: Promise<void>;
  /** When the client last used the session (`Date.now()`), for expiring it. */
  lastSeen = Date.now();
  readonly #keep: number;
  readonly #onEvent?: EventWatcher;
  readonly #streams = new Map<string, ResumableStream>();
  readonly #exchanges = new Map<RequestId, Exchange>();
  /** The newest GET stream: what the session sends unasked goes there, and on no other. */
  #unrelated: ResumableStream;
  #gets = 0;
  readonly #incoming: ReadableStream<unknown>;
  #controller!: ReadableStreamDefaultController<unknown>;
  #session: ServerSession;
  #nextStream = 0;
  #ended = false;

  /**
   * Start serving `spec`; each stream keeps its last `keep` events, for
   * resuming, and tells `onEvent` of each; the server's requests share `seal`.
   */
  constructor(
    spec: SessionSpec,
    keep: number,
    options: { seal?: RequestStateSeal; onEvent?: EventWatcher } = {},
  ) {
    const { seal, onEvent } = options;
    this.#keep = keep;
    this.#onEvent = onEvent;
    this.#incoming = new ReadableStream({ start: (c) => void (this.#controller = c) });
    this.#unrelated = new ResumableStream("get0", keep, { onEvent });
    this.#streams.set("get0", this.#unrelated);
    this.#session = new ServerSession(spec, this, { seal });
    this.done = this.#session.done;
  }

  /** Whether the client's `initialize` was answered with a version: only then is the session open. */
  get initialized(): boolean {
    return this.#session.version !== undefined;
  }

  /** The client's messages, as the session reads them. */
  get incoming(): AsyncIterable<unknown> {
    return this.#incoming;
  }

  /** Hand the client's message to the session. */
  push(message: unknown): void {
    if (!this.#ended) this.#controller.enqueue(message);
  }

  /**
   * Hand the request `id` to the session, and resolve with its response:
   * JSON if its reply is the first thing it sends, otherwise an event stream
   * that carries everything its handling sends, and ends with the reply.
   */
  exchange(id: RequestId, message: JsonObject): Promise<Response> {
    if (this.#exchanges.has(id)) {
      return Promise.resolve(refusal(400, `Request id ${JSON.stringify(id)} is in use`));
    }
    const { promise, resolve } = Promise.withResolvers<Response>();
    this.#exchanges.set(id, { decide: resolve });
    this.push(message);
    return promise;
  }

  /**
   * The GET stream, or a stream resumed from `lastEventId`. A GET while the
   * GET stream is open gets a new one, which takes every later message the
   * session sends unasked (each message goes on one stream only); the older
   * one stays open, and idle, at most {@linkcode KEEP_GETS} of them.
   */
  listen(lastEventId: string | null): Response {
    if (lastEventId === null) {
      if (this.#unrelated.open) {
        this.#unrelated = new ResumableStream(`get${++this.#gets}`, this.#keep, {
          onEvent: this.#onEvent,
        });
        this.#streams.set(this.#unrelated.id, this.#unrelated);
        const oldest = `get${this.#gets - KEEP_GETS}`;
        this.#streams.get(oldest)?.finish();
        this.#streams.delete(oldest);
      }
      return this.#unrelated.respond(-1);
    }
    const [streamId, n] = lastEventId.split(":");
    const found = this.#streams.get(streamId);
    if (found === undefined || !/^\d+$/.test(n ?? "")) {
      return refusal(400, `No stream to resume after event ${lastEventId}`);
    }
    return found.respond(Number(n));
  }

  /** What the session sends: on its request's stream, or the GET stream. */
  send(message: JsonObject, relatedTo?: RequestId): void {
    const exchange = relatedTo === undefined ? undefined : this.#exchanges.get(relatedTo);
    if (exchange === undefined) return this.#unrelated.write(message);
    const final = !("method" in message) && message.id === relatedTo;
    if (exchange.decide !== undefined) {
      const decide = exchange.decide;
      exchange.decide = undefined;
      if (final) {
        this.#exchanges.delete(relatedTo!);
        return decide(jsonReply(message));
      }
      exchange.stream = this.#openStream();
      decide(exchange.stream.respond(-1));
    }
    exchange.stream!.write(message);
    if (final) {
      exchange.stream!.finish();
      this.#exchanges.delete(relatedTo!);
    }
  }

  /** The request `id` will get no reply: its response ends empty. */
  abandon(id: RequestId): void {
    const exchange = this.#exchanges.get(id);
    if (exchange === undefined) return;
    this.#exchanges.delete(id);
    exchange.stream ??= this.#openStream();
    exchange.decide?.(exchange.stream.respond(-1));
    exchange.stream.finish();
  }

  /** End the session: its messages end, every stream closes, every waiting POST is answered 404. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    try {
      this.#controller.close();
    } catch {
      // Closed already.
    }
    this.#session.end();
    for (const exchange of this.#exchanges.values()) {
      exchange.decide?.(refusal(404, `Session ${this.id} ended before the reply`));
      exchange.stream?.finish();
    }
    this.#exchanges.clear();
    for (const stream of this.#streams.values()) stream.finish();
  }

  #openStream(): ResumableStream {
    const stream = new ResumableStream(`p${this.#nextStream++}`, this.#keep, {
      onEvent: this.#onEvent,
    });
    this.#streams.set(stream.id, stream);
    // Keep the latest streams only: older finished ones can no longer be resumed.
    for (const [id, old] of this.#streams) {
      if (this.#streams.size <= KEEP_STREAMS) break;
      if (old.finished && !id.startsWith("get")) this.#streams.delete(id);
    }
    return stream;
  }
}

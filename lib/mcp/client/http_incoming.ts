/**
 * What a client receives over Streamable HTTP, as its transport's `incoming`:
 * JSON bodies read with a byte bound, event streams read with a bound on each
 * event, a stream that dropped before its reply resumed from its last event
 * (`Last-Event-ID`), the GET stream for what the server sends unasked,
 * reopened when it drops, and the last few problems, for an error message.
 *
 * @module
 */

import { sleep } from "../shared/_async.ts";
import { readBounded } from "../shared/bounded_body.ts";
import { describeError, ProtocolError } from "../shared/errors.ts";
import { type JsonRpcRequest, parseMessage } from "../shared/jsonrpc.ts";
import { declaredVersion } from "../shared/meta.ts";
import { readSseWith, SSE_DATA_HINT } from "../shared/read_sse_with.ts";
import { readSseEvents, type SseData, type SseEvent } from "../shared/sse.ts";
import { mediaType, statusLine } from "./_http_text.ts";
import { carried } from "./carried.ts";
import { type Incoming, Unanswered } from "./client_transport.ts";
import type { HttpEndpoint } from "./http_endpoint.ts";

/** Options for {@linkcode HttpIncoming}. */
export interface HttpIncomingOptions {
  /** The most bytes one message may take (a JSON body, or one event). @default {65536} */
  limit?: number;
  /** How long to wait before resuming a dropped stream, unless the server said (`retry`). @default {500} */
  retryMs?: number;
  /** How many times in a row a dropped stream is resumed before it is given up. @default {3} */
  maxRetries?: number;
  /** Aborted when the client is done: nothing more is read or delivered. @default {undefined} (never) */
  signal?: AbortSignal;
  /**
   * Reads event streams in place of the library's reader (see `readSseWith`):
   * a learner's own `sseData`. A stream read with it tells no event id, so
   * none is resumed; `limit` bounds what it holds since its last whole
   * event, about one event. @default {undefined} (the library's `readSseEvents`)
   */
  sseData?: SseData;
}

const encoder = new TextEncoder();

/**
 * What arrives from `endpoint`, delivered in batches to {@linkcode HttpIncoming.stream}.
 *
 * @example A reply read from an event stream, after a notification that came first
 * ```ts
 * import assert from "node:assert/strict";
 * import { HttpEndpoint } from "./http_endpoint.ts";
 *
 * const incoming = new HttpIncoming(new HttpEndpoint("http://127.0.0.1:9/mcp"));
 * const body = new Response(
 *   'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n' +
 *     'data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n',
 * ).body!;
 * await incoming.replyStream(body, { jsonrpc: "2.0", id: 1, method: "ping" });
 * incoming.close();
 * const frames = [];
 * for await (const batch of incoming.stream) frames.push(...batch);
 * assert.equal(frames.length, 2);
 * ```
 */
export class HttpIncoming {
  /** What the server sends, on every stream, as it arrives (see `ClientTransport.incoming`). */
  readonly stream: ReadableStream<readonly Incoming[]>;
  readonly #endpoint: HttpEndpoint;
  readonly #limit: number;
  readonly #retryMs: number;
  readonly #maxRetries: number;
  readonly #signal?: AbortSignal;
  readonly #sseData?: SseData;
  readonly #notes: string[] = [];
  #controller!: ReadableStreamDefaultController<readonly Incoming[]>;
  #serverRetryMs?: number;

  /** What arrives from `endpoint`, read as `options` say. */
  constructor(endpoint: HttpEndpoint, options: HttpIncomingOptions = {}) {
    this.#endpoint = endpoint;
    this.#limit = options.limit ?? 65536;
    this.#retryMs = options.retryMs ?? 500;
    this.#maxRetries = options.maxRetries ?? 3;
    this.#signal = options.signal;
    this.#sseData = options.sseData;
    this.stream = new ReadableStream({ start: (c) => void (this.#controller = c) });
  }

  /** The last few HTTP exchanges that went wrong, for an error message. */
  context(): string {
    return this.#notes.length === 0 ? "" : `; the last HTTP problems: ${this.#notes.join("; ")}`;
  }

  /** Keep `problem` among the last five, for {@linkcode HttpIncoming.context}. */
  note(problem: string): void {
    this.#notes.push(problem);
    if (this.#notes.length > 5) this.#notes.shift();
  }

  /** Deliver `items` to the stream, unless the client is done. */
  deliver(items: Incoming[]): void {
    if (this.#signal?.aborted) return;
    try {
      this.#controller.enqueue(items);
    } catch {
      // The stream was refused already.
    }
  }

  /** End the stream: nothing more is delivered. */
  close(): void {
    try {
      this.#controller.close();
    } catch {
      // Already errored or closed.
    }
  }

  /**
   * A JSON body, at most `limit` bytes: read whole when its length is
   * declared within the limit (HTTP holds a body to its declared length),
   * otherwise read with a bound, so that no more than the limit is held.
   */
  async json(response: Response): Promise<Uint8Array> {
    const declared = Number(response.headers.get("content-length") ?? NaN);
    if (declared > this.#limit) {
      await response.body?.cancel();
      throw new ProtocolError(`A body of ${declared} bytes exceeds the ${this.#limit}-byte limit`);
    }
    if (Number.isInteger(declared)) return new Uint8Array(await response.arrayBuffer());
    return await readBounded(response.body ?? ReadableStream.from([]), this.#limit);
  }

  /**
   * Deliver the event stream `body` that is to carry the reply to `request`
   * (see `carried`: any other reply refuses the whole transport); if it ends
   * first, resume it from its last event, with GET requests
   * (`Last-Event-ID`), until the reply comes or the tries are spent; then the
   * request is {@linkcode Unanswered}. A modern request's stream is never
   * resumed ("Resumable SSE streams via `Last-Event-ID` are not
   * supported"): it is {@linkcode Unanswered} at once, to be re-issued. Once
   * `signal` aborts, nothing more is tried or said.
   */
  async replyStream(
    body: ReadableStream<Uint8Array>,
    request: JsonRpcRequest,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    const { id } = request;
    const { signal } = options;
    let { answered, lastEventId } = await this.#read(body, request);
    if (typeof declaredVersion(request.params) === "string") {
      if (answered || this.#signal?.aborted || signal?.aborted) return;
      const broke = new ProtocolError(
        `The server's stream for request ${JSON.stringify(id)} (${request.method}) ended ` +
          `before its reply${this.#sseData === undefined ? "" : SSE_DATA_HINT}`,
      );
      return this.deliver([new Unanswered(id, broke, true)]);
    }
    for (
      let attempt = 0;
      !answered && lastEventId !== undefined && attempt < this.#maxRetries;
      attempt++
    ) {
      await sleep(this.#serverRetryMs ?? this.#retryMs);
      if (this.#signal?.aborted || signal?.aborted) return;
      const response = await this.#endpoint.get(lastEventId, { signal }).catch(() => undefined);
      if (response === undefined || !response.ok || response.body === null) {
        await response?.body?.cancel();
        continue;
      }
      ({ answered, lastEventId } = await this.#read(response.body, request, lastEventId));
    }
    if (answered || this.#signal?.aborted || signal?.aborted) return;
    this.deliver([
      new Unanswered(
        id,
        new ProtocolError(
          `The server's stream for request ${JSON.stringify(id)} ended before its reply` +
            (this.#sseData !== undefined
              ? SSE_DATA_HINT
              : lastEventId === undefined
              ? ", and carried no event id to resume it from"
              : `, and could not be resumed after event ${lastEventId}`),
        ),
      ),
    ]);
  }

  /** The GET stream: what the server sends unasked, reopened when it drops. */
  async listen(): Promise<void> {
    let lastEventId: string | undefined;
    for (let failures = 0; failures < this.#maxRetries && !this.#signal?.aborted;) {
      const response = await this.#endpoint.get(lastEventId).catch((error) => {
        if (!this.#signal?.aborted) this.note(`GET failed: ${describeError(error)}`);
        return undefined;
      });
      if (response === undefined) return; // failed, or the session ended (a 404)
      if (response.status === 405) return void await response.body?.cancel(); // none offered
      if (!response.ok || mediaType(response) !== "text/event-stream" || response.body === null) {
        await response.body?.cancel();
        this.note(`GET answered ${statusLine(response)}: no stream for messages the server starts`);
        return;
      }
      const read = await this.#read(response.body, undefined, lastEventId);
      lastEventId = read.lastEventId;
      failures = read.lastEventId === undefined ? failures + 1 : 0;
      await sleep(this.#serverRetryMs ?? this.#retryMs);
    }
  }

  /**
   * Read an event stream, delivering each message, until the reply to
   * `request` (the GET stream has none: `undefined`); tell whether it came,
   * and the last event id seen, for resuming the stream.
   */
  async #read(
    body: ReadableStream<Uint8Array>,
    request: JsonRpcRequest | undefined,
    lastEventId?: string,
  ): Promise<{ answered: boolean; lastEventId?: string }> {
    let answered = false;
    let events: AsyncIterable<SseEvent>;
    try {
      events = this.#sseData === undefined
        ? readSseEvents(body, { limit: this.#limit })
        : readSseWith(body, this.#sseData, { limit: this.#limit });
    } catch (error) {
      // No reader here (the learners' release withholds the library's): nothing can be read.
      await body.cancel();
      this.refuse(
        new ProtocolError(
          `An event stream cannot be read: ${describeError(error)}; ` +
            "pass your sseData as the Client's sseData option",
        ),
      );
      return { answered: true };
    }
    try {
      for await (const event of events) {
        if (event.id !== undefined) lastEventId = event.id;
        if (event.retry !== undefined) this.#serverRetryMs = event.retry;
        if (event.event !== undefined && event.event !== "message") continue;
        if (event.data === "") continue; // a priming event: an id to resume from, no message
        const frame = encoder.encode(event.data);
        answered = this.#isReply(request, frame);
        this.deliver([frame]);
        if (answered) break; // nothing after the reply is read
      }
    } catch (error) {
      if (error instanceof ProtocolError) {
        // What arrived cannot be trusted: the whole transport is refused.
        this.refuse(error);
        return { answered: true };
      }
      // The stream dropped (a reset connection): resumed, if it can be.
      if (!this.#signal?.aborted) this.note(`a stream dropped: ${describeError(error)}`);
    }
    return { answered, lastEventId };
  }

  /**
   * Whether `frame`, from a stream that is to carry the reply to `request`,
   * is that reply (see `carried`: any other reply is refused). Read with a
   * learner's `sseData`, it must be a message, and a refusal says it was
   * read with theirs.
   */
  #isReply(request: JsonRpcRequest | undefined, frame: Uint8Array): boolean {
    try {
      if (this.#sseData !== undefined) parseMessage(frame);
      const answered = carried(request, frame) === "reply";
      if (answered) this.#endpoint.isReplyTo(request?.id, frame);
      return answered;
    } catch (error) {
      if (this.#sseData === undefined || !(error instanceof ProtocolError)) throw error;
      throw new ProtocolError(error.message + SSE_DATA_HINT, { cause: error });
    }
  }

  /** What arrived cannot be trusted: the stream fails with `error`, and every request with it. */
  refuse(error: ProtocolError): void {
    try {
      this.#controller.error(error);
    } catch {
      // Already refused.
    }
  }
}

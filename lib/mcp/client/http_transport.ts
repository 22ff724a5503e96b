/**
 * The Streamable HTTP transport, as a client sees it, in both eras: each
 * message POSTed to the server's endpoint, its reply read from a JSON body or
 * an event stream, every message read bounded by a byte limit. Legacy
 * (2025-03-26 to 2025-11-25): the session id and protocol version carried
 * on every request after the handshake (`http_endpoint.ts`), the GET stream
 * opened for what the server sends of its own accord, a dropped stream
 * resumed from its last event (`http_incoming.ts`), and the session DELETEd
 * at close. Modern (2026-07-28): no session, no GET stream, no resumption (a
 * request whose stream broke is re-issued with a new id, a subscription
 * opened again: see `Subscription`), the standard
 * headers on every POST, and a request cancelled by closing its stream.
 *
 * @module
 */

import { readBounded } from "../shared/bounded_body.ts";
import { describeError, ProtocolError } from "../shared/errors.ts";
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from "../shared/jsonrpc.ts";
import { declaredVersion } from "../shared/meta.ts";
import type { SseData } from "../shared/sse.ts";
import { mediaType, statusLine } from "./_http_text.ts";
import {
  type ClientTransport,
  type Incoming,
  type SendOptions,
  Unanswered,
} from "./client_transport.ts";
import { carried } from "./carried.ts";
import { type Authorization, HttpEndpoint } from "./http_endpoint.ts";
import { HttpIncoming } from "./http_incoming.ts";

/** Options for {@linkcode HttpTransport}. */
export interface HttpTransportOptions {
  /** The most bytes one message may take (a JSON body, or one event). @default {65536} */
  limit?: number;
  /** Headers added to every request (never the session's or the protocol version's). @default {{}} */
  headers?: Record<string, string>;
  /** Gets a bearer token when the server answers 401. @default {undefined} (a 401 fails) */
  authorization?: Authorization;
  /** How long `close()` waits for the server to answer its DELETE. @default {1000} */
  graceMs?: number;
  /** How long to wait before resuming a dropped stream, unless the server said (`retry`). @default {500} */
  retryMs?: number;
  /** How many times in a row a dropped stream is resumed before it is given up. @default {3} */
  maxRetries?: number;
  /** Open the GET stream after the handshake, for what the server sends unasked. @default {true} */
  listen?: boolean;
  /**
   * Reads event streams in place of the library's reader: a learner's own
   * `sseData` (see `HttpIncomingOptions.sseData`; the learners' release
   * reads them with nothing else). @default {undefined} (the library's `readSseEvents`)
   */
  sseData?: SseData;
}

/** What closing an HTTP transport did. */
export interface SessionEnd {
  /** The session the server had issued, if it issued one. */
  sessionId: string | undefined;
  /** The HTTP status of the DELETE that ended it, or `undefined` when none was sent or answered. */
  deleted: number | undefined;
}

/**
 * A server reached over Streamable HTTP at `url`. A POST that fails, or a
 * stream that ends before its reply and cannot be resumed, ends that request
 * alone ({@linkcode Unanswered}); a 404 for the session means the server
 * ended it: every request in flight in it ends so, nothing but `initialize`
 * is sent until a new session begins (see `sessionEnded`), and the GET
 * stream of the new one is opened after its handshake. A response that
 * carries what it may not (see `carried`) refuses the whole transport.
 * Redirects are never followed.
 *
 * @example Nothing is sent before the first message; only HTTP(S) is spoken
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const transport = new HttpTransport("http://127.0.0.1:8080/mcp");
 * assert.equal(transport.sessionId, undefined);
 * assert.deepEqual(await transport.close(), { sessionId: undefined, deleted: undefined });
 * assert.throws(() => new HttpTransport("file:///etc/passwd"), TypeError);
 * ```
 */
export class HttpTransport implements ClientTransport<SessionEnd> {
  readonly url: URL;
  readonly #limit: number;
  readonly #graceMs: number;
  readonly #listen: boolean;
  readonly #abort = new AbortController();
  readonly #endpoint: HttpEndpoint;
  readonly #incoming: HttpIncoming;
  /** The requests POSTed and not yet done with: the session each went in, and how to stop it. */
  readonly #inFlight = new Map<
    RequestId,
    { session?: string; abort: AbortController; modern: boolean }
  >();
  #closing?: Promise<SessionEnd>;

  /** A transport to the MCP endpoint `url` (nothing is sent until the first message). */
  constructor(url: URL | string, options: HttpTransportOptions = {}) {
    const { signal } = this.#abort;
    const { headers, authorization, retryMs, maxRetries } = options;
    this.#endpoint = new HttpEndpoint(url, {
      headers,
      authorization,
      signal,
      onSessionLost: (session, error) => this.#loseSession(session, error),
    });
    this.url = this.#endpoint.url;
    this.#limit = options.limit ?? 65536;
    this.#graceMs = options.graceMs ?? 1000;
    this.#listen = options.listen ?? true;
    this.#incoming = new HttpIncoming(this.#endpoint, {
      limit: this.#limit,
      retryMs,
      maxRetries,
      signal,
      sseData: options.sseData,
    });
  }

  /** The session id the server issued at the handshake, if it issued one. */
  get sessionId(): string | undefined {
    return this.#endpoint.sessionId;
  }

  /** What the server sends, on every stream, as it arrives (see {@linkcode ClientTransport}). */
  get incoming(): AsyncIterable<readonly Incoming[]> {
    return this.#incoming.stream;
  }

  /** Never resolves: a server that ends its session (404) is given a new one, not given up. */
  readonly gone: Promise<ProtocolError> = new Promise(() => {});

  /**
   * Whether the server has ended the session (a 404 for it) and no new one
   * has begun: every request but `initialize` is then refused unsent.
   */
  get sessionEnded(): boolean {
    return this.#endpoint.sessionEnded;
  }

  /** Bytes POSTed whose response has not begun. */
  get unread(): number {
    return this.#endpoint.unread;
  }

  /** The last few HTTP exchanges that went wrong, for an error message. */
  context(): string {
    return this.#incoming.context();
  }

  /**
   * POST `message` (its JSON is `line`). For a request, its reply is read from
   * the response (a JSON body, or an event stream that may carry the server's
   * requests and notifications first) and delivered to `incoming`.
   */
  async send(message: JsonRpcMessage, line: string, options: SendOptions = {}): Promise<void> {
    if (this.#abort.signal.aborted) throw new ProtocolError("The HTTP transport is closed");
    const request = "method" in message && "id" in message ? message : undefined;
    const modern = request !== undefined && typeof declaredVersion(request.params) === "string";
    if (request !== undefined && request.method !== "initialize" && this.sessionEnded) {
      const problem = new ProtocolError(
        `${request.method} was not sent: the server ended the session, and no new one has begun ` +
          "(initialize starts one)",
      );
      return this.#incoming.deliver([new Unanswered(request.id, problem)]);
    }
    const abort = new AbortController();
    if (request !== undefined) {
      this.#inFlight.set(request.id, { session: this.#endpoint.sessionId, abort, modern });
    }
    try {
      await this.#post(message, line, request, { signal: abort.signal, headers: options.headers });
    } catch (error) {
      if (this.#abort.signal.aborted || abort.signal.aborted) return;
      const problem = error instanceof ProtocolError ? error : new ProtocolError(
        `Could not reach the server at ${this.url.href}: ${describeError(error)}`,
        { cause: error },
      );
      if (request !== undefined) this.#incoming.deliver([new Unanswered(request.id, problem)]);
      else this.#incoming.note(problem.message);
    } finally {
      if (request !== undefined) this.#inFlight.delete(request.id);
    }
  }

  /**
   * Cancel the modern request `id` by closing its stream ("Closing the SSE
   * response stream is the cancellation signal"); a legacy one is cancelled
   * with `notifications/cancelled`, in its session (`false`).
   */
  cancel(id: RequestId): boolean {
    const request = this.#inFlight.get(id);
    if (request === undefined || !request.modern) return false;
    request.abort.abort();
    this.#inFlight.delete(id);
    return true;
  }

  /** The server ended `session`: each request in flight in it is stopped, and lost with `error`. */
  #loseSession(session: string, error: ProtocolError): void {
    const lost: Unanswered[] = [];
    for (const [id, request] of this.#inFlight) {
      if (request.session !== session) continue;
      request.abort.abort();
      this.#inFlight.delete(id);
      lost.push(new Unanswered(id, error));
    }
    if (lost.length > 0) this.#incoming.deliver(lost);
  }

  /** POST `message` (`request`, if it is one), and take its response by its status and media type. */
  async #post(
    message: JsonRpcMessage,
    line: string,
    request: JsonRpcRequest | undefined,
    options: { signal: AbortSignal; headers?: Record<string, string> },
  ): Promise<void> {
    const { signal } = options;
    const response = await this.#endpoint.post(line, { request, ...options });
    const type = mediaType(response);
    if (request === undefined) {
      // A notification or a response: the server owes 202 and no body.
      await response.body?.cancel();
      if (!response.ok) {
        this.#incoming.note(`POST ${describeMethod(message)} answered ${statusLine(response)}`);
      }
      if (response.ok && "method" in message && message.method === "notifications/initialized") {
        if (this.#listen) void this.#incoming.listen();
      }
      return;
    }
    const id = request.id;
    if (!response.ok) {
      // A JSON-RPC error for this request is its reply; anything else says why there is none.
      const bytes = await readBounded(response.body ?? ReadableStream.from([]), this.#limit)
        .catch(() => new Uint8Array(0));
      if (type === "application/json" && this.#endpoint.isReplyTo(id, bytes)) {
        this.#incoming.deliver([bytes]);
        return;
      }
      throw new ProtocolError(
        `POST ${describeMethod(message)} answered ${statusLine(response)}${explain(bytes)}`,
        { data: { httpStatus: response.status } },
      );
    }
    if (type === "application/json") {
      // One JSON body holds the reply to the request this POST carried, nothing else.
      const frame = await this.#incoming.json(response);
      try {
        if (carried(request, frame) !== "reply") {
          throw new ProtocolError(
            `The JSON body answering the POST of request ${JSON.stringify(id)} ` +
              `(${request.method}) is not its reply: ${describeFrame(frame)}`,
          );
        }
      } catch (error) {
        return this.#incoming.refuse(error as ProtocolError);
      }
      this.#endpoint.isReplyTo(id, frame); // the reply to initialize carries the protocol version
      this.#incoming.deliver([frame]);
      return;
    }
    if (type === "text/event-stream" && response.body !== null) {
      return await this.#incoming.replyStream(response.body, request, { signal });
    }
    await response.body?.cancel();
    throw new ProtocolError(
      `POST ${describeMethod(message)} answered with ${
        type === "" ? "no content type" : type
      }, neither application/json nor text/event-stream`,
    );
  }

  /**
   * End the transport: stop every stream, and DELETE the session if the
   * server issued one (waiting at most `graceMs`). A server that does not let
   * clients end sessions answers 405, which is fine.
   */
  close(): Promise<SessionEnd> {
    this.#closing ??= this.#endSession();
    return this.#closing;
  }

  async #endSession(): Promise<SessionEnd> {
    this.#abort.abort();
    this.#incoming.close();
    const deleted = await this.#endpoint.delete(this.#graceMs);
    return { sessionId: this.#endpoint.sessionId, deleted };
  }
}

/** What a refusal's body says: its JSON-RPC error's message, or the start of its text. */
function explain(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes.subarray(0, 2048));
  try {
    const message = JSON.parse(text).error.message;
    if (typeof message === "string") return `: ${message.slice(0, 200)}`;
  } catch {
    // Not a JSON-RPC error: its text, if any.
  }
  return text.trim() === "" ? "" : `: ${text.trim().slice(0, 200)}`;
}

/** The start of `frame`'s text, for an error message. */
function describeFrame(frame: Uint8Array): string {
  return new TextDecoder().decode(frame.subarray(0, 200));
}

function describeMethod(message: JsonRpcMessage): string {
  return "method" in message ? message.method : `the response to ${JSON.stringify(message.id)}`;
}

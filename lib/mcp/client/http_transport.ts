/**
 * The Streamable HTTP transport of MCP 2025-06-18, as a client sees it: each
 * message POSTed to the server's endpoint, its reply read from a JSON body or
 * an event stream, the session id and protocol version carried on every
 * request after the handshake, the GET stream opened for what the server
 * sends of its own accord, a dropped stream resumed from its last event, and
 * the session DELETEd at close. Every message read is bounded by a byte limit.
 *
 * @module
 */

import { sleep } from "../shared/_async.ts";
import { readBounded } from "../shared/bounded_body.ts";
import { ProtocolError } from "../shared/errors.ts";
import { isObject, type JsonRpcMessage, type RequestId } from "../shared/jsonrpc.ts";
import { readSseEvents } from "../shared/sse.ts";
import { type ClientTransport, type Incoming, Unanswered } from "./client_transport.ts";

/** How a client gets a bearer token after a server refused it with 401 (see `oauth.ts`). */
export interface Authorization {
  /** A token for `resource`, after the server answered `challenge` (a 401 response). */
  token(challenge: Response, resource: URL): Promise<string>;
}

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
}

/** What closing an HTTP transport did. */
export interface SessionEnd {
  /** The session the server had issued, if it issued one. */
  sessionId: string | undefined;
  /** The HTTP status of the DELETE that ended it, or `undefined` when none was sent or answered. */
  deleted: number | undefined;
}

/** The media types a client takes in reply to a POST, as the transport asks. */
const ACCEPT_POST = "application/json, text/event-stream";

const encoder = new TextEncoder();

/**
 * A server reached over Streamable HTTP at `url`. A POST that fails, or a
 * stream that ends before its reply and cannot be resumed, ends that request
 * alone ({@linkcode Unanswered}); a 404 for the session means the server
 * ended it, and the transport is gone. Redirects are never followed.
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
  readonly #headers: Record<string, string>;
  readonly #authorization?: Authorization;
  readonly #graceMs: number;
  readonly #retryMs: number;
  readonly #maxRetries: number;
  readonly #listen: boolean;
  readonly #abort = new AbortController();
  readonly #gone = Promise.withResolvers<ProtocolError>();
  readonly #notes: string[] = [];
  readonly #incoming: ReadableStream<readonly Incoming[]>;
  #controller!: ReadableStreamDefaultController<readonly Incoming[]>;
  #sessionId?: string;
  #protocolVersion?: string;
  #initializeId?: RequestId;
  #token?: string;
  #serverRetryMs?: number;
  #unread = 0;
  #closing?: Promise<SessionEnd>;

  /** A transport to the MCP endpoint `url` (nothing is sent until the first message). */
  constructor(url: URL | string, options: HttpTransportOptions = {}) {
    this.url = new URL(url);
    if (this.url.protocol !== "http:" && this.url.protocol !== "https:") {
      throw new TypeError(`Streamable HTTP needs an http: or https: URL, not ${this.url.href}`);
    }
    this.#limit = options.limit ?? 65536;
    this.#headers = options.headers ?? {};
    this.#authorization = options.authorization;
    this.#graceMs = options.graceMs ?? 1000;
    this.#retryMs = options.retryMs ?? 500;
    this.#maxRetries = options.maxRetries ?? 3;
    this.#listen = options.listen ?? true;
    this.#incoming = new ReadableStream({ start: (c) => void (this.#controller = c) });
  }

  /** The session id the server issued at the handshake, if it issued one. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** What the server sends, on every stream, as it arrives (see {@linkcode ClientTransport}). */
  get incoming(): AsyncIterable<readonly Incoming[]> {
    return this.#incoming;
  }

  /** Resolves when the server has ended the session (a 404 for it). */
  get gone(): Promise<ProtocolError> {
    return this.#gone.promise;
  }

  /** Bytes POSTed whose response has not begun. */
  get unread(): number {
    return this.#unread;
  }

  /** The last few HTTP exchanges that went wrong, for an error message. */
  context(): string {
    return this.#notes.length === 0 ? "" : `; the last HTTP problems: ${this.#notes.join("; ")}`;
  }

  /**
   * POST `message` (its JSON is `line`). For a request, its reply is read from
   * the response (a JSON body, or an event stream that may carry the server's
   * requests and notifications first) and delivered to `incoming`.
   */
  async send(message: JsonRpcMessage, line: string): Promise<void> {
    if (this.#abort.signal.aborted) throw new ProtocolError("The HTTP transport is closed");
    const id = "method" in message && "id" in message ? message.id : undefined;
    if (id !== undefined && "method" in message && message.method === "initialize") {
      this.#initializeId = id;
    }
    try {
      await this.#post(message, line, id);
    } catch (error) {
      if (this.#abort.signal.aborted) return;
      const problem = error instanceof ProtocolError
        ? error
        : new ProtocolError(`Could not reach the server at ${this.url.href}: ${describe(error)}`, {
          cause: error,
        });
      if (id !== undefined) this.#deliver([new Unanswered(id, problem)]);
      else this.#note(problem.message);
    }
  }

  async #post(message: JsonRpcMessage, line: string, id: RequestId | undefined): Promise<void> {
    const body = encoder.encode(line);
    let response = await this.#fetchCounted("POST", body, { "content-type": "application/json" });
    if (response.status === 401 && this.#authorization !== undefined && this.#token === undefined) {
      this.#token = await this.#authorization.token(response, this.url);
      response = await this.#fetchCounted("POST", body, { "content-type": "application/json" });
    }
    const session = response.headers.get("mcp-session-id");
    if (session !== null && id !== undefined && id === this.#initializeId) {
      this.#sessionId = session;
    }
    if (response.status === 404 && this.#sessionId !== undefined) {
      await response.body?.cancel();
      const ended = new ProtocolError(
        `The server at ${this.url.href} has ended session ${this.#sessionId} (404 Not Found): ` +
          "a new client must start a new session",
      );
      this.#gone.resolve(ended);
      throw ended;
    }
    const type = mediaType(response);
    if (id === undefined) {
      // A notification or a response: the server owes 202 and no body.
      await response.body?.cancel();
      if (!response.ok) this.#note(`POST ${describeMethod(message)} answered ${status(response)}`);
      if (response.ok && "method" in message && message.method === "notifications/initialized") {
        if (this.#listen) void this.#listenForServer();
      }
      return;
    }
    if (!response.ok) {
      // A JSON-RPC error for this request is its reply; anything else says why there is none.
      const bytes = await readBounded(response.body ?? ReadableStream.from([]), this.#limit)
        .catch(() => new Uint8Array(0));
      if (type === "application/json" && this.#watchFor(id, bytes)) {
        this.#deliver([bytes]);
        return;
      }
      throw new ProtocolError(
        `POST ${describeMethod(message)} answered ${status(response)}${explain(bytes)}`,
      );
    }
    if (type === "application/json") {
      const frame = await this.#body(response);
      if (id === this.#initializeId) this.#watchFor(id, frame);
      this.#deliver([frame]);
      return;
    }
    if (type === "text/event-stream" && response.body !== null) {
      const { answered, lastEventId } = await this.#readStream(response.body, id);
      if (!answered) await this.#resume(id, lastEventId);
      return;
    }
    await response.body?.cancel();
    throw new ProtocolError(
      `POST ${describeMethod(message)} answered with ${
        type === "" ? "no content type" : type
      }, neither application/json nor text/event-stream`,
    );
  }

  /**
   * A JSON body, at most `limit` bytes: read whole when its length is
   * declared within the limit (HTTP holds a body to its declared length),
   * otherwise read with a bound, so that no more than the limit is held.
   */
  async #body(response: Response): Promise<Uint8Array> {
    const declared = Number(response.headers.get("content-length") ?? NaN);
    if (declared > this.#limit) {
      await response.body?.cancel();
      throw new ProtocolError(`A body of ${declared} bytes exceeds the ${this.#limit}-byte limit`);
    }
    if (Number.isInteger(declared)) return new Uint8Array(await response.arrayBuffer());
    return await readBounded(response.body ?? ReadableStream.from([]), this.#limit);
  }

  /**
   * Read an event stream, delivering each message; tell whether it held the
   * reply to `id`, and the last event id seen, for resuming it.
   */
  async #readStream(
    body: ReadableStream<Uint8Array>,
    id: RequestId | undefined,
    lastEventId?: string,
  ): Promise<{ answered: boolean; lastEventId?: string }> {
    let answered = false;
    try {
      for await (const event of readSseEvents(body, { limit: this.#limit })) {
        if (event.id !== undefined) lastEventId = event.id;
        if (event.retry !== undefined) this.#serverRetryMs = event.retry;
        if (event.event !== undefined && event.event !== "message") continue;
        const frame = encoder.encode(event.data);
        if (this.#watchFor(id, frame)) answered = true;
        this.#deliver([frame]);
      }
    } catch (error) {
      if (error instanceof ProtocolError) {
        // What arrived cannot be trusted: the whole transport is refused.
        this.#refuse(error);
        return { answered: true };
      }
      // The stream dropped (a reset connection): resumed below, if it can be.
      if (!this.#abort.signal.aborted) this.#note(`a stream dropped: ${describe(error)}`);
    }
    return { answered, lastEventId };
  }

  /**
   * Resume the stream that was to carry the reply to `id`, from `lastEventId`,
   * with GET requests (`Last-Event-ID`), until the reply comes or the tries
   * are spent; then the request is {@linkcode Unanswered}.
   */
  async #resume(id: RequestId, lastEventId: string | undefined): Promise<void> {
    for (let attempt = 0; lastEventId !== undefined && attempt < this.#maxRetries; attempt++) {
      await sleep(this.#serverRetryMs ?? this.#retryMs);
      if (this.#abort.signal.aborted) return;
      const response = await this.#fetchCounted("GET", undefined, {
        accept: "text/event-stream",
        "last-event-id": lastEventId,
      }).catch(() => undefined);
      if (response === undefined || !response.ok || response.body === null) {
        await response?.body?.cancel();
        continue;
      }
      const read = await this.#readStream(response.body, id, lastEventId);
      if (read.answered) return;
      lastEventId = read.lastEventId;
    }
    if (this.#abort.signal.aborted) return;
    this.#deliver([
      new Unanswered(
        id,
        new ProtocolError(
          `The server's stream for request ${JSON.stringify(id)} ended before its reply` +
            (lastEventId === undefined
              ? ", and carried no event id to resume it from"
              : `, and could not be resumed after event ${lastEventId}`),
        ),
      ),
    ]);
  }

  /** The GET stream: what the server sends unasked, reopened when it drops. */
  async #listenForServer(): Promise<void> {
    let lastEventId: string | undefined;
    for (let failures = 0; failures < this.#maxRetries && !this.#abort.signal.aborted;) {
      const response = await this.#fetchCounted("GET", undefined, {
        accept: "text/event-stream",
        ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }),
      }).catch((error) => {
        if (!this.#abort.signal.aborted) this.#note(`GET failed: ${describe(error)}`);
        return undefined;
      });
      if (response === undefined) return;
      if (response.status === 405) return void await response.body?.cancel(); // none offered
      if (response.status === 404 && this.#sessionId !== undefined) {
        await response.body?.cancel();
        this.#gone.resolve(
          new ProtocolError(`The server has ended session ${this.#sessionId} (404 Not Found)`),
        );
        return;
      }
      if (!response.ok || mediaType(response) !== "text/event-stream" || response.body === null) {
        await response.body?.cancel();
        this.#note(`GET answered ${status(response)}: no stream for messages the server starts`);
        return;
      }
      const read = await this.#readStream(response.body, undefined, lastEventId);
      lastEventId = read.lastEventId;
      failures = read.lastEventId === undefined ? failures + 1 : 0;
      await sleep(this.#serverRetryMs ?? this.#retryMs);
    }
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
    try {
      this.#controller.close();
    } catch {
      // Already errored or closed.
    }
    let deleted: number | undefined;
    if (this.#sessionId !== undefined) {
      try {
        const response = await fetch(this.url, {
          method: "DELETE",
          headers: this.#requestHeaders({}),
          redirect: "manual",
          signal: AbortSignal.timeout(this.#graceMs),
        });
        await response.body?.cancel();
        deleted = response.status;
      } catch {
        // No answer in time: the session ends with the server's own timeout.
      }
    }
    return { sessionId: this.#sessionId, deleted };
  }

  async #fetchCounted(
    method: "POST" | "GET",
    body: Uint8Array<ArrayBuffer> | undefined,
    headers: Record<string, string>,
  ): Promise<Response> {
    const bytes = body?.length ?? 0;
    this.#unread += bytes;
    try {
      const response = await fetch(this.url, {
        method,
        headers: this.#requestHeaders(
          method === "POST" ? { accept: ACCEPT_POST, ...headers } : headers,
        ),
        body,
        redirect: "manual",
        signal: this.#abort.signal,
      });
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        throw new ProtocolError(
          `${method} was redirected (${status(response)}) to ${
            response.headers.get("location") ?? "nowhere"
          }: a client follows no redirect from an MCP endpoint`,
        );
      }
      return response;
    } finally {
      this.#unread -= bytes;
    }
  }

  #requestHeaders(headers: Record<string, string>): Headers {
    const all = new Headers(this.#headers);
    for (const [name, value] of Object.entries(headers)) all.set(name, value);
    if (this.#sessionId !== undefined) all.set("mcp-session-id", this.#sessionId);
    if (this.#protocolVersion !== undefined) all.set("mcp-protocol-version", this.#protocolVersion);
    if (this.#token !== undefined) all.set("authorization", `Bearer ${this.#token}`);
    return all;
  }

  /**
   * Whether `frame` is the reply to `id`; from the reply to `initialize`, the
   * protocol version every later request carries. A frame that is not JSON is
   * the connection's to refuse, not the transport's.
   */
  #watchFor(id: RequestId | undefined, frame: Uint8Array): boolean {
    if (id === undefined) return false;
    let message: unknown;
    try {
      message = JSON.parse(new TextDecoder().decode(frame));
    } catch {
      return false;
    }
    if (!isObject(message) || message.id !== id || "method" in message) return false;
    if (id === this.#initializeId && isObject(message.result)) {
      const version = message.result.protocolVersion;
      if (typeof version === "string") this.#protocolVersion = version;
    }
    return true;
  }

  #deliver(items: Incoming[]): void {
    if (this.#abort.signal.aborted) return;
    try {
      this.#controller.enqueue(items);
    } catch {
      // The stream was refused already.
    }
  }

  #refuse(error: ProtocolError): void {
    try {
      this.#controller.error(error);
    } catch {
      // Already refused.
    }
  }

  #note(problem: string): void {
    this.#notes.push(problem);
    if (this.#notes.length > 5) this.#notes.shift();
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

/** The media type of a response, without its parameters, in lower case. */
function mediaType(response: Response): string {
  return (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}

function status(response: Response): string {
  return `${response.status}${response.statusText === "" ? "" : ` ${response.statusText}`}`;
}

function describeMethod(message: JsonRpcMessage): string {
  return "method" in message ? message.method : `the response to ${JSON.stringify(message.id)}`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A Streamable HTTP endpoint (MCP 2025-06-18) on `Deno.serve`: bound to
 * 127.0.0.1 unless told otherwise, `Origin` and `Host` checked against DNS
 * rebinding, a session id issued at `initialize` and required after it (404
 * for one it does not hold), each POSTed request answered with one JSON body
 * or, when its handling sends anything before the reply, an event stream;
 * the GET stream for what the server sends unasked; streams resumable from
 * their last event; DELETE to end a session; a bound on every body.
 *
 * @module
 */

import { readBounded } from "../shared/bounded_body.ts";
import { isObject, isRequestId, type JsonObject, type RequestId } from "../shared/jsonrpc.ts";
import { sseEvent } from "../shared/sse.ts";
import { ERROR_CODES, PROTOCOL_VERSIONS } from "./dispatch.ts";
import { ServerSession } from "./session.ts";
import type { SessionSpec } from "./session_spec.ts";
import type { ServerTransport } from "./server_transport.ts";

/** Options for {@linkcode serveHttp}. */
export interface HttpServerOptions {
  /** The port to listen on; 0 takes a free one. @default {0} */
  port?: number;
  /** The address to bind. @default {"127.0.0.1"} */
  hostname?: string;
  /** The MCP endpoint's path. @default {"/mcp"} */
  path?: string;
  /** Origins a browser may send requests from. @default {the server's own loopback origins} */
  allowedOrigins?: readonly string[];
  /** The most bytes one POST body may take. @default {1048576} */
  maxBodyBytes?: number;
  /** The most sessions open at once; past it, `initialize` is answered 503. @default {1000} */
  maxSessions?: number;
  /** How long a session may go unused before it expires. @default {1800000} (30 minutes) */
  sessionTtlMs?: number;
  /** How many events of each stream are kept, to resume it after a drop. @default {64} */
  replayEvents?: number;
}

/** A running Streamable HTTP endpoint. */
export interface HttpServer extends AsyncDisposable {
  /** The MCP endpoint, e.g. `http://127.0.0.1:PORT/mcp`. */
  readonly url: URL;
  /** How many sessions are open. */
  readonly sessions: number;
  /** Stop listening, and end every session. */
  close(): Promise<void>;
}

const JSON_TYPE = { "content-type": "application/json" };
const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
};
const encoder = new TextEncoder();

/**
 * Serve `spec` over Streamable HTTP. Every session is a {@linkcode ServerSession}.
 *
 * @example A request from a page on another origin is refused, and the server serves on
 * ```ts
 * import assert from "node:assert/strict";
 *
 * await using server = serveHttp({ name: "empty", version: "1.0.0", tools: [] });
 * const post = (headers: Record<string, string>) => fetch(server.url, {
 *   method: "POST",
 *   headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
 *   body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
 * });
 * const refused = await post({ origin: "http://evil.example" });
 * await refused.body?.cancel();
 * assert.equal(refused.status, 403);
 * const served = await post({});
 * assert.equal(served.status, 200);
 * assert.equal((await served.json()).result.protocolVersion, "2025-06-18");
 * assert.match(served.headers.get("mcp-session-id")!, /^[0-9a-f-]{36}$/);
 * ```
 */
export function serveHttp(spec: SessionSpec, options: HttpServerOptions = {}): HttpServer {
  const hostname = options.hostname ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const maxBody = options.maxBodyBytes ?? 1 << 20;
  const maxSessions = options.maxSessions ?? 1000;
  const ttl = options.sessionTtlMs ?? 30 * 60_000;
  const replay = options.replayEvents ?? 64;
  const sessions = new Map<string, HttpSession>();
  let origins: readonly string[] = [];
  let hosts: readonly string[] = [];

  const handle = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url); // the URL's own path, not a file's
    if (pathname !== path) return refusal(404, `No MCP endpoint at ${pathname}`);
    const origin = request.headers.get("origin");
    if (origin !== null && !origins.includes(origin)) {
      return refusal(403, `Requests from origin ${origin} are not allowed`);
    }
    const host = request.headers.get("host");
    if (hosts.length > 0 && (host === null || !hosts.includes(host))) {
      return refusal(403, `Requests for host ${host} are not allowed`);
    }
    expire(sessions, ttl);
    if (request.method === "POST") return await post(request);
    if (request.method === "GET") return get(request);
    if (request.method === "DELETE") {
      const found = sessionOf(request);
      if (found instanceof Response) return found;
      found.end();
      sessions.delete(found.id);
      return new Response(null, { status: 200 });
    }
    return refusal(405, `${request.method} is not allowed here`, { allow: "GET, POST, DELETE" });
  };

  const post = async (request: Request): Promise<Response> => {
    const accept = request.headers.get("accept") ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
      return refusal(406, "A POST must accept both application/json and text/event-stream");
    }
    if (!(request.headers.get("content-type") ?? "").includes("application/json")) {
      return refusal(415, "A POST's body must be application/json");
    }
    const length = Number(request.headers.get("content-length") ?? "0");
    if (length > maxBody) {
      return refusal(413, `A body of ${length} bytes is over the ${maxBody}-byte bound`);
    }
    let message: unknown;
    try {
      const bytes = await readBounded(request.body ?? ReadableStream.from([]), maxBody);
      message = JSON.parse(new TextDecoder().decode(bytes));
    } catch (error) {
      if (error instanceof SyntaxError) {
        return refusal(400, "Parse error: the body is not JSON", {}, ERROR_CODES.parseError);
      }
      return refusal(413, `The body is over the ${maxBody}-byte bound`);
    }
    if (!isObject(message)) {
      return refusal(
        400,
        "Invalid request: one JSON-RPC message per POST, and no batch",
        {},
        ERROR_CODES.invalidRequest,
      );
    }
    const isRequest = typeof message.method === "string" && isRequestId(message.id);
    if (isRequest && message.method === "initialize") {
      if (request.headers.has("mcp-session-id")) {
        return refusal(400, "initialize starts a session: it must carry no Mcp-Session-Id");
      }
      if (sessions.size >= maxSessions) {
        return refusal(503, `All ${maxSessions} sessions are in use`);
      }
      const session = new HttpSession(spec, replay);
      sessions.set(session.id, session);
      session.done.finally(() => sessions.delete(session.id));
      const response = await session.exchange(message.id as RequestId, message);
      response.headers.set("mcp-session-id", session.id);
      return response;
    }
    const found = sessionOf(request);
    if (found instanceof Response) return found;
    const version = request.headers.get("mcp-protocol-version");
    if (version !== null && !PROTOCOL_VERSIONS.includes(version)) {
      return refusal(
        400,
        `Unsupported MCP-Protocol-Version ${version}; supported: ${PROTOCOL_VERSIONS.join(", ")}`,
      );
    }
    if (!isRequest) {
      found.push(message);
      return new Response(null, { status: 202 });
    }
    return await found.exchange(message.id as RequestId, message);
  };

  const get = (request: Request): Response => {
    if (!(request.headers.get("accept") ?? "").includes("text/event-stream")) {
      return refusal(406, "A GET must accept text/event-stream");
    }
    const found = sessionOf(request);
    if (found instanceof Response) return found;
    return found.listen(request.headers.get("last-event-id"));
  };

  const sessionOf = (request: Request): HttpSession | Response => {
    const id = request.headers.get("mcp-session-id");
    if (id === null) return refusal(400, "Bad request: no Mcp-Session-Id (send initialize first)");
    const session = sessions.get(id);
    if (session === undefined) return refusal(404, `No session ${id}: it ended, or never was`);
    session.lastSeen = Date.now();
    return session;
  };

  const server = Deno.serve({ hostname, port: options.port ?? 0, onListen: () => {} }, handle);
  const { port } = server.addr as Deno.NetAddr;
  const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
  const loopback = ["127.0.0.1", "localhost", "[::1]"];
  origins = options.allowedOrigins ?? loopback.map((name) => `http://${name}:${port}`);
  hosts = ["127.0.0.1", "localhost", "::1"].includes(hostname)
    ? loopback.map((name) => `${name}:${port}`)
    : [];
  const sweep = setInterval(() => expire(sessions, ttl), Math.min(ttl, 60_000));
  Deno.unrefTimer(sweep);
  let closing: Promise<void> | undefined;
  const close = () =>
    closing ??= (async () => {
      clearInterval(sweep);
      for (const session of sessions.values()) session.end();
      sessions.clear();
      await server.shutdown();
    })();
  return {
    url: new URL(`http://${shown}:${port}${path}`),
    get sessions() {
      return sessions.size;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** End every session unused for longer than `ttl`. */
function expire(sessions: Map<string, HttpSession>, ttl: number): void {
  const now = Date.now();
  for (const [id, session] of sessions) {
    if (now - session.lastSeen > ttl) {
      session.end();
      sessions.delete(id);
    }
  }
}

/** An HTTP refusal with a JSON-RPC error body, as the SDK's servers send. */
function refusal(
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): Response {
  const body = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } });
  return new Response(body, { status, headers: { ...JSON_TYPE, ...headers } });
}

/** One event stream of a session: its events kept for resuming, and the response it is written to. */
class Stream {
  readonly events: { n: number; text: string }[] = [];
  writer?: ReadableStreamDefaultController<Uint8Array>;
  finished = false;
  #next = 0;

  constructor(readonly id: string, readonly keep: number) {}

  /** Write `message` as the next event, and keep it. */
  write(message: JsonObject): void {
    const n = this.#next++;
    const text = sseEvent({ id: `${this.id}:${n}`, data: JSON.stringify(message) });
    this.events.push({ n, text });
    if (this.events.length > this.keep) this.events.shift();
    this.#emit(text);
  }

  /** The stream's last event has been written: end the response. */
  finish(): void {
    this.finished = true;
    this.#detach(true);
  }

  /** A new response body that replays every event after `after`, then goes on. */
  attach(after: number): ReadableStream<Uint8Array> {
    this.#detach(true);
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        // A comment first: the response starts at once, whatever comes later.
        controller.enqueue(encoder.encode(": stream " + this.id + "\n\n"));
        for (const event of this.events) {
          if (event.n > after) controller.enqueue(encoder.encode(event.text));
        }
        if (this.finished) controller.close();
        else this.writer = controller;
      },
      cancel: () => void (this.writer = undefined),
    });
  }

  #emit(text: string): void {
    try {
      this.writer?.enqueue(encoder.encode(text));
    } catch {
      this.writer = undefined; // the client went away: the event waits to be replayed
    }
  }

  #detach(close: boolean): void {
    const writer = this.writer;
    this.writer = undefined;
    if (close) {
      try {
        writer?.close();
      } catch {
        // Already closed by the client.
      }
    }
  }
}

/** A POSTed request waiting for its answer: not yet decided, or streaming. */
interface Exchange {
  decide?: (response: Response) => void;
  stream?: Stream;
}

/** One client's session: a {@linkcode ServerSession} over the POSTs and streams that carry it. */
class HttpSession implements ServerTransport {
  readonly id = crypto.randomUUID();
  readonly done: Promise<void>;
  lastSeen = Date.now();
  readonly #keep: number;
  readonly #streams = new Map<string, Stream>();
  readonly #exchanges = new Map<RequestId, Exchange>();
  readonly #unrelated: Stream;
  readonly #incoming: ReadableStream<unknown>;
  #controller!: ReadableStreamDefaultController<unknown>;
  #session: ServerSession;
  #nextStream = 0;
  #ended = false;

  constructor(spec: SessionSpec, keep: number) {
    this.#keep = keep;
    this.#incoming = new ReadableStream({ start: (c) => void (this.#controller = c) });
    this.#unrelated = new Stream("get", keep);
    this.#streams.set("get", this.#unrelated);
    this.#session = new ServerSession(spec, this);
    this.done = this.#session.done;
  }

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

  /** The GET stream, or a stream resumed from `lastEventId`. */
  listen(lastEventId: string | null): Response {
    let stream = this.#unrelated;
    let after = -1;
    if (lastEventId !== null) {
      const [streamId, n] = lastEventId.split(":");
      const found = this.#streams.get(streamId);
      if (found === undefined || !/^\d+$/.test(n ?? "")) {
        return refusal(400, `No stream to resume after event ${lastEventId}`);
      }
      stream = found;
      after = Number(n);
    } else if (this.#unrelated.writer !== undefined) {
      return refusal(409, "This session's GET stream is open already");
    }
    return new Response(stream.attach(after), { status: 200, headers: SSE_HEADERS });
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
        return decide(new Response(JSON.stringify(message), { status: 200, headers: JSON_TYPE }));
      }
      exchange.stream = this.#openStream();
      decide(new Response(exchange.stream.attach(-1), { status: 200, headers: SSE_HEADERS }));
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
    if (exchange.decide !== undefined) {
      exchange.decide(
        new Response(exchange.stream.attach(-1), { status: 200, headers: SSE_HEADERS }),
      );
    }
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

  #openStream(): Stream {
    const stream = new Stream(`p${this.#nextStream++}`, this.#keep);
    this.#streams.set(stream.id, stream);
    // Keep the latest streams only: older finished ones can no longer be resumed.
    for (const [id, old] of this.#streams) {
      if (this.#streams.size <= 64) break;
      if (old.finished && id !== "get") this.#streams.delete(id);
    }
    return stream;
  }
}

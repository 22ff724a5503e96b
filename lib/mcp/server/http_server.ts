/**
 * A Streamable HTTP endpoint on `Deno.serve`, for both eras of MCP: bound to
 * 127.0.0.1 unless told otherwise, `Origin` and `Host` checked against DNS
 * rebinding, a bound on every body, and each POSTed request answered with
 * one JSON body or, when its handling sends anything before the reply, an
 * event stream. A modern (2026-07-28) request is served on its own, with no
 * session: its headers checked against its body first (`header_check.ts`),
 * then its `_meta` (`http_exchange.ts`). The legacy era's sessions (2025-03-26
 * to 2025-11-25) as before: a session id issued at a successful `initialize`
 * and required after it (404 for one it does not hold), the GET stream for
 * what the server sends unasked, streams resumable from their last event,
 * DELETE to end a session. A server that speaks no legacy version has no
 * sessions: it ignores a session id, and answers GET and DELETE 405
 * (`http_eras.ts`).
 *
 * @module
 */

import { readBounded } from "../shared/bounded_body.ts";
import { isObject, type RequestId } from "../shared/jsonrpc.ts";
import { isModernRequest } from "../shared/meta.ts";
import { MODERN_ERRORS } from "../shared/modern_errors.ts";
import { MCP_VERSIONS } from "../shared/versions.ts";
import { ERROR_CODES } from "./dispatch.ts";
import { headerMismatch } from "./header_check.ts";
import {
  noSessions,
  sessionlessMessage,
  sessionVersionRefusal,
  sessionVersions,
} from "./http_eras.ts";
import { exchangeModern } from "./http_exchange.ts";
import { refusal } from "./http_replies.ts";
import { messageKind } from "./message_kind.ts";
import { HttpSession } from "./http_session.ts";
import { OriginCheck } from "./origin_check.ts";
import { RequestStateSeal } from "./request_state.ts";
import type { EventWatcher } from "./resumable_stream.ts";
import type { SessionSpec } from "./session_spec.ts";

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
  /**
   * The most sessions open at once, and the most modern requests in flight
   * at once (a subscription stays in flight); past it, `initialize` or the
   * modern request is answered 503. @default {1000}
   */
  maxSessions?: number;
  /** How long a session may go unused before it expires. @default {1800000} (30 minutes) */
  sessionTtlMs?: number;
  /** How often a modern request's event stream carries a comment, kept alive (see `keepAlive`); 0: never. @default {15000} */
  keepAliveMs?: number;
  /** How many events of each stream are kept, to resume it after a drop. @default {64} */
  replayEvents?: number;
  /**
   * Whether a session offers the GET stream for what the server sends
   * unasked; without it, a GET is answered 405, as the transport allows.
   * @default {true}
   */
  getStream?: boolean;
  /**
   * Told of each event a legacy session's stream writes, with the id a
   * client resumes after (a lesson's own record of what the server sent).
   * @default {undefined}
   */
  onEvent?: EventWatcher;
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
  let modernInFlight = 0;
  const seal = new RequestStateSeal({ key: spec.requestStateKey });
  // The versions a session may agree on: none for a server of modern versions alone (http_eras.ts).
  const versions = spec.versions ?? MCP_VERSIONS;
  const legacy = sessionVersions(versions);
  const versionRefusal = (request: Request) =>
    sessionVersionRefusal(request.headers.get("mcp-protocol-version"), legacy);
  const stopping = new AbortController();
  const schemaOf = (name: string) =>
    [...spec.tools ?? [], ...spec.sessionTools ?? []].find((tool) => tool.name === name)
      ?.inputSchema;

  const handle = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url); // the URL's own path, not a file's
    if (pathname !== path) return refusal(404, `No MCP endpoint at ${pathname}`);
    const refused = check.refusal(request);
    if (refused !== undefined) return refused;
    expire(sessions, ttl);
    if (request.method === "POST") return await post(request);
    if (legacy.length === 0 && (request.method === "GET" || request.method === "DELETE")) {
      return noSessions(request.method, versions);
    }
    if (request.method === "GET" && options.getStream === false) {
      return refusal(405, "This server offers no GET stream", {
        headers: { allow: "POST, DELETE" },
      });
    }
    if (request.method === "GET") return get(request);
    if (request.method === "DELETE") {
      const found = sessionOf(request);
      if (found instanceof Response) return found;
      const badVersion = versionRefusal(request);
      if (badVersion !== undefined) return badVersion;
      found.end();
      sessions.delete(found.id);
      return new Response(null, { status: 200 });
    }
    return refusal(405, `${request.method} is not allowed here`, {
      headers: { allow: "GET, POST, DELETE" },
    });
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
        return refusal(400, "Parse error: the body is not JSON", { code: ERROR_CODES.parseError });
      }
      return refusal(413, `The body is over the ${maxBody}-byte bound`);
    }
    if (!isObject(message)) {
      return refusal(400, "Invalid request: one JSON-RPC message per POST, and no batch", {
        code: ERROR_CODES.invalidRequest,
      });
    }
    const kind = messageKind(message);
    if (kind === undefined) {
      return refusal(400, "Invalid request: not a JSON-RPC 2.0 request, notification or response", {
        code: ERROR_CODES.invalidRequest,
      });
    }
    // A modern request declares its version in _meta, or discovers; one with neither a session
    // nor an initialize is taken for one too, and refused for what it lacks. A server without
    // sessions ignores a session id ("ignore it, and do not mint or echo session IDs").
    const sessionNamed = legacy.length > 0 && request.headers.has("mcp-session-id");
    const modern = kind === "request" &&
      (isModernRequest(message.method, message.params) ||
        (!sessionNamed && message.method !== "initialize"));
    if (modern) {
      const mismatch = headerMismatch(request, message, schemaOf);
      if (mismatch !== undefined) {
        return Response.json({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: MODERN_ERRORS.headerMismatch, message: mismatch },
        }, { status: 400 });
      }
      if (modernInFlight >= maxSessions) {
        return refusal(503, `All ${maxSessions} requests are in flight`);
      }
      modernInFlight++;
      return await exchangeModern(spec, message.id as RequestId, message, {
        seal,
        signal: stopping.signal,
        disconnected: request.signal,
        done: () => void modernInFlight--,
        keepAliveMs: options.keepAliveMs,
      });
    }
    if (kind === "request" && message.method === "initialize") {
      if (sessionNamed) {
        return refusal(400, "initialize starts a session: it must carry no Mcp-Session-Id");
      }
      if (sessions.size >= maxSessions) {
        return refusal(503, `All ${maxSessions} sessions are in use`);
      }
      const session = new HttpSession(spec, replay, { seal, onEvent: options.onEvent });
      sessions.set(session.id, session);
      session.done.finally(() => sessions.delete(session.id));
      const response = await session.exchange(message.id as RequestId, message);
      if (session.initialized) {
        response.headers.set("mcp-session-id", session.id);
        return response;
      }
      // A refused initialize opens no session: no id is issued, and nothing is served in one. Its
      // refusal is a 400, as the compatibility matrix has a modern server reject a legacy
      // client's request (basic/versioning.mdx), with the refusal's body.
      session.end();
      sessions.delete(session.id);
      return new Response(response.body, { status: 400, headers: response.headers });
    }
    // A notification or response in no session, to a server of modern versions too (one of
    // legacy versions alone requires its session, below).
    if (kind !== "request" && !sessionNamed && legacy.length < versions.length) {
      return sessionlessMessage(kind);
    }
    const found = sessionOf(request);
    if (found instanceof Response) return found;
    const badVersion = versionRefusal(request);
    if (badVersion !== undefined) return badVersion;
    if (kind !== "request") {
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
    return versionRefusal(request) ?? found.listen(request.headers.get("last-event-id"));
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
  // Made once the port is known, before any request is handled.
  const check = new OriginCheck(hostname, port, options.allowedOrigins);
  const sweep = setInterval(() => expire(sessions, ttl), Math.min(ttl, 60_000));
  Deno.unrefTimer(sweep);
  let closing: Promise<void> | undefined;
  const close = () =>
    closing ??= (async () => {
      clearInterval(sweep);
      stopping.abort();
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

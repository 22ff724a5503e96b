/**
 * An MCP endpoint as a client's requests reach it over Streamable HTTP. A
 * legacy session: the session id the server issues in its response to
 * `initialize` (visible ASCII only, as the transport requires), and the
 * protocol version agreed in its reply, carried on every request after; the
 * session's end, whether the server ends it (a 404 for it: the next
 * `initialize` starts a new one) or the client does (DELETE). A modern
 * request (2026-07-28) carries no session, and its headers are derived from
 * its body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, as the
 * transport requires: see `mcp_headers.ts`). Either way, a bearer token got
 * after a 401; no redirect followed; the bytes sent whose response has not
 * begun, counted.
 *
 * @module
 */

import { ProtocolError } from "../shared/errors.ts";
import { isObject, type JsonRpcRequest, type RequestId } from "../shared/jsonrpc.ts";
import { isMcpVersion, versionFeatures } from "../shared/versions.ts";
import { standardHeaders } from "../shared/mcp_headers.ts";
import { declaredVersion } from "../shared/meta.ts";
import { statusLine } from "./_http_text.ts";
import { bearerChallenge } from "./oauth_challenge.ts";

/**
 * How a client gets a bearer token after a server refused it with 401, or a
 * wider one after a 403 `insufficient_scope` (see `oauth.ts`).
 */
export interface Authorization {
  /** A token for `resource`, after the server answered `challenge` (a 401 or 403 response). */
  token(challenge: Response, resource: URL): Promise<string>;
}

/** Options for {@linkcode HttpEndpoint}. */
export interface HttpEndpointOptions {
  /** Headers added to every request (never the session's or the protocol version's). @default {{}} */
  headers?: Record<string, string>;
  /** Gets a bearer token when the server answers 401. @default {undefined} (a 401 is the answer) */
  authorization?: Authorization;
  /** Aborts every request but the DELETE, when the client is done. @default {undefined} (never) */
  signal?: AbortSignal;
  /**
   * Told when the server ends a session (it answers 404 to a request that
   * carried its id), with that id and the error that says so. @default {undefined}
   */
  onSessionLost?: (sessionId: string, error: ProtocolError) => void;
}

/** Options for one {@linkcode HttpEndpoint.post}. */
export interface PostOptions {
  /** Aborts this POST alone. @default {undefined} (only the endpoint's signal) */
  signal?: AbortSignal;
  /** Headers this POST carries besides the standard ones (`Mcp-Param-*`). @default {{}} */
  headers?: Record<string, string>;
}

/** A session id as the transport allows it: one or more visible ASCII characters (0x21 to 0x7E). */
const SESSION_ID = /^[\x21-\x7E]+$/;

/** The media types a client takes in reply to a POST, as the transport asks. */
const ACCEPT_POST = "application/json, text/event-stream";

const encoder = new TextEncoder();

/**
 * The MCP endpoint at `url`, as one client's session sees it.
 *
 * @example The session id issued at the handshake is carried on the next request
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const seen: (string | null)[] = [];
 * await using server = Deno.serve({ port: 0, onListen() {} }, (request) => {
 *   seen.push(request.headers.get("mcp-session-id"));
 *   return new Response(null, { status: 202, headers: { "mcp-session-id": "s-1" } });
 * });
 * const endpoint = new HttpEndpoint(`http://127.0.0.1:${server.addr.port}/mcp`);
 * const initialize = { jsonrpc: "2.0" as const, id: 1, method: "initialize" };
 * await (await endpoint.post(JSON.stringify(initialize), { request: initialize })).body?.cancel();
 * assert.equal(endpoint.sessionId, "s-1");
 * await (await endpoint.post('{"jsonrpc":"2.0","method":"notifications/initialized"}')).body?.cancel();
 * assert.deepEqual(seen, [null, "s-1"]);
 * assert.throws(() => new HttpEndpoint("file:///etc/passwd"), TypeError);
 * ```
 */
export class HttpEndpoint {
  /** The endpoint's URL. */
  readonly url: URL;
  readonly #headers: Record<string, string>;
  readonly #authorization?: Authorization;
  readonly #signal?: AbortSignal;
  readonly #onSessionLost?: (sessionId: string, error: ProtocolError) => void;
  #sessionId?: string;
  #sessionEnded = false;
  #protocolVersion?: string;
  #initializeId?: RequestId;
  #token?: string;
  #unread = 0;

  /** The endpoint at `url`, an http: or https: URL (a `TypeError` for any other). */
  constructor(url: URL | string, options: HttpEndpointOptions = {}) {
    this.url = new URL(url);
    if (this.url.protocol !== "http:" && this.url.protocol !== "https:") {
      throw new TypeError(`Streamable HTTP needs an http: or https: URL, not ${this.url.href}`);
    }
    this.#headers = options.headers ?? {};
    this.#authorization = options.authorization;
    this.#signal = options.signal;
    this.#onSessionLost = options.onSessionLost;
  }

  /** The session id the server issued at the handshake, if it issued one. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** Bytes POSTed whose response has not begun. */
  get unread(): number {
    return this.#unread;
  }

  /**
   * Whether the server has ended the session (a 404 for it) and no new one
   * has begun: only `initialize`, which starts one, may be sent.
   */
  get sessionEnded(): boolean {
    return this.#sessionEnded;
  }

  /**
   * POST `line`, the JSON of a message: of `request`, when it is a request.
   * A 401 is answered once with a token from the `authorization` option
   * (again when a token taken before is refused: the server may have moved
   * to another authorization server), and a 403 `insufficient_scope` once
   * with a token for the wider scope; the
   * session id in the response to `initialize` is the session's, and one that
   * is not visible ASCII is refused with `ProtocolError`. Rejects with
   * `ProtocolError` when the server has ended the session (404: see
   * {@linkcode HttpEndpoint.sessionEnded}), or redirects.
   */
  async post(
    line: string,
    options: PostOptions & { request?: JsonRpcRequest } = {},
  ): Promise<Response> {
    const { request, signal } = options;
    if (request?.method === "initialize") this.#initializeId = request.id;
    const body = encoder.encode(line);
    const modern = request !== undefined && typeof declaredVersion(request.params) === "string";
    const headers = {
      "content-type": "application/json",
      ...(modern ? standardHeaders(request.method, request.params) : {}),
      ...options.headers,
    };
    let response = await this.#fetch("POST", body, headers, signal);
    // At most one authorization for a 401 and one for a 403, for each POST.
    const tried = new Set<number>();
    while (this.#authorization !== undefined && !tried.has(response.status)) {
      const status = response.status;
      if (
        status !== 401 &&
        !(status === 403 && bearerChallenge(response).error === "insufficient_scope")
      ) {
        break;
      }
      tried.add(status);
      this.#token = await this.#authorization.token(response, this.url);
      await response.body?.cancel().catch(() => {});
      response = await this.#fetch("POST", body, headers, signal);
    }
    const session = response.headers.get("mcp-session-id");
    if (request !== undefined && request.id === this.#initializeId && response.ok) {
      if (session !== null && !SESSION_ID.test(session)) {
        await response.body?.cancel();
        throw new ProtocolError(
          `The server's session id ${JSON.stringify(session)} is not visible ASCII ` +
            "(one or more characters from 0x21 to 0x7E), as the transport requires of a session id",
        );
      }
      this.#sessionId = session ?? undefined;
      this.#sessionEnded = false;
    }
    return response;
  }

  /** GET an event stream: the session's own, or the one to resume after `lastEventId`. */
  get(lastEventId?: string, options: PostOptions = {}): Promise<Response> {
    return this.#fetch("GET", undefined, {
      accept: "text/event-stream",
      ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }),
    }, options.signal);
  }

  /**
   * DELETE the session, if the server issued one, waiting at most `graceMs`:
   * its HTTP status, or `undefined` when none was sent or answered in time.
   */
  async delete(graceMs: number): Promise<number | undefined> {
    if (this.#sessionId === undefined) return undefined;
    try {
      const response = await fetch(this.url, {
        method: "DELETE",
        headers: this.#requestHeaders({}),
        redirect: "manual",
        signal: AbortSignal.timeout(graceMs),
      });
      await response.body?.cancel();
      return response.status;
    } catch {
      return undefined; // no answer in time: the session ends with the server's own timeout
    }
  }

  /**
   * Whether `frame` is the reply to the request `id`; from the reply to
   * `initialize`, the protocol version every later request carries. A frame
   * that is not JSON is the connection's to refuse, not the endpoint's.
   */
  isReplyTo(id: RequestId | undefined, frame: Uint8Array): boolean {
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

  async #fetch(
    method: "POST" | "GET",
    body: Uint8Array<ArrayBuffer> | undefined,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<Response> {
    const bytes = body?.length ?? 0;
    const session = this.#sessionId;
    const signals = [this.#signal, signal].filter((s) => s !== undefined);
    this.#unread += bytes;
    try {
      const response = await fetch(this.url, {
        method,
        headers: this.#requestHeaders(
          method === "POST" ? { accept: ACCEPT_POST, ...headers } : headers,
        ),
        body,
        redirect: "manual",
        signal: signals.length === 0 ? undefined : AbortSignal.any(signals),
      });
      if (response.status === 404 && session !== undefined) {
        await response.body?.cancel();
        throw this.#lose(session);
      }
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        throw new ProtocolError(
          `${method} was redirected (${statusLine(response)}) to ${
            response.headers.get("location") ?? "nowhere"
          }: a client follows no redirect from an MCP endpoint`,
        );
      }
      return response;
    } finally {
      this.#unread -= bytes;
    }
  }

  /**
   * The server answered 404 to a request in `session`: it has ended it. The
   * next `initialize` starts a new session, sent without an id.
   */
  #lose(session: string): ProtocolError {
    const error = new ProtocolError(
      `The server at ${this.url.href} has ended session ${session} (404 Not Found): ` +
        "what was in flight in it is lost, and the next request starts a new session",
    );
    if (this.#sessionId === session) {
      this.#sessionId = undefined;
      this.#protocolVersion = undefined;
      this.#sessionEnded = true;
      this.#onSessionLost?.(session, error);
    }
    return error;
  }

  #requestHeaders(headers: Record<string, string>): Headers {
    const all = new Headers(this.#headers);
    if (this.#sessionId !== undefined) all.set("mcp-session-id", this.#sessionId);
    // The header came with 2025-06-18: an older version agreed is not sent it.
    const version = this.#protocolVersion;
    if (isMcpVersion(version) && versionFeatures(version).protocolVersionHeader) {
      all.set("mcp-protocol-version", version);
    }
    // A modern request's own headers (its version among them) come from its body.
    for (const [name, value] of Object.entries(headers)) all.set(name, value);
    if (this.#token !== undefined) all.set("authorization", `Bearer ${this.#token}`);
    return all;
  }
}

/**
 * One modern (2026-07-28) request over Streamable HTTP, served on its own:
 * no session, nothing kept after it ("Servers MUST NOT rely on prior
 * requests"). Its reply is one JSON body when it is the first thing its
 * handling sends, with the HTTP status its error calls for (404 for a method
 * not found, 400 for a malformed request, an unsupported version, a missing
 * capability or a header mismatch); otherwise an event stream of what its
 * handling sends, ending with the reply, with no event ids ("Resumable SSE
 * streams via `Last-Event-ID` are not supported"). A client that closes the
 * stream cancels the request ("Closing the SSE response stream MUST be
 * treated by the server as cancellation of that request"), and so does a
 * client that goes away before its response has begun ("The server MUST
 * treat a client disconnect as cancellation of that request"). A stream
 * carries a comment every `keepAliveMs` while it is open, so that a quiet
 * one (a subscription's, above all) is not closed by an intermediary's idle
 * timeout ("servers are encouraged to periodically emit an SSE comment line
 * … as a keep-alive").
 *
 * @module
 */

import type { JsonObject, RequestId } from "../shared/jsonrpc.ts";
import { MODERN_ERRORS } from "../shared/modern_errors.ts";
import { sseEvent } from "../shared/sse.ts";
import { keepAlive } from "./keep_alive.ts";
import { ERROR_CODES } from "./replies.ts";
import type { RequestStateSeal } from "./request_state.ts";
import type { ServerTransport } from "./server_transport.ts";
import { ServerSession } from "./session.ts";
import type { SessionSpec } from "./session_spec.ts";

const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
};
const encoder = new TextEncoder();

/**
 * The HTTP status of a reply that is a JSON-RPC error with `code`, as the
 * transport names them: 404 for a method not found, 400 for what the
 * request got wrong, 200 otherwise (the reply says what failed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(errorStatus(-32601), 404);
 * assert.equal(errorStatus(-32022), 400);
 * assert.equal(errorStatus(-32603), 200);
 * ```
 */
export function errorStatus(code: unknown): number {
  switch (code) {
    case ERROR_CODES.methodNotFound:
      return 404;
    case ERROR_CODES.parseError:
    case ERROR_CODES.invalidRequest:
    case ERROR_CODES.invalidParams:
    case MODERN_ERRORS.headerMismatch:
    case MODERN_ERRORS.missingRequiredClientCapability:
    case MODERN_ERRORS.unsupportedProtocolVersion:
      return 400;
  }
  return 200;
}

/**
 * Serve the modern request `message` (whose id is `id`) of `spec`, and
 * resolve with its response. Requests of one server share `options.seal`;
 * when `options.signal` aborts (the server is closing), the request ends;
 * when `options.disconnected` aborts before the response has begun (the
 * client went away: a `Request`'s own `signal`), it is cancelled;
 * `options.done` is called once its handling is over. An event stream
 * carries a comment every `options.keepAliveMs` (see `keepAlive`).
 *
 * @example A method the server does not have is answered 404
 * ```ts
 * import assert from "node:assert/strict";
 * import { RequestStateSeal } from "./request_state.ts";
 *
 * const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
 * const spec = { name: "s", version: "1", tools: [] };
 * const response = await exchangeModern(spec, 1, { jsonrpc: "2.0", id: 1, method: "ping", params: { _meta } }, { seal: new RequestStateSeal() });
 * assert.equal(response.status, 404);
 * assert.equal((await response.json()).error.code, -32601);
 * ```
 */
export function exchangeModern(
  spec: SessionSpec,
  id: RequestId,
  message: JsonObject,
  options: {
    seal: RequestStateSeal;
    signal?: AbortSignal;
    disconnected?: AbortSignal;
    done?: () => void;
    keepAliveMs?: number;
  },
): Promise<Response> {
  const { promise, resolve } = Promise.withResolvers<Response>();
  let decide: ((response: Response) => void) | undefined = resolve;
  let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  let input!: ReadableStreamDefaultController<unknown>;
  let quiet = () => {};
  const incoming = new ReadableStream<unknown>({ start: (c) => void (input = c) });
  const finish = () => {
    quiet();
    try {
      stream?.close();
    } catch {
      // The client closed it first.
    }
    try {
      input.close();
    } catch {
      // Closed already.
    }
  };
  /** The client went away: the request is cancelled. */
  const cancel = () => {
    try {
      input.enqueue({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: id },
      });
      input.close();
    } catch {
      // The request was done already.
    }
  };
  const openStream = () =>
    new ReadableStream<Uint8Array>({
      start: (controller) => {
        stream = controller;
        quiet = keepAlive(controller, options.keepAliveMs);
      },
      cancel: () => {
        // The client closed the stream.
        quiet();
        stream = undefined;
        cancel();
      },
    });
  const transport: ServerTransport = {
    era: "modern",
    incoming,
    send(reply: JsonObject, relatedTo?: RequestId) {
      if (relatedTo !== id) return; // nothing unrelated goes on a request's own stream
      const final = !("method" in reply) && reply.id === id;
      if (decide !== undefined) {
        const answer = decide;
        decide = undefined;
        if (final) {
          const code = (reply.error as { code?: unknown } | undefined)?.code;
          const status = "error" in reply ? errorStatus(code) : 200;
          answer(Response.json(reply, { status }));
          return finish();
        }
        answer(new Response(openStream(), { status: 200, headers: SSE_HEADERS }));
      }
      try {
        stream?.enqueue(encoder.encode(sseEvent({ data: JSON.stringify(reply) })));
      } catch {
        stream = undefined; // the client went away
      }
      if (final) finish();
    },
    abandon(abandoned: RequestId) {
      if (abandoned !== id) return;
      decide?.(new Response(null, { status: 202 }));
      decide = undefined;
      finish();
    },
  };
  const session = new ServerSession(spec, transport, { seal: options.seal });
  // The server is closing: a subscription ends with its result, anything else is stopped.
  const closing = () => session.end();
  options.signal?.addEventListener("abort", closing, { once: true });
  // Gone before its response began (once it has, the stream's own cancel tells).
  options.disconnected?.addEventListener("abort", () => {
    if (decide !== undefined) cancel();
  }, { once: true });
  input.enqueue(message);
  void session.done.then(() => {
    // Done: the server's signal, which outlives it, holds it no longer.
    options.signal?.removeEventListener("abort", closing);
    // A request that ended with nothing sent (a cancelled one) still gets a response.
    decide?.(new Response(null, { status: 202 }));
    finish();
    options.done?.();
  });
  return promise;
}

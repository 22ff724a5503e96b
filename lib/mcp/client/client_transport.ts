/**
 * How a client reaches its server, whatever carries the messages: a child
 * process's stdio (`stdio_transport.ts`) or Streamable HTTP
 * (`http_transport.ts`). A `Connection` runs JSON-RPC over either, and never
 * knows which: it sends each message as one line of JSON, and reads what
 * comes back as the bytes of one message each.
 *
 * @module
 */

import type { ProtocolError } from "../shared/errors.ts";
import type { JsonRpcMessage, RequestId } from "../shared/jsonrpc.ts";

/**
 * A request the transport knows will get no reply, and why: an HTTP POST
 * that failed, or a stream that ended before its reply and could not be
 * resumed. Nothing crossed the wire that says so: it is not dressed up as a
 * JSON-RPC error. A modern (2026-07-28) request whose response stream broke
 * is to be re-issued (`reissue`): "A broken response stream loses the
 * in-flight request; clients MUST re-issue it as a new request with a new
 * request ID".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ProtocolError } from "../shared/errors.ts";
 *
 * const lost = new Unanswered(3, new ProtocolError("POST answered 500 Internal Server Error"));
 * assert.equal(lost.id, 3);
 * assert.equal(lost.reissue, false);
 * ```
 */
export class Unanswered {
  /** `id` will get no reply, for the reason `error` gives; `reissue` when it is to be sent again. */
  constructor(
    readonly id: RequestId,
    readonly error: ProtocolError,
    readonly reissue = false,
  ) {}
}

/** Options for {@linkcode ClientTransport.send}. */
export interface SendOptions {
  /** Headers the message carries besides its body (Streamable HTTP only). @default {{}} */
  headers?: Record<string, string>;
}

/** What a transport delivers: the bytes of one message, or a request that will get no reply. */
export type Incoming = Uint8Array | Unanswered;

/** A way to reach one server, as a `Connection` uses it. */
export interface ClientTransport<Closed = unknown> {
  /**
   * What the server sends, in batches as it arrives, each item the bytes of
   * one message (at most the transport's byte limit) or an
   * {@linkcode Unanswered}. It ends when the client closes the transport, and
   * throws a `ProtocolError` when what arrived cannot be trusted or the server
   * is gone. Read it once.
   */
  readonly incoming: AsyncIterable<readonly Incoming[]>;
  /** Resolves, once the server is gone for whatever reason, with the error that says how. */
  readonly gone: Promise<ProtocolError>;
  /**
   * Whether the server has ended the session (Streamable HTTP's 404), so that
   * a new `initialize` must start another before anything else is sent.
   * @default {undefined} (a transport without sessions)
   */
  readonly sessionEnded?: boolean;
  /** Bytes sent that the server has not taken yet (they wait in this process's memory). */
  readonly unread: number;
  /**
   * Send `message`, whose JSON is `line` (no newline). Resolves once the
   * transport is done with it; rejects with a `ProtocolError` only when
   * nothing more can be sent at all.
   */
  send(message: JsonRpcMessage, line: string, options?: SendOptions): Promise<void>;
  /**
   * Cancel the request `id` the transport's own way, if it has one (a
   * modern Streamable HTTP POST: "Closing the SSE response stream is the
   * cancellation signal"), and say whether it did; otherwise the client
   * sends `notifications/cancelled`. @default {undefined} (no way of its own)
   */
  cancel?(id: RequestId): boolean;
  /** What the transport knows that would explain a failure, for an error message ("" when nothing). */
  context(): string;
  /** End the transport (and the server's side of it); calling it again gives the same result. */
  close(): Promise<Closed>;
}

/**
 * What one client's session with a server runs over, whatever carries it:
 * the server's own stdio (`stdio_server.ts`), or one session of a Streamable
 * HTTP endpoint (`http_session.ts`). A `ServerSession` reads the client's
 * messages from it and sends its own through it, and never knows which.
 *
 * @module
 */

import type { JsonObject, RequestId } from "../shared/jsonrpc.ts";

/** A line from the client that is not JSON: the session owes it a parse error. */
export class Unparsed {
  /** The text that could not be parsed. */
  constructor(readonly text: string) {}
}

/** One client's messages in, the server's out. */
export interface ServerTransport {
  /** The client's messages, each parsed (or {@linkcode Unparsed}); it ends when the client goes. */
  readonly incoming: AsyncIterable<unknown>;
  /**
   * Send `message` to the client. `relatedTo` names the client's request it
   * belongs to: its reply, or what handling that request sends (progress, a
   * log line, a request of the server's own), which HTTP sends on that
   * request's stream. @default {undefined} (unrelated: HTTP's GET stream)
   */
  send(message: JsonObject, relatedTo?: RequestId): void;
  /** The request `id` will get no reply (the client cancelled it). @default {nothing to do} */
  abandon?(id: RequestId): void;
  /**
   * `modern` when every request it carries is of the modern era, whatever
   * its `_meta` says (one Streamable HTTP POST of 2026-07-28: one missing its
   * `_meta` is refused, not served as legacy). @default {undefined} (each
   * request's own `_meta` decides)
   */
  readonly era?: "modern";
}

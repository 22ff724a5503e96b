/**
 * What a `ServerSession` (in `session.ts`) serves, beyond a
 * {@linkcode ServerSpec}: tools and handlers that run with a context of their
 * request (its cancellation, progress, logs, questions to the client), the
 * log levels, and the error a handler reports with its JSON-RPC code.
 *
 * @module
 */

import type { JsonObject } from "../shared/jsonrpc.ts";
import type { LogLevel } from "../shared/log_levels.ts";
import type { ChangeFeed } from "./change_feed.ts";
import type { ServerSpec } from "./dispatch.ts";
import type { CacheHints } from "./modern_request.ts";

export { LOG_LEVELS, type LogLevel } from "../shared/log_levels.ts";

/** What a handler may do while it handles one request. */
export interface RequestContext {
  /** Aborted when the client cancels the request, or the session ends. */
  readonly signal: AbortSignal;
  /**
   * What the client said it can do: in its `initialize` (legacy), or in
   * this request's `_meta` (modern).
   */
  readonly clientCapabilities: JsonObject;
  /** Report progress, if the client asked for it (`_meta.progressToken`); otherwise nothing is sent. */
  progress(progress: number, total?: number, message?: string): void;
  /**
   * Send a log notification, if `level` is at or above the level the client
   * set (`logging/setLevel`, legacy), or the level this request asked for
   * (`_meta`, modern: none asked, none sent).
   */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /**
   * Ask the client something (`sampling/createMessage`,
   * `elicitation/create`, `roots/list`). Legacy: a request of the server's
   * own, which rejects with `ProtocolError`. Modern: a question of a multi
   * round-trip request under `key` (see `InputRound.ask`), answered from the
   * client's retry; a handler that asks runs again from the start on each
   * retry, so it asks its questions in the same order every time.
   */
  request(method: string, params: JsonObject, key?: string): Promise<JsonObject>;
}

/**
 * A failure a handler reports as a JSON-RPC error, with its code.
 *
 * @example A handler refuses its params
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const error = new RpcError(-32602, "Invalid params: no city", { missing: ["city"] });
 * assert.equal(error.code, -32602);
 * assert.equal(error.name, "RpcError");
 * ```
 */
export class RpcError extends Error {
  /** `code` is a JSON-RPC error code; `data` goes with it. */
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
    this.name = "RpcError";
  }
}

/** Answers one method's requests: a result, or a thrown {@linkcode RpcError}. */
export type Handler = (
  params: JsonObject,
  context: RequestContext,
) => Promise<JsonObject> | JsonObject;

/** A tool that runs with a {@linkcode RequestContext} and answers with a whole `tools/call` result. */
export interface SessionTool {
  name: string;
  description: string;
  inputSchema: JsonObject;
  /** Answers a call whose arguments already match `inputSchema`. */
  run(args: JsonObject, context: RequestContext): Promise<JsonObject> | JsonObject;
}

/** A server as a session serves it: a {@linkcode ServerSpec}, and what only a session can do. */
export interface SessionSpec extends ServerSpec {
  /** Capabilities added to those `initialize` declares. @default {{}} */
  capabilities?: JsonObject;
  /** Tools that run with a context, listed after `tools`. @default {[]} */
  sessionTools?: readonly SessionTool[];
  /** Handlers of other methods, by method name. @default {{}} */
  handlers?: Readonly<Record<string, Handler>>;
  /** The most requests handled at once; more are refused. @default {64} */
  maxInFlight?: number;
  /** How long a request of the server's own waits for the client's reply. @default {30000} */
  requestTimeoutMs?: number;
  /** What a modern client is told of the server in `server/discover`. @default {undefined} */
  instructions?: string;
  /** What changes on the server, for `subscriptions/listen`. @default {undefined} (nothing is told) */
  changes?: ChangeFeed;
  /**
   * The caching hints of the results that carry them (2026-07-28).
   * @default {{ ttlMs: 0, cacheScope: "private" }} (stale at once, cached per authorization only)
   */
  cache?: CacheHints;
  /**
   * The key that seals `requestState` (at least 32 bytes), for servers whose
   * requests a client may retry on another process. @default {a random key for each server}
   */
  requestStateKey?: Uint8Array<ArrayBuffer>;
}

/**
 * The context a handler runs with, for one request: its cancellation, the
 * client's capabilities, progress (only when the client gave a progress
 * token), log messages (at or above the level the client set, and none when
 * it set none), and the questions it may ask the client.
 *
 * @module
 */

import { isObject, isRequestId, type JsonObject } from "../shared/jsonrpc.ts";
import { LOG_LEVELS, type LogLevel } from "../shared/log_levels.ts";
import type { RequestContext } from "./session_spec.ts";

/** What {@linkcode requestContext} builds a context from. */
export interface ContextParts {
  /** Aborted when the request is cancelled or the session ends. */
  signal: AbortSignal;
  /** What the client can do. */
  clientCapabilities: JsonObject;
  /** The lowest level a log message is sent at; `undefined`: none is sent. */
  logLevel: LogLevel | undefined;
  /** Sends a notification that belongs to the request. */
  send: (message: JsonObject) => void;
  /** Asks the client something. */
  ask: (method: string, params: JsonObject, key?: string) => Promise<JsonObject>;
}

/**
 * The context of a request with `params`: progress sent when the
 * client gave a progress token (and the request is not cancelled), log
 * messages at or above `logLevel`, questions through `ask`.
 *
 * @example No progress without a token; no log below the level
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const sent: Record<string, unknown>[] = [];
 * const parts = {
 *   signal: new AbortController().signal, clientCapabilities: {}, logLevel: "info" as const,
 *   send: (message: Record<string, unknown>) => void sent.push(message),
 *   ask: () => Promise.reject(new Error("no questions")),
 * };
 * const context = requestContext({}, parts);
 * context.progress(1);
 * context.log("debug", "hidden");
 * context.log("error", "shown");
 * assert.deepEqual(sent.map((m) => m.method), ["notifications/message"]);
 * ```
 */
export function requestContext(params: JsonObject, parts: ContextParts): RequestContext {
  const { signal, send, logLevel } = parts;
  const meta = isObject(params._meta) ? params._meta : {};
  const token = isRequestId(meta.progressToken) ? meta.progressToken : undefined;
  return {
    signal,
    clientCapabilities: parts.clientCapabilities,
    progress: (progress, total, message) => {
      if (token === undefined || signal.aborted) return;
      send({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: {
          progressToken: token,
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        },
      });
    },
    log: (level, data, logger) => {
      if (logLevel === undefined || LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(logLevel)) {
        return;
      }
      send({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level, data, ...(logger === undefined ? {} : { logger }) },
      });
    },
    request: parts.ask,
  };
}

/**
 * What a server tells its client about a request while it works on it:
 * progress (`notifications/progress`, for the token the client gave) and
 * log messages (`notifications/message`), each read and checked before a
 * caller's callback sees it; one not well formed is dropped.
 *
 * @module
 */

import { isObject, type JsonRpcNotification, type RequestId } from "../shared/jsonrpc.ts";
import { isLogLevel, type LogLevel } from "../shared/log_levels.ts";

/** How far a request has come, as its server says. */
export interface Progress {
  /** How much is done; it grows with each notification. */
  progress: number;
  /** How much there is to do, if the server knows. */
  total?: number;
  /** What the server is doing, in words. */
  message?: string;
}

/** A log message from the server. */
export interface LogMessage {
  /** Its severity. */
  level: LogLevel;
  /** What it says (any JSON value). */
  data: unknown;
  /** Which part of the server wrote it, if it says. */
  logger?: string;
}

/**
 * The progress `message` reports for the token `token`, or `undefined` when
 * it is not a well-formed progress notification for it: a `progress` or a
 * `total` that is no finite number is none (`1e400` in JSON reads as
 * `Infinity`, which no server sent).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const message = { jsonrpc: "2.0" as const, method: "notifications/progress", params: { progressToken: "p1", progress: 2, total: 4 } };
 * assert.deepEqual(progressOf(message, "p1"), { progress: 2, total: 4 });
 * assert.equal(progressOf(message, "p2"), undefined);
 * const endless = { ...message, params: { progressToken: "p1", progress: 2, total: Infinity } };
 * assert.equal(progressOf(endless, "p1"), undefined);
 * ```
 */
export function progressOf(message: JsonRpcNotification, token: RequestId): Progress | undefined {
  const params = message.params;
  if (message.method !== "notifications/progress" || !isObject(params)) return undefined;
  const finite = (value: unknown): value is number => Number.isFinite(value);
  if (params.progressToken !== token || !finite(params.progress)) return undefined;
  if (params.total !== undefined && !finite(params.total)) return undefined;
  if (params.message !== undefined && typeof params.message !== "string") return undefined;
  return {
    progress: params.progress,
    ...(params.total === undefined ? {} : { total: params.total }),
    ...(params.message === undefined ? {} : { message: params.message }),
  };
}

/**
 * The log message `message` carries, or `undefined` when it is not a
 * well-formed `notifications/message`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const message = { jsonrpc: "2.0" as const, method: "notifications/message", params: { level: "info", data: "started" } };
 * assert.deepEqual(logMessageOf(message), { level: "info", data: "started" });
 * assert.equal(logMessageOf({ ...message, params: { level: "loud", data: 1 } }), undefined);
 * ```
 */
export function logMessageOf(message: JsonRpcNotification): LogMessage | undefined {
  const params = message.params;
  if (message.method !== "notifications/message" || !isObject(params)) return undefined;
  if (!isLogLevel(params.level) || !("data" in params)) return undefined;
  if (params.logger !== undefined && typeof params.logger !== "string") return undefined;
  return {
    level: params.level,
    data: params.data,
    ...(params.logger === undefined ? {} : { logger: params.logger }),
  };
}

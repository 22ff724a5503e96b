/**
 * MCP's log levels (RFC 5424's syslog severities), which a client names to
 * hear a server's log messages: per request in `_meta` from 2026-07-28,
 * with `logging/setLevel` before.
 *
 * @module
 */

/** The log levels of MCP, least severe first. */
export const LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;

/** One of {@linkcode LOG_LEVELS}. */
export type LogLevel = typeof LOG_LEVELS[number];

/**
 * Whether `level` is one of {@linkcode LOG_LEVELS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(isLogLevel("warning"), true);
 * assert.equal(isLogLevel("warn"), false);
 * ```
 */
export function isLogLevel(level: unknown): level is LogLevel {
  return (LOG_LEVELS as readonly unknown[]).includes(level);
}

/**
 * A modern (2026-07-28) request as a server takes it: what its `_meta`
 * declares, checked before anything else ("A request missing any required
 * field is malformed; the server MUST reject it with JSON-RPC error code
 * -32602"; a version the server does not speak is answered with an
 * `UnsupportedProtocolVersionError` "listing the versions it does support"),
 * and its result as the version has it: `resultType`, the server's name in
 * `_meta`, and caching hints on the results that carry them.
 *
 * @module
 */

import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { isLogLevel, type LogLevel } from "../shared/log_levels.ts";
import { META } from "../shared/meta.ts";
import { MODERN_ERRORS } from "../shared/modern_errors.ts";
import { ERROR_CODES } from "./replies.ts";
import { RpcError } from "./session_spec.ts";

/** What a modern request declared, checked. */
export interface ModernRequest {
  /** The protocol version it speaks (one the server speaks). */
  version: string;
  /** What the client can do, for this request only. */
  capabilities: JsonObject;
  /** The lowest log level it wants, if it wants any. */
  logLevel?: LogLevel;
}

/** How long, and for whom, a client may cache a result (`ttlMs`, `cacheScope`). */
export interface CacheHints {
  /** How long the result stays fresh, in milliseconds (at least 0). */
  ttlMs: number;
  /** Who may cache it: any cache (`public`), or one per authorization (`private`). */
  cacheScope: "public" | "private";
}

/** The methods whose complete results carry caching hints ("Servers MUST include caching hints"). */
export const CACHEABLE = new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

/**
 * What `params` of a modern request declare, or the error to answer it with:
 * -32602 for a `_meta` without a string `protocolVersion` or an object
 * `clientCapabilities`, or with a `logLevel` that is not a log level;
 * -32022 for a version not among `modern` (the data lists `all`, every
 * version the server speaks, and echoes the one requested).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
 * assert.deepEqual(modernRequest({ _meta: meta }, ["2026-07-28"], ["2026-07-28"]), { version: "2026-07-28", capabilities: {} });
 * const old = { ...meta, "io.modelcontextprotocol/protocolVersion": "1900-01-01" };
 * assert.equal((modernRequest({ _meta: old }, ["2026-07-28"], ["2026-07-28"]) as { code: number }).code, -32022);
 * const handshake = { ...meta, "io.modelcontextprotocol/protocolVersion": "2025-11-25" };
 * const refused = modernRequest({ _meta: handshake }, ["2026-07-28"], ["2026-07-28", "2025-11-25"]);
 * assert.match((refused as Error).message, /2025-11-25 in _meta: it is spoken through initialize only/);
 * assert.equal((modernRequest({}, ["2026-07-28"], ["2026-07-28"]) as { code: number }).code, -32602);
 * ```
 */
export function modernRequest(
  params: JsonObject,
  modern: readonly string[],
  all: readonly string[],
): ModernRequest | RpcError {
  const invalid = (what: string) =>
    new RpcError(
      ERROR_CODES.invalidParams,
      `Invalid params: a ${modern[0] ?? "modern"} request's _meta must carry ${what}`,
    );
  const meta = params._meta;
  if (!isObject(meta)) return invalid(`${META.protocolVersion} and ${META.clientCapabilities}`);
  const version = meta[META.protocolVersion];
  if (typeof version !== "string") return invalid(`${META.protocolVersion} (a string)`);
  const capabilities = meta[META.clientCapabilities];
  if (!isObject(capabilities)) return invalid(`${META.clientCapabilities} (an object)`);
  if (!modern.includes(version)) {
    // A version of the handshake is spoken, but not in _meta: the words say so, and the data
    // lists every version, as the specification's example does.
    const why = all.includes(version)
      ? `: it is spoken through initialize only; in _meta: ${modern.join(", ") || "none"}`
      : `; supported: ${all.join(", ")}`;
    return new RpcError(
      MODERN_ERRORS.unsupportedProtocolVersion,
      `Unsupported protocol version ${version} in _meta${why}`,
      { supported: [...all], requested: version },
    );
  }
  const logLevel = meta[META.logLevel];
  if (logLevel !== undefined && !isLogLevel(logLevel)) {
    return invalid(`a ${META.logLevel} that is a log level, not ${JSON.stringify(logLevel)}`);
  }
  return { version, capabilities, ...(logLevel === undefined ? {} : { logLevel }) };
}

/**
 * `result`, the complete result of `method`, as 2026-07-28 has it:
 * `resultType: "complete"`, the server's `serverInfo` in `_meta` beside
 * what the result's own `_meta` holds, and, for the results that carry
 * them, `cache`'s hints.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const hints = { ttlMs: 0, cacheScope: "private" as const };
 * assert.deepEqual(completeResult("tools/list", { tools: [] }, { name: "s", version: "1" }, hints), {
 *   tools: [],
 *   resultType: "complete",
 *   _meta: { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } },
 *   ttlMs: 0,
 *   cacheScope: "private",
 * });
 * ```
 */
export function completeResult(
  method: string,
  result: JsonObject,
  serverInfo: JsonObject,
  cache: CacheHints,
): JsonObject {
  const meta = isObject(result._meta) ? result._meta : {};
  return {
    ...result,
    resultType: "complete",
    _meta: { ...meta, [META.serverInfo]: serverInfo },
    ...(CACHEABLE.has(method) ? cache : {}),
  };
}

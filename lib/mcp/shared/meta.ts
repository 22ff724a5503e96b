/**
 * The `_meta` keys MCP reserves for the protocol (`io.modelcontextprotocol/…`),
 * and what a request carries in them from 2026-07-28, when there is no
 * handshake: "Every request declares the protocol version it is using in its
 * `_meta` field", with the client's capabilities ("Required") and, as a
 * SHOULD, its name (`clientInfo`); a result names its server (`serverInfo`).
 *
 * @module
 */

import { isObject, type JsonObject } from "./jsonrpc.ts";

/** The reserved `_meta` keys, by what they hold. */
export const META = {
  /** The protocol version of one request (required on every modern request). */
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  /** The client's name and version (a SHOULD). */
  clientInfo: "io.modelcontextprotocol/clientInfo",
  /** The client's capabilities for one request (required). */
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  /** The lowest log level the server may send for one request. */
  logLevel: "io.modelcontextprotocol/logLevel",
  /** The server's name and version, in a result's `_meta`. */
  serverInfo: "io.modelcontextprotocol/serverInfo",
  /** The `subscriptions/listen` request a notification belongs to. */
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/** What a modern request declares about itself in `_meta`. */
export interface RequestMeta {
  /** The protocol version it speaks. */
  protocolVersion: string;
  /** What the client can do, for this request. */
  clientCapabilities: JsonObject;
  /** Who the client says it is, if it says. */
  clientInfo?: JsonObject;
  /** The lowest log level it wants, if any (none: no log is sent for it). */
  logLevel?: string;
}

/**
 * The `_meta` of a modern request's `params`: `meta`'s fields under their
 * reserved keys, beside what `params._meta` held already (a progress token).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const params = withRequestMeta({ name: "t", _meta: { progressToken: 1 } }, {
 *   protocolVersion: "2026-07-28",
 *   clientCapabilities: {},
 * });
 * assert.deepEqual(params._meta, {
 *   progressToken: 1,
 *   "io.modelcontextprotocol/protocolVersion": "2026-07-28",
 *   "io.modelcontextprotocol/clientCapabilities": {},
 * });
 * ```
 */
export function withRequestMeta(params: JsonObject, meta: RequestMeta): JsonObject {
  const own = isObject(params._meta) ? params._meta : {};
  return {
    ...params,
    _meta: {
      ...own,
      [META.protocolVersion]: meta.protocolVersion,
      ...(meta.clientInfo === undefined ? {} : { [META.clientInfo]: meta.clientInfo }),
      [META.clientCapabilities]: meta.clientCapabilities,
      ...(meta.logLevel === undefined ? {} : { [META.logLevel]: meta.logLevel }),
    },
  };
}

/**
 * The protocol version a request's `params` declare in `_meta`, if they
 * declare one (whatever its type: the server judges it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(declaredVersion({ _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } }), "2026-07-28");
 * assert.equal(declaredVersion({ protocolVersion: "2025-06-18" }), undefined);
 * ```
 */
export function declaredVersion(params: unknown): unknown {
  if (!isObject(params) || !isObject(params._meta)) return undefined;
  return params._meta[META.protocolVersion];
}

/**
 * Whether the request `method` with `params` is of the modern era, as a
 * server that speaks both eras reads it: its `_meta` declares a protocol
 * version, or it is `server/discover`, which only 2026-07-28 defines
 * (`DiscoverRequest`'s `params` and their `_meta` are required): without
 * that `_meta` it is not a request of the handshake's era but a malformed
 * modern one ("A request missing any required field is malformed; the
 * server MUST reject it with JSON-RPC error code -32602").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
 * assert.equal(isModernRequest("tools/list", { _meta }), true);
 * assert.equal(isModernRequest("server/discover", {}), true);
 * assert.equal(isModernRequest("tools/list", {}), false);
 * ```
 */
export function isModernRequest(method: unknown, params: unknown): boolean {
  return method === "server/discover" || declaredVersion(params) !== undefined;
}

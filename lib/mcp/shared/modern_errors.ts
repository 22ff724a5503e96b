/**
 * The JSON-RPC error codes MCP defines from 2026-07-28, in the range it
 * reserves for itself (-32020 to -32099), and the test for "a recognized
 * modern error": what tells a client the server is modern, so that it
 * corrects its request rather than falling back to the handshake.
 *
 * @module
 */

import { isObject } from "./jsonrpc.ts";

/** The error codes of 2026-07-28, by name. */
export const MODERN_ERRORS = {
  /** The HTTP headers do not match the body, or a required one is missing or malformed. */
  headerMismatch: -32020,
  /** Handling the request needs a capability the client did not declare. */
  missingRequiredClientCapability: -32021,
  /** The server does not speak the request's protocol version. */
  unsupportedProtocolVersion: -32022,
} as const;

/**
 * The versions an `UnsupportedProtocolVersionError` says the server
 * supports (`data.supported`, strings only), or `undefined` when `error`
 * is not one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const error = { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested: "1900-01-01" } };
 * assert.deepEqual(supportedVersions(error), ["2026-07-28"]);
 * assert.equal(supportedVersions({ code: -32601, message: "Method not found" }), undefined);
 * ```
 */
export function supportedVersions(error: unknown): string[] | undefined {
  if (!isObject(error) || error.code !== MODERN_ERRORS.unsupportedProtocolVersion) return undefined;
  const supported = isObject(error.data) ? error.data.supported : undefined;
  if (!Array.isArray(supported)) return undefined;
  return supported.filter((version): version is string => typeof version === "string");
}

/**
 * Whether the JSON-RPC error `error` is one a modern server sends: one of
 * {@linkcode MODERN_ERRORS} (an `UnsupportedProtocolVersionError` only with
 * its list of versions).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(isModernError({ code: -32020, message: "Header mismatch" }), true);
 * assert.equal(isModernError({ code: -32022, message: "no list" }), false);
 * assert.equal(isModernError({ code: -32601, message: "Method not found" }), false);
 * ```
 */
export function isModernError(error: unknown): boolean {
  if (!isObject(error)) return false;
  if (error.code === MODERN_ERRORS.unsupportedProtocolVersion) {
    return supportedVersions(error) !== undefined;
  }
  return error.code === MODERN_ERRORS.headerMismatch ||
    error.code === MODERN_ERRORS.missingRequiredClientCapability;
}

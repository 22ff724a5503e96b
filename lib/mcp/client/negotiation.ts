/**
 * How a client that speaks both eras tells which one a server speaks, from
 * its answer to a `server/discover` probe, as the stdio transport says:
 * "The server returns a `DiscoverResult`: the server is modern. Select a
 * mutually supported version from `supportedVersions` and continue. … The
 * server returns a recognized modern JSON-RPC error such as
 * `UnsupportedProtocolVersionError` … Use one of the versions in its
 * advertised `supported` list. Do not fall back to `initialize`. … The
 * server returns any other error, or does not respond within a reasonable
 * timeout: the server is legacy. Fall back to the `initialize` handshake.
 * The fallback MUST NOT be keyed to one specific error code." Over HTTP the
 * probe is the first modern request: "If it fails with HTTP status code
 * `400 Bad Request`, `404 Not Found`, or `405 Method Not Allowed` and the
 * response body is not a recognized modern JSON-RPC error", the server is
 * legacy; another status (a refused authorization, a server's failure) says
 * nothing of its era, and is the connection's error. The version chosen is
 * the newest both speak, whichever era it is of.
 *
 * @module
 */

import { ProtocolError, TimeoutError } from "../shared/errors.ts";
import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { isModernError, supportedVersions } from "../shared/modern_errors.ts";
import { type McpVersion, newestShared, versionFeatures } from "../shared/versions.ts";

/** What a probe's answer says of the server. */
export type ProbeOutcome =
  /** A modern server, at `version`; its `DiscoverResult` when the probe asked at that version. */
  | { era: "modern"; version: McpVersion; discover?: JsonObject }
  /** A legacy server (or a dual-era one whose newest shared version is legacy): the handshake, offering `version`. */
  | { era: "legacy"; version?: McpVersion; why: string }
  /** A server this client cannot speak with: why. */
  | { era: "none"; why: string };

/**
 * What the answer to a `server/discover` probe at version `asked` says,
 * for a client that speaks `mine` (newest first). `answer` is the result,
 * or what the request rejected with. A timeout is a legacy server's silence.
 *
 * @example The three outcomes
 * ```ts
 * import assert from "node:assert/strict";
 * import { ProtocolError } from "../shared/errors.ts";
 * import { MCP_VERSIONS } from "../shared/versions.ts";
 *
 * const discover = { supportedVersions: ["2026-07-28"], capabilities: { tools: {} } };
 * assert.deepEqual(probeOutcome(discover, "2026-07-28", MCP_VERSIONS), { era: "modern", version: "2026-07-28", discover });
 * const unsupported = new ProtocolError("Unsupported protocol version", { code: -32022, data: { supported: ["2025-11-25", "2026-07-28"], requested: "2026-07-28" } });
 * assert.equal(probeOutcome(unsupported, "2027-01-01" as never, MCP_VERSIONS).era, "modern");
 * const legacy = new ProtocolError("Method not found", { code: -32601 });
 * assert.equal(probeOutcome(legacy, "2026-07-28", MCP_VERSIONS).era, "legacy");
 * const forbidden = new ProtocolError("POST server/discover answered 403", { data: { httpStatus: 403 } });
 * assert.throws(() => probeOutcome(forbidden, "2026-07-28", MCP_VERSIONS), /403/);
 * ```
 */
export function probeOutcome(
  answer: unknown,
  asked: McpVersion,
  mine: readonly McpVersion[],
): ProbeOutcome {
  if (answer instanceof TimeoutError) return { era: "legacy", why: "it did not answer in time" };
  if (answer instanceof ProtocolError) {
    const error = { code: answer.code, data: answer.data };
    // Over HTTP only a 400, 404 or 405 without a modern error tells of a legacy server; a refused
    // authorization, a server error or an outage tells of no era at all.
    const status = isObject(answer.data) ? answer.data.httpStatus : undefined;
    if (typeof status === "number" && ![400, 404, 405].includes(status)) throw answer;
    const supported = supportedVersions(error);
    if (supported !== undefined) {
      return chosen(supported, mine, "its UnsupportedProtocolVersionError");
    }
    if (isModernError(error)) {
      return { era: "none", why: `it refused the probe with a modern error: ${answer.message}` };
    }
    return { era: "legacy", why: `it answered server/discover with: ${answer.message}` };
  }
  if (answer instanceof Error) throw answer;
  if (
    !isObject(answer) || !Array.isArray(answer.supportedVersions) || !isObject(answer.capabilities)
  ) {
    return { era: "legacy", why: "its answer to server/discover is not a DiscoverResult" };
  }
  const outcome = chosen(answer.supportedVersions, mine, "its DiscoverResult");
  return outcome.era === "modern" && outcome.version === asked
    ? { ...outcome, discover: answer }
    : outcome;
}

/** The newest of `mine` that `supported` names, and its era; `where` says where the list came from. */
function chosen(
  supported: readonly unknown[],
  mine: readonly McpVersion[],
  where: string,
): ProbeOutcome {
  const version = newestShared(mine, supported);
  if (version === undefined) {
    return {
      era: "none",
      why: `${where} names ${JSON.stringify(supported)}; this client speaks ${mine.join(", ")}`,
    };
  }
  return versionFeatures(version).era === "modern"
    ? { era: "modern", version }
    : { era: "legacy", version, why: `the newest version it shares is ${version}` };
}

/**
 * Lab 04's tour of MCP's legacy versions, on the wire: an `initialize`
 * offering each version of the handshake era to a Streamable HTTP server,
 * what it answered, and what that version changed, from
 * `lib/mcp/shared/versions.ts`. (2026-07-28 has no `initialize`.)
 *
 * @module
 */

import { LEGACY_VERSIONS, type McpVersion, versionFeatures } from "../mcp/shared/versions.ts";

/** One version offered, and what came back. */
export interface VersionStop {
  /** The version the client offered. */
  offered: string;
  /** The version the server's reply to `initialize` named. */
  answered: string;
  /** Whether later requests carry `MCP-Protocol-Version`. */
  header: boolean;
  /** Whether a tool's result may carry `structuredContent`, and tools a `title`. */
  structured: boolean;
  /** Whether the server may ask the user for input (`elicitation/create`). */
  elicitation: boolean;
  /** Whether a POST may carry a JSON-RPC batch (an array of messages). */
  batches: boolean;
}

/**
 * Offer each legacy version the library speaks, oldest first, then one it
 * does not (`2099-01-01`), to the MCP endpoint `url`, and give what each
 * `initialize` was answered with.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serveHttp } from "../mcp/server/http_server.ts";
 *
 * await using server = serveHttp({ name: "empty", version: "1.0.0", tools: [] });
 * const stops = await versionTour(server.url);
 * assert.deepEqual(stops.map((stop) => stop.answered), [
 *   "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2025-11-25",
 * ]);
 * ```
 */
export async function versionTour(url: URL): Promise<VersionStop[]> {
  const stops: VersionStop[] = [];
  for (const offered of [...LEGACY_VERSIONS.toReversed(), "2099-01-01"]) {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: offered,
          capabilities: {},
          clientInfo: { name: "lab-04", version: "1.0.0" },
        },
      }),
    });
    const answered: string = (await response.json()).result.protocolVersion;
    const session = response.headers.get("mcp-session-id");
    if (session !== null) {
      const ended = await fetch(url, { method: "DELETE", headers: { "mcp-session-id": session } });
      await ended.body?.cancel();
    }
    const features = versionFeatures(answered as McpVersion);
    stops.push({
      offered,
      answered,
      header: features.protocolVersionHeader,
      structured: features.structuredContent,
      elicitation: features.elicitation,
      batches: features.batches,
    });
  }
  return stops;
}

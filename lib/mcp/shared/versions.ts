/**
 * The versions of MCP spoken today, and what differs between them, as the
 * specification's changelogs say: 2024-11-05 (the first, over stdio or
 * HTTP with SSE), 2025-03-26 (Streamable HTTP, batches, audio, tool
 * annotations), 2025-06-18 (structured content and output schemas, `title`,
 * elicitation, resource links, the `MCP-Protocol-Version` header, no more
 * batches) and 2025-11-25 (JSON Schema 2020-12 by default, elicitation
 * defaults and enums, SSE polling, 403 for a forbidden `Origin`). A client
 * offers the newest it speaks; a server answers with the client's version
 * when it speaks it, otherwise with its own newest; what either side sends
 * or takes after that follows the version they agreed.
 *
 * @module
 */

/** The versions this library speaks, newest first. */
export const MCP_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

/** One of {@linkcode MCP_VERSIONS}. */
export type McpVersion = typeof MCP_VERSIONS[number];

/** The newest version: the one a client offers. */
export const LATEST_VERSION: McpVersion = MCP_VERSIONS[0];

/** What one version allows, where versions differ. */
export interface VersionFeatures {
  /** The content item types a tool result (or prompt message) may hold. */
  contentTypes: readonly string[];
  /** Tool results may carry `structuredContent`, and tools an `outputSchema`. */
  structuredContent: boolean;
  /** Tools, resources and prompts may carry a `title` beside their `name`. */
  titles: boolean;
  /** A server may ask the client for input (`elicitation/create`). */
  elicitation: boolean;
  /** Over HTTP, every request after the handshake carries `MCP-Protocol-Version`. */
  protocolVersionHeader: boolean;
  /** Messages may be sent in JSON-RPC batches (arrays). */
  batches: boolean;
  /** The transport over HTTP: Streamable HTTP, or the older HTTP with SSE. */
  http: "streamable" | "sse";
  /** A server may end an event stream early and have the client poll it (`retry`, `Last-Event-ID`). */
  ssePolling: boolean;
  /** The status the specification names for a request from a forbidden `Origin`, if it names one. */
  forbiddenOriginStatus?: 403;
  /** The JSON Schema dialect a schema without `$schema` is read in. */
  schemaDialect: "draft-07" | "2020-12";
}

const FEATURES: Readonly<Record<McpVersion, VersionFeatures>> = {
  "2024-11-05": {
    contentTypes: ["text", "image", "resource"],
    structuredContent: false,
    titles: false,
    elicitation: false,
    protocolVersionHeader: false,
    batches: false,
    http: "sse",
    ssePolling: false,
    schemaDialect: "draft-07",
  },
  "2025-03-26": {
    contentTypes: ["text", "image", "audio", "resource"],
    structuredContent: false,
    titles: false,
    elicitation: false,
    protocolVersionHeader: false,
    batches: true,
    http: "streamable",
    ssePolling: false,
    schemaDialect: "draft-07",
  },
  "2025-06-18": {
    contentTypes: ["text", "image", "audio", "resource", "resource_link"],
    structuredContent: true,
    titles: true,
    elicitation: true,
    protocolVersionHeader: true,
    batches: false,
    http: "streamable",
    ssePolling: false,
    schemaDialect: "draft-07",
  },
  "2025-11-25": {
    contentTypes: ["text", "image", "audio", "resource", "resource_link"],
    structuredContent: true,
    titles: true,
    elicitation: true,
    protocolVersionHeader: true,
    batches: false,
    http: "streamable",
    ssePolling: true,
    forbiddenOriginStatus: 403,
    schemaDialect: "2020-12",
  },
};

/**
 * Whether `version` is one this library speaks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(isMcpVersion("2024-11-05"), true);
 * assert.equal(isMcpVersion("2024-10-07"), false);
 * assert.equal(isMcpVersion(20250618), false);
 * ```
 */
export function isMcpVersion(version: unknown): version is McpVersion {
  return (MCP_VERSIONS as readonly unknown[]).includes(version);
}

/**
 * What `version` allows where versions differ.
 *
 * @example Structured content came with 2025-06-18; batches came and went
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(versionFeatures("2025-03-26").structuredContent, false);
 * assert.equal(versionFeatures("2025-06-18").structuredContent, true);
 * assert.deepEqual(MCP_VERSIONS.filter((v) => versionFeatures(v).batches), ["2025-03-26"]);
 * ```
 */
export function versionFeatures(version: McpVersion): VersionFeatures {
  return FEATURES[version];
}

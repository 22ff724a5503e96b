/**
 * The versions of MCP spoken today, their two eras, and what differs between
 * them, as the specification's changelogs say. The **legacy** era, in which
 * an `initialize` handshake opens a session: 2024-11-05 (the first, over
 * stdio or HTTP with SSE), 2025-03-26 (Streamable HTTP, batches, audio, tool
 * annotations), 2025-06-18 (structured content and output schemas, `title`,
 * elicitation, resource links, the `MCP-Protocol-Version` header, no more
 * batches) and 2025-11-25 (JSON Schema 2020-12 by default, elicitation
 * defaults and enums, SSE polling, 403 for a forbidden `Origin`, arguments
 * that break a tool's schema reported as the tool's failure). The
 * **modern** era, stateless: 2026-07-28 (no handshake and no session; every
 * request carries its version, capabilities and client in `_meta`;
 * `server/discover`; multi round-trip requests instead of the server's own
 * requests; `subscriptions/listen`; `Mcp-Method`/`Mcp-Name` headers; caching
 * hints; no `ping`, no `logging/setLevel`, no SSE resumption). The version
 * used is the newest both sides speak, and what either side sends or takes
 * follows it: nothing of one era is used with a peer of the other.
 *
 * @module
 */

/** The versions this library speaks, newest first. */
export const MCP_VERSIONS = [
  "2026-07-28",
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
] as const;

/** One of {@linkcode MCP_VERSIONS}. */
export type McpVersion = typeof MCP_VERSIONS[number];

/** The newest version. */
export const LATEST_VERSION: McpVersion = MCP_VERSIONS[0];

/**
 * The modern (stateless) versions, newest first: every request carries its
 * version in `_meta`, and there is no handshake.
 */
export const MODERN_VERSIONS: readonly McpVersion[] = ["2026-07-28"];

/** The legacy versions, newest first: an `initialize` handshake opens a session. */
export const LEGACY_VERSIONS: readonly McpVersion[] = MCP_VERSIONS.filter((version) =>
  !MODERN_VERSIONS.includes(version)
);

/** An era of MCP: `legacy` (the handshake) or `modern` (stateless). */
export type Era = "legacy" | "modern";

/** What one version allows, where versions differ. */
export interface VersionFeatures {
  /** Its era: `legacy` (an `initialize` handshake, a session) or `modern` (stateless). */
  era: Era;
  /** The content item types a tool result (or prompt message) may hold. */
  contentTypes: readonly string[];
  /**
   * Tool results may carry `structuredContent` (an object; from 2026-07-28
   * any JSON value), and tools an `outputSchema`.
   */
  structuredContent: boolean;
  /** Tools, resources and prompts may carry a `title` beside their `name`. */
  titles: boolean;
  /**
   * A server may ask the client for input (`elicitation/create`): as a
   * request of its own (legacy), or in an `input_required` result (modern).
   */
  elicitation: boolean;
  /**
   * A `sampling/createMessage` message's `content` may be an array of blocks
   * (2025-11-25 on), not only one block.
   */
  samplingContentArrays: boolean;
  /**
   * Sampling's capability names what a client supports of it (2025-11-25
   * on): a `sampling/createMessage` may offer the model tools (`tools`,
   * `toolChoice`), to a client that declared `sampling.tools`, and asks for
   * context (`includeContext` other than `"none"`) only of one that declared
   * `sampling.context`.
   */
  samplingCapabilities: boolean;
  /**
   * An elicitation's form may hold 2025-11-25's choices: a `default` for
   * any field (not only a boolean's), single choices with titles (`oneOf`),
   * multiple choices (`type: "array"`); and its request a `mode`.
   */
  elicitationChoices: boolean;
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
  /**
   * How a server reports a tool call whose arguments break the tool's input
   * schema: a protocol error (-32602: "Invalid arguments" are among them up
   * to 2025-06-18), or, from 2025-11-25, a tool execution error (a result
   * with `isError: true`: "Input validation errors", which a model can read
   * and correct).
   */
  invalidArguments: "protocolError" | "toolError";
  /**
   * The code of the error that answers `resources/read` for a resource that
   * is not there: -32002 up to 2025-11-25 ("Resource not found: `-32002`"),
   * -32602 (Invalid Params) from 2026-07-28.
   */
  resourceNotFound: -32002 | -32602;
}

/** 2025-11-25, the last legacy version: 2026-07-28 changes its era, and ends SSE polling. */
const LAST_LEGACY: VersionFeatures = {
  era: "legacy",
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
  samplingContentArrays: true,
  samplingCapabilities: true,
  elicitationChoices: true,
  invalidArguments: "toolError",
  resourceNotFound: -32002,
};

const FEATURES: Readonly<Record<McpVersion, VersionFeatures>> = {
  "2026-07-28": { ...LAST_LEGACY, era: "modern", ssePolling: false, resourceNotFound: -32602 },
  "2024-11-05": {
    era: "legacy",
    contentTypes: ["text", "image", "resource"],
    structuredContent: false,
    titles: false,
    elicitation: false,
    protocolVersionHeader: false,
    batches: false,
    http: "sse",
    ssePolling: false,
    schemaDialect: "draft-07",
    samplingContentArrays: false,
    samplingCapabilities: false,
    elicitationChoices: false,
    invalidArguments: "protocolError",
    resourceNotFound: -32002,
  },
  "2025-03-26": {
    era: "legacy",
    contentTypes: ["text", "image", "audio", "resource"],
    structuredContent: false,
    titles: false,
    elicitation: false,
    protocolVersionHeader: false,
    batches: true,
    http: "streamable",
    ssePolling: false,
    schemaDialect: "draft-07",
    samplingContentArrays: false,
    samplingCapabilities: false,
    elicitationChoices: false,
    invalidArguments: "protocolError",
    resourceNotFound: -32002,
  },
  "2025-06-18": {
    era: "legacy",
    contentTypes: ["text", "image", "audio", "resource", "resource_link"],
    structuredContent: true,
    titles: true,
    elicitation: true,
    protocolVersionHeader: true,
    batches: false,
    http: "streamable",
    ssePolling: false,
    schemaDialect: "draft-07",
    samplingContentArrays: false,
    samplingCapabilities: false,
    elicitationChoices: false,
    invalidArguments: "protocolError",
    resourceNotFound: -32002,
  },
  "2025-11-25": LAST_LEGACY,
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

/**
 * The newest version both sides speak: the first of `mine` (newest first)
 * that `theirs` holds, or `undefined` when they share none.
 *
 * @example A dual-era client and a server that stopped at 2025-06-18
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(newestShared(MCP_VERSIONS, ["2024-11-05", "2025-06-18"]), "2025-06-18");
 * assert.equal(newestShared(LEGACY_VERSIONS, ["2026-07-28"]), undefined);
 * ```
 */
export function newestShared(
  mine: readonly McpVersion[],
  theirs: readonly unknown[],
): McpVersion | undefined {
  return mine.find((version) => theirs.includes(version));
}

/**
 * The MCP library, for both eras of MCP (the legacy handshake, 2024-11-05 to
 * 2025-11-25, and the stateless 2026-07-28): the wire (framing, JSON-RPC,
 * the course's errors, schema checks, `_meta`, headers), the careful client
 * that starts a stdio server or reaches an HTTP one and never accepts a
 * wrong answer, and the server side, over stdio and Streamable HTTP. It
 * imports nothing of the course, so it can be lifted out as a package of its
 * own, with `lib/formats/` (the email and uri expressions it shares with the
 * token mask); the course's notebooks import its files one by one, so that a learner
 * sees where each name comes from.
 *
 * @example A server's reply matched to its request
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerFor, ProtocolError } from "./mod.ts";
 *
 * assert.deepEqual(answerFor(1, { jsonrpc: "2.0", id: 1, result: { ok: true } }), { ok: true });
 * assert.throws(() => answerFor(1, { jsonrpc: "2.0", id: "1", result: {} }), ProtocolError);
 * ```
 *
 * @module
 */

export {
  ProtocolError,
  type ProtocolErrorOptions,
  TimeoutError,
  ToolError,
} from "./shared/errors.ts";
export {
  type Era,
  isMcpVersion,
  LATEST_VERSION,
  LEGACY_VERSIONS,
  MCP_VERSIONS,
  type McpVersion,
  MODERN_VERSIONS,
  newestShared,
  type VersionFeatures,
  versionFeatures,
} from "./shared/versions.ts";
export {
  declaredVersion,
  isModernRequest,
  META,
  type RequestMeta,
  withRequestMeta,
} from "./shared/meta.ts";
export { isModernError, MODERN_ERRORS, supportedVersions } from "./shared/modern_errors.ts";
export {
  type HeaderParameter,
  headerParameters,
  headerText,
  headerValue,
  parameterHeaders,
  standardHeaders,
} from "./shared/mcp_headers.ts";
export { isLogLevel } from "./shared/log_levels.ts";
export {
  readFrames,
  type ReadFramesOptions,
  type SplitFrames,
  splitFrames,
} from "./shared/framing.ts";
export {
  encodeMessage,
  isObject,
  isRequestId,
  type JsonObject,
  type JsonRpcError,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcResult,
  parseMessage,
  type RequestId,
} from "./shared/jsonrpc.ts";
export { compileSchema, schemaProblems } from "./shared/schema.ts";
export { transferProblems } from "./shared/transfer_problems.ts";
export { readSseEvents, type SseData, type SseEvent, sseEvent } from "./shared/sse.ts";
export { readSseWith } from "./shared/read_sse_with.ts";
export {
  type Annotations,
  type ContentBlock,
  contentProblem,
  type EmbeddedResource,
  isBase64,
  type MediaContent,
  type Resource,
  type ResourceContents,
  resourceContentsProblem,
  type ResourceLink,
  resourceProblem,
  type ResourceTemplate,
  type TextContent,
} from "./shared/content.ts";
export {
  type Prompt,
  type PromptArgument,
  promptArgumentProblems,
  type PromptMessage,
} from "./shared/prompt.ts";
export type { ServerStatus, Transport } from "./shared/transport.ts";
export { answerFor } from "./client/answer.ts";
export { authorize } from "./client/allowlist.ts";
export type { Authorize } from "./client/tool_call.ts";
export { type CallOptions, Client, type InitializeOptions } from "./client/client.ts";
export type { Completion, CompletionRef } from "./client/completion.ts";
export { type Elicit, type ElicitResult, FormAnswerError } from "./client/elicitation.ts";
export type { LogMessage, Progress } from "./client/server_news.ts";
export { Subscription, type SubscriptionFilter } from "./client/subscription.ts";
export { type ProbeOutcome, probeOutcome } from "./client/negotiation.ts";
export type { ClientOptions, ClosedWith, ServerRef } from "./client/client_options.ts";
export { CLIENT_INFO, PROTOCOL_VERSION } from "./client/handshake.ts";
export { carried } from "./client/carried.ts";
export { type ClientTransport, type Incoming, Unanswered } from "./client/client_transport.ts";
export type { Authorization } from "./client/http_endpoint.ts";
export {
  HttpTransport,
  type HttpTransportOptions,
  type SessionEnd,
} from "./client/http_transport.ts";
export { StdioTransport } from "./client/stdio_transport.ts";
export type { AnswerFunction, Direction } from "./client/connection_options.ts";
export { type ProcessTransport, spawnServer } from "./client/spawn_server.ts";
export type { Tool } from "./client/tool_list.ts";
export type { ToolResult } from "./client/tool_result.ts";
export type { PromptResult } from "./client/prompts.ts";
export { Transcript } from "./client/transcript.ts";
export { argumentProblems } from "./server/arguments.ts";
export {
  ERROR_CODES,
  handleLine,
  negotiateVersion,
  PROTOCOL_VERSIONS,
  type ServerSpec,
} from "./server/dispatch.ts";
export { type HttpServer, type HttpServerOptions, serveHttp } from "./server/http_server.ts";
export { type ServerMain, startInProcess } from "./server/in_process_server.ts";
export { type ServerTransport, Unparsed } from "./server/server_transport.ts";
export { ServerSession, type ServerSessionOptions } from "./server/session.ts";
export { type Change, ChangeFeed } from "./server/change_feed.ts";
export { RequestStateSeal, type RequestStateSealOptions } from "./server/request_state.ts";
export { type InputRequest, InputRequired } from "./server/input_round.ts";
export type { CacheHints } from "./server/modern_request.ts";
export { fitResult } from "./server/version_fit.ts";
export {
  type Handler,
  LOG_LEVELS,
  type LogLevel,
  type RequestContext,
  RpcError,
  type SessionSpec,
  type SessionTool,
} from "./server/session_spec.ts";
export { serveStdio, stdioServerTransport } from "./server/stdio_server.ts";
export { advertised, type ServerTool, type ToolOutcome, toolResult } from "./server/tool.ts";
export {
  type ResourceBody,
  type ServerResource,
  type ServerResourceTemplate,
  templateVariables,
} from "./server/resource.ts";
export { type PromptOutcome, type ServerPrompt } from "./server/prompt.ts";

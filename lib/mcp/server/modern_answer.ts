/**
 * A modern (2026-07-28) request answered from what it carries alone, as the
 * stateless protocol requires ("Servers MUST NOT rely on prior requests over
 * the same connection to establish context"): its `_meta` checked first;
 * `server/discover`; `subscriptions/listen`; what the era removed
 * (`initialize`, `ping`, `logging/setLevel`, resource subscriptions)
 * refused as methods not found; a multi round-trip request's rounds, whose
 * `requestState` is sealed against tampering and replay; and every complete
 * result marked `resultType: "complete"`, with the server's name and, where
 * they belong, caching hints.
 *
 * @module
 */

import { isObject, type JsonObject, type RequestId } from "../shared/jsonrpc.ts";
import { MCP_VERSIONS, MODERN_VERSIONS } from "../shared/versions.ts";
import { META } from "../shared/meta.ts";
import { ERROR_CODES, respond } from "./dispatch.ts";
import { InputRequired, InputRound } from "./input_round.ts";
import { listen } from "./listen.ts";
import { completeResult, modernRequest } from "./modern_request.ts";
import type { RequestStateSeal } from "./request_state.ts";
import { requestContext } from "./request_context.ts";
import { type RequestContext, RpcError, type SessionSpec } from "./session_spec.ts";

/** The methods a modern server does not have: the era removed them. */
const REMOVED = new Set([
  "initialize",
  "ping",
  "logging/setLevel",
  "resources/subscribe",
  "resources/unsubscribe",
]);

/** The requests that may be answered `input_required` ("Servers MUST NOT send `InputRequiredResult` responses on any other client requests"). */
export const MULTI_ROUND_METHODS = new Set(["tools/call", "prompts/get", "resources/read"]);

/** What {@linkcode answerModern} needs of the session that serves the request. */
export interface ModernEnv {
  /** The server. */
  spec: SessionSpec;
  /** Seals and opens `requestState`. */
  seal: RequestStateSeal;
  /** Aborted when the client cancels the request. */
  signal: AbortSignal;
  /** Aborted when the session ends (a subscription then ends gracefully). */
  ended: AbortSignal;
  /** Sends a notification that belongs to the request. */
  send: (message: JsonObject) => void;
  /** The reply to a well-formed request of either era, given its context and its version. */
  answer: (
    method: string,
    params: JsonObject,
    context: RequestContext,
    version: string,
  ) => Promise<JsonObject | undefined>;
}

/**
 * What `spec` offers, as `initialize` and `server/discover` declare it: what
 * the plain server offers, tools when it has tools that run with a context,
 * and what the spec adds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(offeredCapabilities({ name: "s", version: "1", tools: [], capabilities: { logging: {} } }), {
 *   tools: { listChanged: false },
 *   logging: {},
 * });
 * ```
 */
export function offeredCapabilities(spec: SessionSpec): JsonObject {
  const initialize = { protocolVersion: "2025-11-25" };
  const reply = respond({ jsonrpc: "2.0", id: 0, method: "initialize", params: initialize }, spec);
  const declared = isObject(reply?.result) ? reply.result.capabilities as JsonObject : {};
  return {
    ...(spec.sessionTools?.length ? { tools: { listChanged: false } } : {}),
    ...declared,
    ...spec.capabilities,
  };
}

/**
 * The reply to the modern request `request`, or an `RpcError` thrown for
 * one the server refuses (a `_meta` that is not well formed, a version it
 * does not speak, a removed method, a tampered `requestState`).
 *
 * @example `server/discover` names every version the server speaks
 * ```ts
 * import assert from "node:assert/strict";
 * import { RequestStateSeal } from "./request_state.ts";
 *
 * const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
 * const spec = { name: "s", version: "1", tools: [] };
 * const env = {
 *   spec, seal: new RequestStateSeal(), signal: new AbortController().signal,
 *   ended: new AbortController().signal, send: () => {}, answer: () => Promise.resolve(undefined),
 * };
 * const reply = await answerModern({ id: 1, method: "server/discover", params: { _meta } }, env);
 * assert.deepEqual((reply.result as { supportedVersions: string[] }).supportedVersions.slice(0, 2), ["2026-07-28", "2025-11-25"]);
 * await assert.rejects(answerModern({ id: 2, method: "ping", params: { _meta } }, env), /Method not found: ping/);
 * ```
 */
export async function answerModern(
  request: { id: RequestId; method: string; params: JsonObject },
  env: ModernEnv,
): Promise<JsonObject> {
  const { id, method, params } = request;
  const { spec } = env;
  const all = spec.versions ?? MCP_VERSIONS;
  const modern = all.filter((version) => MODERN_VERSIONS.includes(version as never));
  const checked = modernRequest(params, modern, all);
  if (checked instanceof RpcError) throw checked;
  const serverInfo = { name: spec.name, version: spec.version };
  const cache = spec.cache ?? { ttlMs: 0, cacheScope: "private" };
  const complete = (result: JsonObject) => ({
    jsonrpc: "2.0",
    id,
    result: completeResult(method, result, serverInfo, cache),
  });
  if (REMOVED.has(method)) {
    throw new RpcError(
      ERROR_CODES.methodNotFound,
      `Method not found: ${method} (${checked.version} has no such method)`,
    );
  }
  const offered = offeredCapabilities(spec);
  switch (method) {
    case "server/discover":
      return complete({
        supportedVersions: [...all],
        capabilities: withListChanged(offered, spec),
        ...(spec.instructions === undefined ? {} : { instructions: spec.instructions }),
      });
    case "subscriptions/listen":
      return complete(
        await listen(id, params, {
          server: {
            feed: spec.changes,
            offers: {
              tools: "tools" in offered,
              prompts: "prompts" in offered,
              resources: "resources" in offered,
            },
          },
          send: env.send,
          cancelled: env.signal,
          ended: env.ended,
        }),
      );
  }
  const round = await inputRound(method, params, checked.capabilities, env.seal);
  const context = requestContext(params, {
    signal: env.signal,
    clientCapabilities: checked.capabilities,
    logLevel: checked.logLevel,
    send: env.send,
    ask: (method, params, key) => round.ask(method, params, key),
  });
  let reply: JsonObject | undefined;
  try {
    reply = await env.answer(method, params, context, checked.version);
  } catch (error) {
    if (!(error instanceof InputRequired)) throw error;
  }
  const missing = round.missing;
  if (Object.keys(missing).length > 0) {
    if (!MULTI_ROUND_METHODS.has(method)) {
      throw new RpcError(
        ERROR_CODES.internalError,
        `Internal error: ${method} asked the client for input, which only ${
          [...MULTI_ROUND_METHODS].join(", ")
        } may do`,
      );
    }
    const requestState = await env.seal.seal({ answers: round.answered }, { method, params });
    return {
      jsonrpc: "2.0",
      id,
      result: {
        resultType: "input_required",
        inputRequests: missing,
        requestState,
        _meta: { [META.serverInfo]: serverInfo },
      },
    };
  }
  if (reply === undefined) {
    throw new RpcError(ERROR_CODES.internalError, `Internal error: ${method} had no reply`);
  }
  return isObject(reply.result) ? complete(reply.result) : reply;
}

/**
 * The round of `method` with `params`: the answers sealed in its
 * `requestState` (refused with -32602 when it fails verification) and those
 * in its `inputResponses`, which must be an object when present.
 */
async function inputRound(
  method: string,
  params: JsonObject,
  capabilities: JsonObject,
  seal: RequestStateSeal,
): Promise<InputRound> {
  const invalid = (why: string) =>
    new RpcError(ERROR_CODES.invalidParams, `Invalid params: ${why}`);
  if ("inputResponses" in params && !isObject(params.inputResponses)) {
    throw invalid("inputResponses must be an object of the client's answers, by key");
  }
  if ("requestState" in params && typeof params.requestState !== "string") {
    throw invalid("requestState must be the string the server gave");
  }
  let known: JsonObject = {};
  if (typeof params.requestState === "string") {
    const opened = await seal.open(params.requestState, { method, params });
    if (typeof opened === "string") throw invalid(opened);
    known = isObject(opened.answers) ? opened.answers : {};
  }
  const given = isObject(params.inputResponses) ? params.inputResponses : {};
  return new InputRound(known, given, capabilities);
}

/** `capabilities`, each list saying it changes when the server tells of changes. */
function withListChanged(capabilities: JsonObject, spec: SessionSpec): JsonObject {
  if (spec.changes === undefined) return capabilities;
  const told: JsonObject = { ...capabilities };
  for (const list of ["tools", "prompts", "resources"]) {
    if (isObject(told[list])) told[list] = { ...told[list] as JsonObject, listChanged: true };
  }
  if (isObject(told.resources)) told.resources = { ...told.resources, subscribe: true };
  return told;
}

/**
 * The server's side of MCP 2025-06-18, one message at a time: version
 * negotiation, the replies to `initialize`, `ping`, `tools/list` and
 * `tools/call`, and, for a server that offers them, `resources/list`,
 * `resources/templates/list`, `resources/read`, `prompts/list` and
 * `prompts/get`; silence for notifications and stray responses, and the
 * JSON-RPC errors a server owes. Pure: a line in, a line (or nothing) out;
 * the stdio loop around it is the caller's.
 *
 * The course's servers are built on it, and Lab 01's learners write their
 * own `negotiateVersion` and `handleMessage` to the same rules.
 *
 * @module
 */

import { isObject, isRequestId, type JsonObject } from "../shared/jsonrpc.ts";
import { argumentProblems } from "./arguments.ts";
import { pageReply } from "./pages.ts";
import { advertisedPrompt, promptReply, type ServerPrompt } from "./prompt.ts";
import {
  advertisedResource,
  readReply,
  type ServerResource,
  type ServerResourceTemplate,
} from "./resource.ts";
import { ERROR_CODES, failure, success } from "./replies.ts";
import { advertised, type ServerTool, toolResult } from "./tool.ts";

export { ERROR_CODES } from "./replies.ts";

/** The protocol versions the course's servers speak, newest first. */
export const PROTOCOL_VERSIONS: readonly string[] = ["2025-06-18", "2024-11-05"];

/**
 * The version to answer `initialize` with: the one asked for when the server
 * speaks it, otherwise the newest the server speaks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(negotiateVersion("2024-11-05"), "2024-11-05");
 * assert.equal(negotiateVersion("2025-03-26"), "2025-06-18");
 * ```
 */
export function negotiateVersion(
  requested: unknown,
  supported: readonly string[] = PROTOCOL_VERSIONS,
): string {
  return typeof requested === "string" && supported.includes(requested) ? requested : supported[0];
}

/**
 * What a server is: its name, what it offers (each of tools, resources and
 * prompts is offered, and declared in its capabilities, only when given),
 * and how it may differ from the defaults.
 *
 * @example A server of one resource and one prompt, and no tools
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const library: ServerSpec = {
 *   name: "library",
 *   version: "1.0.0",
 *   resources: [{ uri: "library://rules", name: "rules", mimeType: "text/plain", read: () => ({ text: "Be quiet." }) }],
 *   prompts: [{
 *     name: "ask",
 *     arguments: [{ name: "topic", required: true }],
 *     get: ({ topic }) => ({ messages: [{ role: "user", content: { type: "text", text: `Find me a book on ${topic}.` } }] }),
 *   }],
 * };
 * const ask = (message: object) => JSON.parse(handleLine(JSON.stringify({ jsonrpc: "2.0", id: 1, ...message }), library)!);
 * assert.deepEqual(ask({ method: "initialize", params: { protocolVersion: "2025-06-18" } }).result.capabilities, { resources: {}, prompts: {} });
 * assert.equal(ask({ method: "resources/read", params: { uri: "library://rules" } }).result.contents[0].text, "Be quiet.");
 * assert.equal(ask({ method: "prompts/get", params: { name: "ask", arguments: {} } }).error.code, -32602);
 * assert.equal(ask({ method: "tools/list" }).error.code, -32601);
 * ```
 */
export interface ServerSpec {
  name: string;
  version: string;
  /** Its tools. @default {undefined} (it offers no tools) */
  tools?: readonly ServerTool[];
  /** Its resources. @default {undefined} (none; with no templates either, it offers no resources) */
  resources?: readonly ServerResource[];
  /** Its resource templates. @default {undefined} */
  resourceTemplates?: readonly ServerResourceTemplate[];
  /** Its prompts. @default {undefined} (it offers no prompts) */
  prompts?: readonly ServerPrompt[];
  /** The most items on one page of each list. @default {undefined} (every item on one page) */
  pageSize?: number;
  /** The protocol versions it speaks, newest first. @default {PROTOCOL_VERSIONS} */
  versions?: readonly string[];
  /** The `tools/list` result for a cursor. @default {pages of `pageSize` tools} */
  list?(cursor: string | undefined): JsonObject;
  /** Called with every `tools/call` that names a tool, known or not, before it is answered. */
  onCall?(name: string, args: unknown): void;
}

/**
 * The reply to one line a client sent, as one line of JSON without its
 * newline, or `undefined` when nothing is owed (a notification, a response).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const server = { name: "grammar", version: "1.0.0", tools: [] };
 * assert.equal(handleLine('{"jsonrpc":"2.0","id":"a","method":"ping"}', server), '{"jsonrpc":"2.0","id":"a","result":{}}');
 * assert.equal(handleLine('{"jsonrpc":"2.0","method":"notifications/initialized"}', server), undefined);
 * assert.match(handleLine("not json", server)!, /"id":null,"error":\{"code":-32700/);
 * ```
 */
export function handleLine(line: string, server: ServerSpec): string | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return JSON.stringify(
      failure(null, ERROR_CODES.parseError, "Parse error: the line is not JSON"),
    );
  }
  const reply = respond(message, server);
  return reply === undefined ? undefined : JSON.stringify(reply);
}

/**
 * The reply to one parsed message, or `undefined` when nothing is owed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const server = { name: "empty", version: "1.0.0", tools: [] };
 * const reply = respond({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } }, server);
 * assert.equal((reply?.error as { code: number }).code, -32602);
 * ```
 */
export function respond(message: unknown, server: ServerSpec): JsonObject | undefined {
  if (!isObject(message)) {
    const what = Array.isArray(message)
      ? "a batch, which 2025-06-18 does not allow"
      : "not an object";
    return failure(null, ERROR_CODES.invalidRequest, `Invalid request: ${what}`);
  }
  const hasId = Object.hasOwn(message, "id");
  const id = hasId && isRequestId(message.id) ? message.id : null;
  if (!("method" in message) && ("result" in message || "error" in message)) {
    return undefined; // a response: this server asked nothing, so it owes nothing
  }
  if (message.jsonrpc !== "2.0" || typeof message.method !== "string" || (hasId && id === null)) {
    return failure(id, ERROR_CODES.invalidRequest, "Invalid request: not a JSON-RPC 2.0 request");
  }
  if (!hasId) return undefined; // a notification is never answered
  if ("params" in message && !isObject(message.params)) {
    return failure(id, ERROR_CODES.invalidParams, "Invalid params: params must be an object");
  }
  return answer(
    id as string | number,
    message.method,
    (message.params ?? {}) as JsonObject,
    server,
  );
}

/** The reply to a well-formed request. */
function answer(
  id: string | number,
  method: string,
  params: JsonObject,
  server: ServerSpec,
): JsonObject {
  switch (method) {
    case "initialize":
      if (typeof params.protocolVersion !== "string") {
        return failure(id, ERROR_CODES.invalidParams, "Invalid params: no protocolVersion");
      }
      return success(id, {
        protocolVersion: negotiateVersion(params.protocolVersion, server.versions),
        capabilities: capabilities(server),
        serverInfo: { name: server.name, version: server.version },
      });
    case "ping":
      return success(id, {});
  }
  const offered = method.split("/")[0];
  if (!Object.hasOwn(capabilities(server), offered)) {
    return failure(id, ERROR_CODES.methodNotFound, `Method not found: ${method}`);
  }
  switch (method) {
    case "tools/list": {
      const cursor = typeof params.cursor === "string" ? params.cursor : undefined;
      if (server.list !== undefined) return success(id, server.list(cursor));
      return pageReply(id, params, "tools", (server.tools ?? []).map(advertised), server.pageSize);
    }
    case "tools/call":
      return call(id, params, server);
    case "resources/list":
      return pageReply(
        id,
        params,
        "resources",
        (server.resources ?? []).map(advertisedResource),
        server.pageSize,
      );
    case "resources/templates/list": {
      const templates = (server.resourceTemplates ?? []).map(advertisedResource);
      return pageReply(id, params, "resourceTemplates", templates, server.pageSize);
    }
    case "resources/read":
      return readReply(id, params, server);
    case "prompts/list":
      return pageReply(
        id,
        params,
        "prompts",
        (server.prompts ?? []).map(advertisedPrompt),
        server.pageSize,
      );
    case "prompts/get":
      return promptReply(id, params, server.prompts ?? []);
    default:
      return failure(id, ERROR_CODES.methodNotFound, `Method not found: ${method}`);
  }
}

/** What `server` offers, as `initialize` declares it: only what it has. */
function capabilities(server: ServerSpec): JsonObject {
  return {
    ...(server.tools === undefined ? {} : { tools: { listChanged: false } }),
    ...(server.resources === undefined && server.resourceTemplates === undefined
      ? {}
      : { resources: {} }),
    ...(server.prompts === undefined ? {} : { prompts: {} }),
  };
}

/** The reply to `tools/call`: the tool's result, or why it was not called. */
function call(id: string | number, params: JsonObject, server: ServerSpec): JsonObject {
  const { name, arguments: args = {} } = params;
  if (typeof name !== "string") {
    return failure(id, ERROR_CODES.invalidParams, "Invalid params: the tool name is missing");
  }
  server.onCall?.(name, args);
  const tool = server.tools?.find((tool) => tool.name === name);
  if (tool === undefined) return failure(id, ERROR_CODES.invalidParams, `Unknown tool: ${name}`);
  const problems = argumentProblems(tool.inputSchema, args);
  if (problems.length > 0) {
    return failure(id, ERROR_CODES.invalidParams, `Invalid arguments for ${name}`, problems);
  }
  return success(id, toolResult(tool.call(args as JsonObject)));
}

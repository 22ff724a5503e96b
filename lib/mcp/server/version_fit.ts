/**
 * A server's replies fitted to the protocol version agreed with a client:
 * what that version does not define is left out (a tool's `outputSchema`
 * and a result's `structuredContent` before 2025-06-18, an `outputSchema`
 * or a `structuredContent` that is not an object before 2026-07-28, and
 * `title` beside a name), so that an older client never receives what it may refuse; a
 * tool result holding content of a type the version does not define (audio
 * before 2025-03-26, a resource link before 2025-06-18) becomes the tool's
 * failure, saying so, since no part of it can stand for the whole, and a
 * prompt holding one is refused as the server's internal error, for the same
 * reason; and an error carries the code that version gives it (a resource
 * not found).
 *
 * @module
 */

import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import {
  isMcpVersion,
  LATEST_VERSION,
  type McpVersion,
  versionFeatures,
} from "../shared/versions.ts";
import { newerElicitation } from "./elicitation_fit.ts";
import { ERROR_CODES } from "./replies.ts";
import { RpcError } from "./session_spec.ts";

/** The lists whose items may carry a `title` from 2025-06-18. */
const LISTS: Readonly<Record<string, string>> = {
  "tools/list": "tools",
  "resources/list": "resources",
  "resources/templates/list": "resourceTemplates",
  "prompts/list": "prompts",
};

/**
 * `result`, the result of `method`, as the protocol version `version` has
 * it (a version this library does not speak: unchanged).
 *
 * @example A 2025-03-26 client is sent no structured content and no output schema
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const result = { content: [{ type: "text", text: "4" }], structuredContent: { n: 4 } };
 * assert.deepEqual(fitResult("tools/call", result, "2025-03-26"), { content: [{ type: "text", text: "4" }] });
 * assert.deepEqual(fitResult("tools/call", result, "2025-06-18"), result);
 * const list = { tools: [{ name: "count", title: "Count", inputSchema: {}, outputSchema: {} }] };
 * assert.deepEqual(fitResult("tools/list", list, "2024-11-05"), { tools: [{ name: "count", inputSchema: {} }] });
 * ```
 *
 * @example Structured content that is not an object is sent from 2026-07-28 only
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const primes = { content: [{ type: "text", text: "[2,3]" }], structuredContent: [2, 3] };
 * assert.deepEqual(fitResult("tools/call", primes, "2026-07-28"), primes);
 * assert.deepEqual(fitResult("tools/call", primes, "2025-11-25"), { content: [{ type: "text", text: "[2,3]" }] });
 * const listed = { tools: [{ name: "primes", inputSchema: {}, outputSchema: { type: "array" } }] };
 * assert.deepEqual(fitResult("tools/list", listed, "2026-07-28"), listed);
 * assert.deepEqual(fitResult("tools/list", listed, "2025-11-25"), { tools: [{ name: "primes", inputSchema: {} }] });
 * ```
 *
 * @example A 2024-11-05 client is sent no audio: the tool's failure says why
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const heard = { content: [{ type: "audio", data: "", mimeType: "audio/wav" }] };
 * const fitted = fitResult("tools/call", heard, "2024-11-05");
 * assert.equal(fitted.isError, true);
 * assert.match((fitted.content as { text: string }[])[0].text, /audio content, which 2024-11-05 does not define/);
 * assert.deepEqual(fitResult("tools/call", heard, "2025-03-26"), heard);
 * ```
 *
 * @example A 2025-03-26 client is sent no prompt holding a resource link: it throws `RpcError`
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const link = { type: "resource_link", uri: "file:///notes.md", name: "notes" };
 * const prompt = { messages: [{ role: "user", content: link }] };
 * assert.throws(() => fitResult("prompts/get", prompt, "2025-03-26"), /resource_link content, which 2025-03-26/);
 * assert.deepEqual(fitResult("prompts/get", prompt, "2025-06-18"), prompt);
 * ```
 */
export function fitResult(method: string, given: JsonObject, version: string): JsonObject {
  if (!isMcpVersion(version)) return given;
  const { structuredContent, titles, era } = versionFeatures(version);
  const result = era === "legacy" ? withObjectSchemasOnly(method, given) : given;
  if (method === "prompts/get") {
    const messages = Array.isArray(result.messages) ? result.messages : [];
    const unsent = unsentContent(
      "the prompt",
      messages.map((message) => message?.content),
      version,
    );
    if (unsent === undefined) return result;
    throw new RpcError(ERROR_CODES.internalError, `Internal error: ${unsent}`);
  }
  const content = Array.isArray(result.content) ? result.content : [];
  const unsent = method === "tools/call"
    ? unsentContent("The tool's result", content, version)
    : undefined;
  if (unsent !== undefined) return { content: [{ type: "text", text: unsent }], isError: true };
  const structuredFits = structuredContent &&
    (era === "modern" || isObject(result.structuredContent));
  if (method === "tools/call" && "structuredContent" in result && !structuredFits) {
    const { structuredContent: _, ...rest } = result;
    return rest;
  }
  const key = LISTS[method];
  if (key === undefined || !Array.isArray(result[key]) || (structuredContent && titles)) {
    return result;
  }
  const items = (result[key] as unknown[]).map((item) => {
    if (!isObject(item)) return item;
    const { title, outputSchema, ...rest } = item;
    return {
      ...rest,
      ...(titles && title !== undefined ? { title } : {}),
      ...(structuredContent && outputSchema !== undefined ? { outputSchema } : {}),
    };
  });
  return { ...result, [key]: items };
}

/**
 * `result` of `method` with each tool's `outputSchema` that is not an object
 * schema left out: 2026-07-28 allows any JSON Schema there, a handshake
 * version only `"type": "object"`.
 */
function withObjectSchemasOnly(method: string, result: JsonObject): JsonObject {
  if (method !== "tools/list" || !Array.isArray(result.tools)) return result;
  const tools = result.tools.map((tool) => {
    if (!isObject(tool) || !("outputSchema" in tool)) return tool;
    const { outputSchema, ...rest } = tool;
    return isObject(outputSchema) && outputSchema.type === "object" ? tool : rest;
  });
  return { ...result, tools };
}

/**
 * Why the server's own request `method` with `params` cannot be sent in a
 * session of protocol version `version`, or `undefined` when it can:
 * elicitation came with 2025-06-18 (and its choices, defaults and mode with
 * 2025-11-25: see `newerElicitation`), a sampling request may offer the
 * model tools only from 2025-11-25, and it may hold only the
 * content types of the session's version, and a message's content as a list
 * of blocks only from 2025-11-25 (a version this library does not speak: no
 * reason).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const heard = { messages: [{ role: "user", content: { type: "audio", data: "", mimeType: "audio/wav" } }], maxTokens: 8 };
 * assert.match(requestUnfit("sampling/createMessage", heard, "2024-11-05")!, /audio content, which 2024-11-05/);
 * assert.equal(requestUnfit("sampling/createMessage", heard, "2025-03-26"), undefined);
 * assert.match(requestUnfit("elicitation/create", {}, "2025-03-26")!, /came with 2025-06-18/);
 * assert.match(requestUnfit("elicitation/create", { mode: "form" }, "2025-06-18")!, /came with 2025-11-25/);
 * const blocks = { messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }], maxTokens: 8 };
 * assert.match(requestUnfit("sampling/createMessage", blocks, "2025-06-18")!, /came with 2025-11-25/);
 * assert.equal(requestUnfit("sampling/createMessage", blocks, "2025-11-25"), undefined);
 * assert.match(requestUnfit("sampling/createMessage", { ...blocks, tools: [] }, "2025-06-18")!, /offers the model tools/);
 * ```
 */
export function requestUnfit(
  method: string,
  params: JsonObject,
  version: string | undefined,
): string | undefined {
  if (version === undefined || !isMcpVersion(version)) return undefined;
  if (method === "elicitation/create" && !versionFeatures(version).elicitation) {
    return `Elicitation came with 2025-06-18; this session is ${version}`;
  }
  const newer = method === "elicitation/create" && !versionFeatures(version).elicitationChoices
    ? newerElicitation(params)
    : [];
  if (newer.length > 0) {
    return `The elicitation asks with what came with 2025-11-25 (${newer.join("; ")}); ` +
      `this session is ${version}: it is not sent`;
  }
  if (method !== "sampling/createMessage") return undefined;
  const offered = ["tools", "toolChoice"].filter((key) => params[key] !== undefined);
  if (offered.length > 0 && !versionFeatures(version).samplingCapabilities) {
    return `The sampling request offers the model tools (${offered.join(", ")}), which came ` +
      `with 2025-11-25; this session is ${version}: it is not sent`;
  }
  const messages = Array.isArray(params.messages) ? params.messages : [];
  // From 2025-11-25 a message's content may be a list of blocks.
  const listed = messages.some((message) => isObject(message) && Array.isArray(message.content));
  if (listed && !versionFeatures(version).samplingContentArrays) {
    return "The sampling request holds a message whose content is a list of content blocks, " +
      `which came with 2025-11-25; this session is ${version}: it is not sent`;
  }
  const content = messages.flatMap((message) => isObject(message) ? [message.content].flat() : []);
  return unsentContent("The sampling request", content, version);
}

/**
 * Why `what` (the tool's result, the prompt, ...), holding content `items`,
 * is not sent in a session of `version`: the types of its items that a later
 * version defines and `version` does not, each once; `undefined` when there
 * are none. A type no version defines is the client's to refuse, as a
 * malformed message.
 */
function unsentContent(
  what: string,
  items: readonly unknown[],
  version: McpVersion,
): string | undefined {
  const { contentTypes } = versionFeatures(version);
  const defined = versionFeatures(LATEST_VERSION).contentTypes;
  const types = items.map((item) => isObject(item) ? item.type : undefined)
    .filter((type): type is string =>
      typeof type === "string" && defined.includes(type) && !contentTypes.includes(type)
    );
  if (types.length === 0) return undefined;
  return `${what} holds ${[...new Set(types)].join(" and ")} content, which ${version} ` +
    "does not define: it is not sent";
}

/**
 * `error`, an error answering `method`, with the code the protocol version
 * `version` gives it: the library answers a resource that is not there as
 * 2026-07-28 does (-32602, "Resource not found"), which every earlier
 * version names -32002 (a version this library does not speak: unchanged).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const missing = { code: -32602, message: "Resource not found", data: { uri: "a://b" } };
 * assert.deepEqual(fitError("resources/read", missing, "2025-11-25"), { ...missing, code: -32002 });
 * assert.deepEqual(fitError("resources/read", missing, "2026-07-28"), missing);
 * const noUri = { code: -32602, message: "Invalid params: the resource's uri is missing" };
 * assert.deepEqual(fitError("resources/read", noUri, "2025-11-25"), noUri);
 * ```
 */
export function fitError(method: string, error: JsonObject, version: string): JsonObject {
  const notFound = method === "resources/read" && error.code === ERROR_CODES.invalidParams &&
    error.message === "Resource not found";
  if (!notFound || !isMcpVersion(version)) return error;
  return { ...error, code: versionFeatures(version).resourceNotFound };
}

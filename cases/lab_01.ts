/**
 * Lab 01's visible cases: the notebook's grade tables show them, and the
 * autograder runs them again on the learner's code. The hidden cases are
 * held back: only the instructors' grader has them.
 *
 * `handleMessage` is given one line a client sent and returns the reply line
 * (or `undefined`); {@linkcode replyShape} turns that reply into the form the
 * expected values are written in. The server speaks both eras of MCP: a
 * request of 2026-07-28 names its version in `_meta` and is answered on its
 * own; the handshake (`initialize`) is the legacy every 2025-era client
 * still speaks.
 *
 * @module
 */

import type { GradeCase } from "../lib/grading/grading.ts";
import { isObject, type JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { META } from "../lib/mcp/shared/meta.ts";
import { GRAMMAR_TOOLS } from "../lib/course/grammar_tools.ts";
import { nameValue } from "../lib/notebook/value_names.ts";

/** Today's version: every request names it in `_meta`, and there is no handshake. */
export const MODERN = "2026-07-28";
/** The newest version the server speaks through the handshake. */
export const LATEST = "2025-06-18";
/** Every version the server speaks, as `server/discover` lists them and -32022 names them. */
export const SUPPORTED = [MODERN, LATEST, "2024-11-05"];

/** One line a client sends: a request (with `id`) or a notification (`id` left out). */
export function line(method: string, params?: JsonObject, id?: string | number | null): string {
  const message: JsonObject = { jsonrpc: "2.0" };
  if (id !== undefined) message.id = id;
  message.method = method;
  if (params !== undefined) message.params = params;
  const tool = method === "tools/call" && typeof params?.name === "string" ? ` ${params.name}` : "";
  return named(
    `${method}${tool}, ${id === undefined ? "a notification" : `id ${JSON.stringify(id)}`}`,
    JSON.stringify(message),
  );
}

/**
 * What a 2026-07-28 request carries in `_meta`: the version it speaks, the
 * client's capabilities and its name; `version` may be anything, and
 * `changes` adds, replaces or (set to `undefined`) removes keys.
 */
export function meta(version: unknown = MODERN, changes: JsonObject = {}): JsonObject {
  const fields: JsonObject = {
    [META.protocolVersion]: version,
    [META.clientCapabilities]: {},
    [META.clientInfo]: { name: "grader", version: "1.0.0" },
    ...changes,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/**
 * A request of today's protocol: its `params` (`{}` when left out) carry
 * `_meta` (by default {@linkcode meta}'s, for 2026-07-28).
 */
export function modern(
  method: string,
  params: JsonObject = {},
  id: string | number,
  carried: unknown = meta(),
): string {
  const tool = method === "tools/call" && typeof params.name === "string" ? ` ${params.name}` : "";
  return named(
    `${MODERN} ${method}${tool}, id ${JSON.stringify(id)}`,
    JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: carried } }),
  );
}

/** `value`, which a grade table shows as `what` (a line of JSON), the whole of it a click away. */
function named<T>(what: string, value: T): T {
  return nameValue(typeof value === "string" ? `the line: ${what}` : what, value);
}

/** The `initialize` request asking for `version`. */
export function initialize(id: string | number, version: string): string {
  return line("initialize", {
    protocolVersion: version,
    capabilities: {},
    clientInfo: { name: "grader", version: "1.0.0" },
  }, id);
}

/** A `tools/call` request. */
export function call(id: string | number, name: unknown, args?: unknown): string {
  return line("tools/call", args === undefined ? { name } : { name, arguments: args }, id);
}

/** The shape of an error reply: only the code is compared, not the message's words. */
export function error(id: string | number | null, code: number): JsonObject {
  return named(`error ${code}, id ${JSON.stringify(id)}`, { jsonrpc: "2.0", id, error: { code } });
}

/**
 * The shape of an `UnsupportedProtocolVersionError` (-32022): the versions
 * the server speaks (in any order) and the one asked for.
 */
export function unsupported(id: string | number, requested: unknown): JsonObject {
  return named(`error -32022 naming the versions spoken, id ${JSON.stringify(id)}`, {
    jsonrpc: "2.0",
    id,
    error: { code: -32022, data: { supported: [...SUPPORTED].sort(), requested } },
  });
}

/** The shape of a successful reply. */
export function result(id: string | number, value: unknown): JsonObject {
  return { jsonrpc: "2.0", id, result: value };
}

/** The shape of an `initialize` result that chose `version`. */
export function initialized(id: string | number, version: string): JsonObject {
  return named(
    `initialize's result: ${version}, tools offered, the server named; id ${JSON.stringify(id)}`,
    result(id, { protocolVersion: version, toolsCapability: true, serverInfo: true }),
  );
}

/**
 * The shape of a result of today's protocol: `value`'s shape, marked
 * `resultType: "complete"` with the server named in `_meta`, and, for the
 * results that may be cached (`server/discover`, `tools/list`), caching
 * hints.
 */
function complete(value: JsonObject, cacheable = false): JsonObject {
  return {
    ...value,
    resultType: "complete",
    serverNamed: true,
    ...(cacheable ? { cacheHints: true } : {}),
  };
}

/** The shape of the `server/discover` result: every version, tools offered, the server named. */
export function discovered(id: string | number): JsonObject {
  return named(
    `the discovery: every version, tools offered, complete; id ${JSON.stringify(id)}`,
    result(id, complete({ supportedVersions: [...SUPPORTED].sort(), toolsCapability: true }, true)),
  );
}

/** The era of a result: the handshake's (`legacy`) or today's (`modern`). */
export type Era = "legacy" | "modern";

/** The shape of a `tools/call` result with one text item, in `era`. */
export function text(
  id: string | number,
  value: string,
  isError = false,
  era: Era = "legacy",
): JsonObject {
  const shown = value.length > 30 ? `${value.slice(0, 29)}…` : value;
  const quoted = shown.includes('"') ? `'${shown}'` : `"${shown}"`;
  const said = isError ? "a tool's failure (isError: true)" : `the text ${quoted}`;
  const shape = { content: [{ type: "text", text: isError ? TOOL_MESSAGE : value }], isError };
  return named(
    `${said}${era === "modern" ? ", complete" : ""}, id ${JSON.stringify(id)}`,
    result(id, era === "modern" ? complete(shape) : shape),
  );
}

/** The shape of the whole tool list, in `era` (today's: complete, with caching hints). */
export function toolList(id: string | number, era: Era = "legacy"): JsonObject {
  return era === "modern"
    ? named(`the four tools, complete, with caching hints; id ${JSON.stringify(id)}`, {
      jsonrpc: "2.0",
      id,
      result: complete(TOOL_LIST, true),
    })
    : result(id, TOOL_LIST);
}

/** What the text of a tool's failure becomes: its words are the tool's, and not compared. */
export const TOOL_MESSAGE = "(the tool's own message)";

/** What `undefined` becomes: the server sent nothing back (a table says so in words). */
export const NO_REPLY = nameValue("(nothing: no reply is owed)", "no reply");

/**
 * The shape of the whole tool list: each tool's name and input schema, by
 * name. A grade table calls it "the four tools, with their schemas".
 */
export const TOOL_LIST = nameValue("the four tools, with their schemas", {
  tools: GRAMMAR_TOOLS.map(({ name, inputSchema }) => ({ name, inputSchema }))
    .sort((a, b) => a.name < b.name ? -1 : 1),
});

/**
 * A reply as the expected values are written: `"no reply"` for `undefined`;
 * otherwise the parsed JSON with only the code of an error (its message must
 * say something, but its words are the server's; an
 * `UnsupportedProtocolVersionError` keeps the versions its data names, in
 * name order, and the one requested), an `initialize` result reduced to its
 * version and whether it offers tools and names the server and its version,
 * a `server/discover` result to its versions (in name order) and whether it
 * offers tools, a tool list reduced to each tool's name and schema in name
 * order, and a tool result to its text items and `isError` (false when left
 * out; the words of a failure are not compared). A result that carries
 * `resultType` (today's protocol) also keeps it, whether its `_meta` names
 * the server, and, for a discovery or a tool list, whether it carries
 * caching hints (`ttlMs` a whole number of at least 0, `cacheScope` public or
 * private). Throws `TypeError` for a reply that is not one line of JSON text,
 * which no client could read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(replyShape(undefined), "no reply");
 * assert.deepEqual(
 *   replyShape('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'),
 *   { jsonrpc: "2.0", id: null, error: { code: -32700 } },
 * );
 * assert.throws(() => replyShape('{\n"jsonrpc": "2.0"\n}'), TypeError);
 * const refused = { code: -32022, message: "Unsupported", data: { supported: ["b", "a"], requested: "c" } };
 * assert.deepEqual(replyShape(JSON.stringify({ jsonrpc: "2.0", id: 1, error: refused })), {
 *   jsonrpc: "2.0",
 *   id: 1,
 *   error: { code: -32022, data: { supported: ["a", "b"], requested: "c" } },
 * });
 * ```
 */
export function replyShape(reply: unknown): unknown {
  if (reply === undefined) return NO_REPLY;
  if (typeof reply !== "string") {
    throw new TypeError(`A reply must be a line of JSON text or undefined, not ${kindOf(reply)}`);
  }
  if (/[\r\n]/.test(reply)) {
    throw new TypeError("A reply must be one line: a newline inside it ends the frame early");
  }
  let value: unknown;
  try {
    value = JSON.parse(reply);
  } catch {
    throw new TypeError(`A reply must be JSON: ${JSON.stringify(reply.slice(0, 60))}`);
  }
  if (!isObject(value)) return value;
  const shaped: JsonObject = { ...value };
  if (isObject(value.error)) {
    const { code, message, data } = value.error;
    shaped.error = {
      code,
      ...(isWords(message) ? {} : { message }),
      ...(code === -32022 ? { data: versionsShape(data) } : {}),
    };
  }
  if (isObject(value.result)) shaped.result = resultShape(value.result);
  return shaped;
}

function resultShape(result: JsonObject): unknown {
  const shape = plainShape(result);
  if (!("resultType" in result) || !isObject(shape)) return shape;
  const cacheable = "supportedVersions" in result || Array.isArray(result.tools);
  const { ttlMs, cacheScope } = result;
  return {
    ...shape,
    resultType: result.resultType,
    serverNamed: isObject(result._meta) && isServer(result._meta[META.serverInfo]),
    ...(cacheable
      ? {
        cacheHints: Number.isSafeInteger(ttlMs) && (ttlMs as number) >= 0 &&
          (cacheScope === "public" || cacheScope === "private"),
      }
      : {}),
  };
}

/** The shape of a result, whatever its era. */
function plainShape(result: JsonObject): unknown {
  if ("supportedVersions" in result) {
    const { supportedVersions: versions, capabilities } = result;
    return {
      supportedVersions: Array.isArray(versions) ? [...versions].sort() : versions,
      toolsCapability: isObject(capabilities) && isObject(capabilities.tools),
    };
  }
  if ("protocolVersion" in result) {
    const { protocolVersion, capabilities, serverInfo } = result;
    return {
      protocolVersion,
      toolsCapability: isObject(capabilities) && isObject(capabilities.tools),
      serverInfo: isServer(serverInfo),
    };
  }
  if (Array.isArray(result.tools)) {
    const tools = result.tools.map((tool) =>
      isObject(tool) ? { name: tool.name, inputSchema: tool.inputSchema } : tool
    );
    return { tools: tools.sort((a, b) => String(a?.name) < String(b?.name) ? -1 : 1) };
  }
  if ("content" in result) {
    const isError = result.isError ?? false;
    const content = Array.isArray(result.content)
      ? result.content.map((item) =>
        isObject(item)
          ? {
            type: item.type,
            text: isError === true && isWords(item.text) ? TOOL_MESSAGE : item.text,
          }
          : item
      )
      : result.content;
    return { content, isError };
  }
  return result;
}

/** An `UnsupportedProtocolVersionError`'s data: its versions in name order, and the one asked for. */
function versionsShape(data: unknown): unknown {
  if (!isObject(data) || !Array.isArray(data.supported)) return data;
  return { supported: [...data.supported].sort(), requested: data.requested };
}

/** Whether `info` names a server: its name and version, each some words. */
function isServer(info: unknown): boolean {
  return isObject(info) && isWords(info.name) && isWords(info.version);
}

function isWords(text: unknown): boolean {
  return typeof text === "string" && text.trim() !== "";
}

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

const conjugateEat = { verb: "eat", tense: "past_simple", person: "3sg" };

/** The steps `handleMessage` is written and graded in, in the notebook's order. */
export type Step = "envelope" | "modern" | "discover" | "handshake" | "tools";

/**
 * `handleMessage`'s visible cases in the five steps the notebook grades it
 * in: the envelope (what is not a request, or owes nothing); a request of
 * today's protocol, its `_meta` and its version; today's answers
 * (`server/discover`, and the methods 2026-07-28 does not have); the
 * handshake (`initialize`, `ping` and unknown methods); the tools, in both
 * eras.
 */
export const HANDLE_MESSAGE_STEPS: Readonly<Record<Step, readonly GradeCase[]>> = {
  envelope: [
    { label: "a line that is not JSON", args: ["this is not json"], expected: error(null, -32700) },
    {
      label: "a batch, which no version this server speaks allows",
      args: [`[${line("ping", undefined, 11)},${line("ping", undefined, 12)}]`],
      expected: error(null, -32600),
    },
    {
      label: "a request without jsonrpc",
      args: [JSON.stringify({ id: 13, method: "ping" })],
      expected: error(13, -32600),
    },
    {
      label: "an id that is true, which is no id",
      args: [JSON.stringify({ jsonrpc: "2.0", id: true, method: "ping" })],
      expected: error(null, -32600),
    },
    {
      label: "params given as a string",
      args: [JSON.stringify({ jsonrpc: "2.0", id: 14, method: "tools/list", params: "all" })],
      expected: error(14, -32602),
    },
    {
      label: "notifications/initialized gets no reply",
      args: [line("notifications/initialized")],
      expected: NO_REPLY,
    },
  ],
  modern: [
    {
      label: "server/discover without _meta",
      args: [line("server/discover", {}, 40)],
      expected: error(40, -32602),
    },
    {
      label: "a 2026-07-28 request without the client's capabilities",
      args: [modern("tools/list", {}, 41, meta(MODERN, { [META.clientCapabilities]: undefined }))],
      expected: error(41, -32602),
    },
    {
      label: "a version in _meta that is not a string",
      args: [modern("tools/list", {}, 42, meta(20260728))],
      expected: error(42, -32602),
    },
    {
      label: "server/discover naming a version from the future",
      args: [modern("server/discover", {}, 43, meta("2099-01-01"))],
      expected: unsupported(43, "2099-01-01"),
    },
    {
      label: "2025-06-18 in _meta: that version has a handshake",
      args: [
        modern("tools/call", { name: "conjugate", arguments: conjugateEat }, 44, meta(LATEST)),
      ],
      expected: unsupported(44, LATEST),
    },
  ],
  discover: [
    {
      label: "server/discover",
      args: [modern("server/discover", {}, "d-1")],
      expected: discovered("d-1"),
    },
    {
      label: "server/discover from a client that gives no name",
      args: [modern("server/discover", {}, 45, meta(MODERN, { [META.clientInfo]: undefined }))],
      expected: discovered(45),
    },
    {
      label: "ping, which 2026-07-28 does not have",
      args: [modern("ping", {}, 46)],
      expected: error(46, -32601),
    },
    {
      label: "an unknown method at 2026-07-28",
      args: [modern("resources/list", {}, 47)],
      expected: error(47, -32601),
    },
  ],
  handshake: [
    {
      label: "initialize, asking for 2025-06-18",
      args: [initialize(1, LATEST)],
      expected: initialized(1, LATEST),
    },
    {
      label: "initialize, asking for 2024-11-05",
      args: [initialize(1, "2024-11-05")],
      expected: initialized(1, "2024-11-05"),
    },
    {
      label: "initialize, asking for a version the server does not speak",
      args: [initialize(1, "2025-03-26")],
      expected: initialized(1, LATEST),
    },
    { label: "ping", args: [line("ping", undefined, 2)], expected: result(2, {}) },
    {
      label: "a string id comes back a string",
      args: [line("ping", undefined, "req-1")],
      expected: result("req-1", {}),
    },
    {
      label: "an unknown method",
      args: [line("resources/list", {}, 10)],
      expected: error(10, -32601),
    },
  ],
  tools: [
    { label: "tools/list", args: [line("tools/list", {}, 3)], expected: toolList(3) },
    {
      label: "conjugate eat past_simple 3sg",
      args: [call(4, "conjugate", conjugateEat)],
      expected: text(4, "ate"),
    },
    {
      label: "lookup_spanish ate",
      args: [call(5, "lookup_spanish", { english_form: "ate" })],
      expected: text(5, "comió"),
    },
    {
      label: "lookup_irregular_verb go",
      args: [call(6, "lookup_irregular_verb", { verb: "go" })],
      expected: text(
        6,
        '{"verb":"go","irregular":true,"past_simple":"went","past_participle":"gone"}',
      ),
    },
    {
      label: "conjugate run: in the schema, outside the tool's scope",
      args: [call(7, "conjugate", { ...conjugateEat, verb: "run" })],
      expected: text(7, "", true),
    },
    {
      label: "an unknown tool",
      args: [call(8, "not_a_tool", {})],
      expected: error(8, -32602),
    },
    {
      label: "arguments that break the schema (person 4sg)",
      args: [call(9, "conjugate", { ...conjugateEat, person: "4sg" })],
      expected: error(9, -32602),
    },
    {
      label: "tools/list at 2026-07-28",
      args: [modern("tools/list", {}, 50)],
      expected: toolList(50, "modern"),
    },
    {
      label: "conjugate eat at 2026-07-28",
      args: [modern("tools/call", { name: "conjugate", arguments: conjugateEat }, 51)],
      expected: text(51, "ate", false, "modern"),
    },
    {
      label: "conjugate run at 2026-07-28",
      args: [
        modern(
          "tools/call",
          { name: "conjugate", arguments: { ...conjugateEat, verb: "run" } },
          52,
        ),
      ],
      expected: text(52, "", true, "modern"),
    },
    {
      label: "an unknown tool at 2026-07-28",
      args: [modern("tools/call", { name: "not_a_tool", arguments: {} }, 53)],
      expected: error(53, -32602),
    },
    {
      label: "arguments that break the schema at 2026-07-28: the tool's failure",
      args: [
        modern(
          "tools/call",
          { name: "conjugate", arguments: { ...conjugateEat, person: "4sg" } },
          54,
        ),
      ],
      expected: text(54, "", true, "modern"),
    },
  ],
};

/** Lab 01's visible cases, by the graded function's name. */
export const CASES: Readonly<Record<"negotiateVersion" | "handleMessage", readonly GradeCase[]>> = {
  negotiateVersion: [
    { label: "the version this server speaks best", args: [LATEST], expected: LATEST },
    { label: "an older version it also speaks", args: ["2024-11-05"], expected: "2024-11-05" },
    { label: "a version it does not speak gets its own", args: ["2025-03-26"], expected: LATEST },
    { label: "a version from the future gets its own", args: ["2099-01-01"], expected: LATEST },
    {
      label: "2026-07-28, which has no handshake, gets the handshake's newest",
      args: [MODERN],
      expected: LATEST,
    },
  ],
  handleMessage: Object.values(HANDLE_MESSAGE_STEPS).flat(),
};

/**
 * Lab 01's visible cases: the notebook's grade tables show them, and the
 * autograder runs them again on the learner's code. The hidden cases are
 * held back: only the instructors' grader has them.
 *
 * `handleMessage` is given one line a client sent and returns the reply line
 * (or `undefined`); {@linkcode replyShape} turns that reply into the form the
 * expected values are written in.
 *
 * @module
 */

import type { GradeCase } from "../lib/grading/grading.ts";
import { isObject, type JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { GRAMMAR_TOOLS } from "../lib/course/grammar_tools.ts";
import { nameValue } from "../lib/notebook/value_names.ts";

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

/** The shape of a `tools/call` result with one text item. */
export function text(id: string | number, value: string, isError = false): JsonObject {
  const shown = value.length > 30 ? `${value.slice(0, 29)}…` : value;
  const quoted = shown.includes('"') ? `'${shown}'` : `"${shown}"`;
  const said = isError ? "a tool's failure (isError: true)" : `the text ${quoted}`;
  return named(
    `${said}, id ${JSON.stringify(id)}`,
    result(id, { content: [{ type: "text", text: isError ? TOOL_MESSAGE : value }], isError }),
  );
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
 * say something, but its words are the server's), an `initialize` result
 * reduced to its version and whether it offers tools and names the server
 * and its version, a tool list
 * reduced to each tool's name and schema in name order, and a tool result to
 * its text items and `isError` (false when left out; the words of a failure
 * are not compared). Throws `TypeError` for a reply that is not one line of
 * JSON text, which no client could read.
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
    const { code, message } = value.error;
    shaped.error = isWords(message) ? { code } : { code, message };
  }
  if (isObject(value.result)) shaped.result = resultShape(value.result);
  return shaped;
}

function resultShape(result: JsonObject): unknown {
  if ("protocolVersion" in result) {
    const { protocolVersion, capabilities, serverInfo } = result;
    return {
      protocolVersion,
      toolsCapability: isObject(capabilities) && isObject(capabilities.tools),
      serverInfo: isObject(serverInfo) && isWords(serverInfo.name) && isWords(serverInfo.version),
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

function isWords(text: unknown): boolean {
  return typeof text === "string" && text.trim() !== "";
}

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

const LATEST = "2025-06-18";
const conjugateEat = { verb: "eat", tense: "past_simple", person: "3sg" };

/**
 * `handleMessage`'s visible cases in the three steps the notebook grades it
 * in: the envelope (what is not a request, or owes nothing); initialize,
 * ping and unknown methods; the tools.
 */
export const HANDLE_MESSAGE_STEPS: Readonly<
  Record<"envelope" | "requests" | "tools", readonly GradeCase[]>
> = {
  envelope: [
    { label: "a line that is not JSON", args: ["this is not json"], expected: error(null, -32700) },
    {
      label: "a batch, which 2025-06-18 does not allow",
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
  requests: [
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
    { label: "tools/list", args: [line("tools/list", {}, 3)], expected: result(3, TOOL_LIST) },
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
  ],
};

/** Lab 01's visible cases, by the graded function's name. */
export const CASES: Readonly<Record<"negotiateVersion" | "handleMessage", readonly GradeCase[]>> = {
  negotiateVersion: [
    { label: "the version this server speaks best", args: [LATEST], expected: LATEST },
    { label: "an older version it also speaks", args: ["2024-11-05"], expected: "2024-11-05" },
    { label: "a version it does not speak gets its own", args: ["2025-03-26"], expected: LATEST },
    { label: "a version from the future gets its own", args: ["2099-01-01"], expected: LATEST },
  ],
  handleMessage: [
    ...HANDLE_MESSAGE_STEPS.envelope,
    ...HANDLE_MESSAGE_STEPS.requests,
    ...HANDLE_MESSAGE_STEPS.tools,
  ],
};

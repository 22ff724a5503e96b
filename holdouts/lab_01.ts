/**
 * Lab 01's hidden cases. Instructors' repository and the autograder package
 * only: the learners' release leaves this folder out.
 *
 * @module
 */

import {
  call,
  discovered,
  error,
  initialize,
  initialized,
  LATEST,
  line,
  meta,
  MODERN,
  modern,
  NO_REPLY,
  result,
  text,
  TOOL_LIST,
  toolList,
  unsupported,
} from "../cases/lab_01.ts";
import { META } from "../lib/mcp/shared/meta.ts";
import type { HiddenCase } from "../tools/grading/spec.ts";
import { decoys } from "./watermark.ts";

const eat = { verb: "eat", tense: "past_simple", person: "3sg" };

/** Only a version the server speaks, exactly as written, is kept: one group, graded together. */
const KEPT_EXACTLY = "a version it speaks is kept, and only exactly";

/** Lab 01's hidden cases, by the graded function's name. */
export const HOLDOUTS: Readonly<
  Record<"negotiateVersion" | "handleMessage", readonly HiddenCase[]>
> = {
  negotiateVersion: [
    {
      label: "a tool's name, not a version",
      args: ["amber_cloud_delta"],
      expected: LATEST,
      group: KEPT_EXACTLY,
    },
    // The watermark's twins' look in each of its six settings: a copy that spoils twins by their
    // shape or features spoils these too.
    ...decoys("negotiateVersion#version", KEPT_EXACTLY),
    {
      label: "a name and an older version",
      args: ["2024-11-05 maple_river_stone"],
      expected: LATEST,
      group: KEPT_EXACTLY,
    },
    {
      label: "the older version, asked for again",
      args: ["2024-11-05"],
      expected: "2024-11-05",
      group: KEPT_EXACTLY,
    },
    {
      label: "a version with a space after it",
      args: ["2024-11-05 "],
      expected: LATEST,
      group: KEPT_EXACTLY,
    },
    { label: "an empty version", args: [""], expected: LATEST, group: KEPT_EXACTLY },
    { label: "the first MCP version", args: ["2024-10-07"], expected: LATEST, group: KEPT_EXACTLY },
    {
      label: "a version given as a number",
      args: [20250618],
      expected: LATEST,
      group: KEPT_EXACTLY,
    },
    {
      label: "2026-07-28 with a space after it",
      args: [`${MODERN} `],
      expected: LATEST,
      group: KEPT_EXACTLY,
    },
    // Anything at all: a name every object inherits, or a list holding a version the server speaks
    // (round 14 of issue 38's red team: a lookup in a plain object, and String(requested)).
    {
      label: "toString, which every object has",
      args: ["toString"],
      expected: LATEST,
      group: KEPT_EXACTLY,
    },
    {
      label: "a list holding the older version",
      args: [["2024-11-05"]],
      expected: LATEST,
      group: KEPT_EXACTLY,
    },
  ],
  handleMessage: [
    {
      label: "an id named as a tool is",
      args: [line("ping", undefined, "amber_cloud_delta")],
      expected: result("amber_cloud_delta", {}),
      group: "names of three words",
    },
    {
      label: "a tool of three words the server does not have",
      args: [line("tools/call", { name: "maple_river_stone", arguments: {} }, 23)],
      expected: error(23, -32602),
      group: "names of three words",
    },
    ...decoys("handleMessage#id", "names of three words"),
    ...decoys("handleMessage#method", "names of three words", [1, 4]),
    ...decoys("handleMessage#tool", "names of three words", [2, 5]),
    // Ids: exactly as sent, whatever their type; none that MCP forbids.
    { label: "id 0", args: [line("ping", undefined, 0)], expected: result(0, {}) },
    { label: 'the string id "7"', args: [line("ping", undefined, "7")], expected: result("7", {}) },
    { label: "an empty string id", args: [line("ping", undefined, "")], expected: result("", {}) },
    // An integer below zero is an id too: a whole number, and one MCP allows (round 14).
    { label: "a negative id", args: [line("ping", undefined, -1)], expected: result(-1, {}) },
    {
      label: "a large integer id",
      args: [line("tools/list", undefined, 9007199254740991)],
      expected: result(9007199254740991, TOOL_LIST),
    },
    // Past 2 ** 53 a JavaScript number holds no integer exactly: 9007199254740993 is read as
    // ...992, so a reply could not carry the very same id. Refused, as the table says (round 14 left
    // "any integer is an id" open; the table now names the limit, as the library's isId does).
    {
      label: "an id past 2 ** 53, which no reply could carry as it was sent",
      args: ['{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}'],
      expected: error(null, -32600),
    },
    {
      label: "id null, which MCP forbids",
      args: [line("ping", undefined, null)],
      expected: error(null, -32600),
    },
    {
      label: "a fractional id",
      args: ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}'],
      expected: error(null, -32600),
    },
    {
      label: "jsonrpc 1.0",
      args: ['{"jsonrpc":"1.0","id":21,"method":"ping"}'],
      expected: error(21, -32600),
    },
    {
      label: "a method that is not a string",
      args: ['{"jsonrpc":"2.0","id":22,"method":7}'],
      expected: error(22, -32600),
    },
    // Silence where nothing is owed.
    {
      label: "a cancellation notification",
      args: [line("notifications/cancelled", { requestId: 3, reason: "late" })],
      expected: NO_REPLY,
    },
    {
      label: "a notification the server does not know",
      args: [line("notifications/roots/list_changed")],
      expected: NO_REPLY,
    },
    {
      label: "a response from the client",
      args: ['{"jsonrpc":"2.0","id":"s-1","result":{}}'],
      expected: NO_REPLY,
    },
    {
      label: "an error response from the client",
      args: ['{"jsonrpc":"2.0","id":"s-2","error":{"code":-32601,"message":"no sampling here"}}'],
      expected: NO_REPLY,
    },
    {
      label: "an object with an id and nothing else",
      args: ['{"jsonrpc":"2.0","id":41}'],
      expected: error(41, -32600),
    },
    {
      label: "a request that also carries a result is still a request",
      args: ['{"jsonrpc":"2.0","id":42,"method":"ping","result":{}}'],
      expected: result(42, {}),
    },
    {
      label: "ping with params given as a list",
      args: ['{"jsonrpc":"2.0","id":43,"method":"ping","params":[]}'],
      expected: error(43, -32602),
    },
    // Round 14 of issue 38's red team: "2.0" compared loosely, params of null taken for none, and
    // params checked before a notification is known.
    {
      label: "jsonrpc given as the number 2.0",
      args: ['{"jsonrpc":2.0,"id":44,"method":"ping"}'],
      expected: error(44, -32600),
    },
    {
      label: "ping with params null",
      args: ['{"jsonrpc":"2.0","id":45,"method":"ping","params":null}'],
      expected: error(45, -32602),
    },
    {
      label: "a notification with params that are not an object gets no reply",
      args: ['{"jsonrpc":"2.0","method":"notifications/cancelled","params":"late"}'],
      expected: NO_REPLY,
    },
    // An empty method is a string: the method it names is not found (a truthiness test says -32600).
    {
      label: "an empty method is a method not found",
      args: ['{"jsonrpc":"2.0","id":48,"method":""}'],
      expected: error(48, -32601),
    },
    // A blank line is not JSON: a parse error, as the table says, not skipped as the SDK skips it.
    { label: "a line of no characters is no JSON", args: [""], expected: error(null, -32700) },
    // _meta of null is not an object naming a version: the handshake's, not a crash on `in`.
    {
      label: "ping with _meta null is the handshake's",
      args: [line("ping", { _meta: null }, 49)],
      expected: result(49, {}),
    },
    // An empty protocolVersion is a string: negotiated like any other, never refused.
    {
      label: "initialize asking for an empty version",
      args: [initialize("empty", "")],
      expected: initialized("empty", LATEST),
    },
    // A list holding a tool's name is not its name: == finds conjugate for ["conjugate"].
    {
      label: "a tool's name given in a list",
      args: [call(54, ["conjugate"], eat)],
      expected: error(54, -32602),
    },
    // Lines that are not requests.
    {
      label: "half a JSON object",
      args: ['{"jsonrpc":"2.0","id":1,'],
      expected: error(null, -32700),
    },
    { label: "an empty batch", args: ["[]"], expected: error(null, -32600) },
    {
      label: "a bare JSON number instead of a request",
      args: ["42"],
      expected: error(null, -32600),
    },
    {
      label: "a bare JSON null instead of a request",
      args: ["null"],
      expected: error(null, -32600),
    },
    // The handshake.
    {
      label: "initialize asking for 2025-03-26, which allowed batches",
      args: [initialize("init", "2025-03-26")],
      expected: initialized("init", LATEST),
    },
    {
      label: "initialize with no protocolVersion",
      args: [line("initialize", { capabilities: {} }, 23)],
      expected: error(23, -32602),
    },
    {
      label: "params that are not an object",
      args: ['{"jsonrpc":"2.0","id":24,"method":"tools/call","params":["conjugate"]}'],
      expected: error(24, -32602),
    },
    // Tool calls: protocol errors.
    { label: "no tool name", args: [call(25, undefined, eat)], expected: error(25, -32602) },
    {
      label: "a tool named __proto__",
      args: [call(26, "__proto__", {})],
      expected: error(26, -32602),
    },
    {
      label: "a tool named toString",
      args: [call(27, "toString", {})],
      expected: error(27, -32602),
    },
    {
      label: "a verb outside the enum",
      args: [call(28, "conjugate", { ...eat, verb: "fly" })],
      expected: error(28, -32602),
    },
    {
      label: "a missing argument",
      args: [call(29, "conjugate", { verb: "eat", tense: "past_simple" })],
      expected: error(29, -32602),
    },
    {
      label: "an argument the schema does not have",
      args: [call(30, "lookup_irregular_verb", { verb: "go", mood: "bold" })],
      expected: error(30, -32602),
    },
    {
      label: "an argument of the wrong type",
      args: [call(31, "lookup_spanish", { english_form: 5 })],
      expected: error(31, -32602),
    },
    {
      label: "an empty english_form",
      args: [call(32, "lookup_spanish", { english_form: "" })],
      expected: error(32, -32602),
    },
    {
      label: "arguments given as a bare string",
      args: [call(33, "lookup_irregular_verb", "go")],
      expected: error(33, -32602),
    },
    {
      label: "no arguments for a tool that needs some",
      args: [call(34, "check_subject_verb_agreement")],
      expected: error(34, -32602),
    },
    // Tool calls: results, and failures the tool reports itself.
    {
      label: "a word the Spanish lookup does not know",
      args: [call(35, "lookup_spanish", { english_form: "flew" })],
      expected: text(35, "", true),
    },
    {
      label: "conjugate be present_simple 1sg",
      args: [call(36, "conjugate", { verb: "be", tense: "present_simple", person: "1sg" })],
      expected: text(36, "am"),
    },
    {
      label: "subject and verb agreeing: he go",
      args: [call("sv", "check_subject_verb_agreement", { subject: "he", verb_form: "go" })],
      expected: text(
        "sv",
        '{"subject":"he","verb_form":"go","agrees":false,"expected":"goes"}',
      ),
    },
    {
      label: "an unknown method with a string id",
      args: [line("prompts/get", { name: "x" }, "p")],
      expected: error("p", -32601),
    },
    // Today's protocol: what a request carries, checked before anything else.
    {
      label: "server/discover whose _meta is a string",
      args: [modern("server/discover", {}, 60, MODERN)],
      expected: error(60, -32602),
    },
    {
      label: "client capabilities given as a list",
      args: [modern("server/discover", {}, 61, meta(MODERN, { [META.clientCapabilities]: [] }))],
      expected: error(61, -32602),
    },
    {
      label: "a 2026-07-28 _meta with no version, only capabilities, on server/discover",
      args: [
        modern("server/discover", {}, 62, meta(MODERN, { [META.protocolVersion]: undefined })),
      ],
      expected: error(62, -32602),
    },
    {
      label: "today's version with a space after it",
      args: [modern("tools/list", {}, 63, meta(`${MODERN} `))],
      expected: unsupported(63, `${MODERN} `),
    },
    {
      label: "the first handshake version in _meta",
      args: [modern("server/discover", {}, 64, meta("2024-11-05"))],
      expected: unsupported(64, "2024-11-05"),
    },
    {
      label: "an empty version in _meta",
      args: [modern("tools/call", { name: "conjugate", arguments: eat }, "v", meta(""))],
      expected: unsupported("v", ""),
    },
    {
      label: "an unknown version on a call to a tool that does not exist",
      args: [modern("tools/call", { name: "not_a_tool" }, 65, meta("2030-01-01"))],
      expected: unsupported(65, "2030-01-01"),
    },
    {
      label: "a _meta with only a progress token is the handshake's",
      args: [line("tools/list", { _meta: { progressToken: 7 } }, 66)],
      expected: result(66, TOOL_LIST),
    },
    {
      label: "protocolVersion in params, not in _meta, is the handshake's",
      args: [line("tools/list", { protocolVersion: MODERN }, 67)],
      expected: result(67, TOOL_LIST),
    },
    // Today's answers: server/discover whatever came before, and no handshake methods.
    {
      label: "server/discover with id 0",
      args: [modern("server/discover", {}, 0)],
      expected: discovered(0),
    },
    {
      label: "server/discover with capabilities declared",
      args: [
        modern(
          "server/discover",
          {},
          68,
          meta(MODERN, { [META.clientCapabilities]: { elicitation: {} } }),
        ),
      ],
      expected: discovered(68),
    },
    {
      label: "ping of 2026-07-28 with a string id",
      args: [modern("ping", {}, "p-7")],
      expected: error("p-7", -32601),
    },
    {
      label: "logging/setLevel, which 2026-07-28 does not have",
      args: [modern("logging/setLevel", { level: "info" }, 69)],
      expected: error(69, -32601),
    },
    {
      label: "a notification that carries today's _meta gets no reply",
      args: [
        JSON.stringify({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: 1, _meta: meta() },
        }),
      ],
      expected: NO_REPLY,
    },
    {
      label: "a 2026-07-28 tools/list with params that are not an object",
      args: ['{"jsonrpc":"2.0","id":70,"method":"tools/list","params":"_meta"}'],
      expected: error(70, -32602),
    },
    // Tool calls at 2026-07-28.
    {
      label: "lookup_irregular_verb go at 2026-07-28",
      args: [
        modern("tools/call", { name: "lookup_irregular_verb", arguments: { verb: "go" } }, 71),
      ],
      expected: text(
        71,
        '{"verb":"go","irregular":true,"past_simple":"went","past_participle":"gone"}',
        false,
        "modern",
      ),
    },
    {
      label: "a word the Spanish lookup does not know, at 2026-07-28",
      args: [
        modern("tools/call", { name: "lookup_spanish", arguments: { english_form: "flew" } }, 72),
      ],
      expected: text(72, "", true, "modern"),
    },
    {
      label: "a missing argument at 2026-07-28: the tool's failure",
      args: [
        modern("tools/call", {
          name: "conjugate",
          arguments: { verb: "eat", tense: "past_simple" },
        }, 73),
      ],
      expected: text(73, "", true, "modern"),
    },
    {
      label: "no arguments at 2026-07-28 for a tool that needs some: the tool's failure",
      args: [modern("tools/call", { name: "check_subject_verb_agreement" }, 74)],
      expected: text(74, "", true, "modern"),
    },
    {
      label: "a word for arguments at 2026-07-28: a malformed request, not the tool's failure",
      args: [modern("tools/call", { name: "lookup_irregular_verb", arguments: "go" }, 77)],
      expected: error(77, -32602),
    },
    {
      label: "a list for arguments at 2026-07-28: a malformed request, not the tool's failure",
      args: [modern("tools/call", { name: "lookup_irregular_verb", arguments: ["go"] }, 78)],
      expected: error(78, -32602),
    },
    {
      label: "null for arguments at 2026-07-28: there, and not an object, so a malformed request",
      args: [modern("tools/call", { name: "lookup_irregular_verb", arguments: null }, 79)],
      expected: error(79, -32602),
    },
    {
      label: "no tool name at 2026-07-28",
      args: [modern("tools/call", { arguments: eat }, 75)],
      expected: error(75, -32602),
    },
    {
      label: "a tool named __proto__ at 2026-07-28",
      args: [modern("tools/call", { name: "__proto__", arguments: {} }, 76)],
      expected: error(76, -32602),
    },
    {
      label: "tools/list at 2026-07-28 with a string id",
      args: [modern("tools/list", {}, "list")],
      expected: toolList("list", "modern"),
    },
    {
      label: "initialize asking for 2026-07-28, which has no handshake",
      args: [initialize("i", MODERN)],
      expected: initialized("i", LATEST),
    },
  ],
};

/**
 * Unit A's hidden cases. Instructors' repository and the autograder package
 * only: the learners' release leaves this folder out.
 *
 * @module
 */

import { CATALOG, reply } from "../cases/ch14_a.ts";
import type { HiddenCase } from "../tools/grading/spec.ts";
import { decoys } from "./watermark.ts";

const refused = { throws: "ProtocolError" };

/**
 * Unit A's hidden cases, by the graded function's name. Each group tests one
 * rule from both sides: a reply that answers, beside ones that do not; a tool
 * allowed, beside names that only look like it.
 */
export const HOLDOUTS: Readonly<Record<"answerFor" | "authorize", readonly HiddenCase[]>> = {
  answerFor: [
    {
      label: "an id named as a tool is",
      args: ["amber_cloud_delta", reply("amber_cloud_delta")],
      expected: reply("amber_cloud_delta").result,
      group: "names of three words",
    },
    {
      label: "a text that names a tool",
      args: [9, reply(9, "called maple_river_stone")],
      expected: reply(9, "called maple_river_stone").result,
      group: "names of three words",
    },
    {
      label: "an id named as a tool, answered by another",
      args: ["amber_cloud_delta", reply("crisp_lunar_otter")],
      expected: refused,
      group: "names of three words",
    },
    // The watermark's twins' look in four settings of its six (one text or more, a _meta, ids of
    // two to four digits): a copy that spoils a third of a mark's twins by their shape or features
    // (it must, to hide) spoils one of these. Four, not six: each is a call the class's slowest
    // code pays for.
    ...decoys("reply#text", "names of three words", [1, 2, 3, 5]),
    {
      label: "id 0 is a real id",
      args: [0, reply(0)],
      expected: reply(0).result,
      group: "id 0",
    },
    {
      label: "id 0 does not answer request '0'",
      args: ["0", reply(0)],
      expected: refused,
      group: "id 0",
    },
    {
      label: "a reply with request 1's id answers request 1",
      args: [1, reply(1)],
      expected: reply(1).result,
      group: "id null",
    },
    {
      label: "an error response without an id",
      args: [1, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }],
      expected: refused,
      group: "id null",
    },
    {
      label: "a result with id null answers no request",
      args: [1, { jsonrpc: "2.0", id: null, result: reply(1).result }],
      expected: refused,
      group: "id null",
    },
    {
      label: "a reply with request 2's id answers request 2",
      args: [2, reply(2)],
      expected: reply(2).result,
      group: "no id",
    },
    {
      label: "a reply with no id at all answers no request",
      args: [2, { jsonrpc: "2.0", result: reply(2).result }],
      expected: refused,
      group: "no id",
    },
    {
      label: "string ids that differ only in their letters' case",
      args: ["req-7", reply("REQ-7")],
      expected: refused,
      group: "letters' case",
    },
    {
      label: "an upper-case string id, matched exactly",
      args: ["REQ-7", reply("REQ-7")],
      expected: reply("REQ-7").result,
      group: "letters' case",
    },
    {
      label: "an error response with an empty message",
      args: [8, { jsonrpc: "2.0", id: 8, error: { code: -32603, message: "" } }],
      expected: refused,
      group: "empty",
    },
    {
      label: "a result whose text is empty is still an answer",
      args: [8, reply(8, "")],
      expected: reply(8, "").result,
      group: "empty",
    },
    // An error response is refused whatever its code holds (round 14 of issue 38's red team).
    {
      label: "an error response whose code is text",
      args: [8, { jsonrpc: "2.0", id: 8, error: { code: "-32603", message: "internal" } }],
      expected: refused,
    },
    // A response holds a result or an error, never both (JSON-RPC 2.0: "both members MUST NOT be
    // included"): one with both is no answer, whatever its result says (round 14 of issue 38's
    // red team).
    {
      label: "a reply with a result and an error both",
      args: [9, { ...reply(9, "4"), error: { code: -32603, message: "internal" } }],
      expected: refused,
    },
    // Exactly the same string: not once trimmed, put in one Unicode form, or sent as UTF-8, where
    // two lone surrogates both become U+FFFD (round 14 of issue 38's red team).
    {
      label: "a string id with a space after it answers no request",
      args: ["req-7", reply("req-7 ")],
      expected: refused,
      group: "exactly",
    },
    {
      label: "a string id in another Unicode form answers no request",
      args: ["caf\u00e9", reply("cafe\u0301")],
      expected: refused,
      group: "exactly",
    },
    {
      label: "two lone surrogates are two ids",
      args: ["\ud800", reply("\udc00")],
      expected: refused,
      group: "exactly",
    },
    {
      label: "a string id with a space after it, matched exactly",
      args: ["req-7 ", reply("req-7 ")],
      expected: reply("req-7 ").result,
      group: "exactly",
    },
    {
      label: "a lone surrogate, matched exactly",
      args: ["\ud800", reply("\ud800")],
      expected: reply("\ud800").result,
      group: "exactly",
    },
  ],
  authorize: [
    {
      label: "a tool of three words, advertised and allowed",
      args: ["crisp_lunar_otter", { crisp_lunar_otter: {} }, new Set(["crisp_lunar_otter"])],
      expected: true,
      group: "names of three words",
    },
    {
      label: "a tool of three words, advertised, another allowed",
      args: ["crisp_lunar_otter", { crisp_lunar_otter: {} }, new Set(["maple_river_stone"])],
      expected: false,
      group: "names of three words",
    },
    // The watermark's twins' look in four settings of its six, each a name of three words: a copy
    // that spoils a third of a mark's twins by their shape or features (it must, to hide) spoils
    // one of these. Four, not six: each is a call the class's slowest code pays for.
    ...decoys("authorize#allow", "names of three words", [1, 2, 3, 5]),
    {
      label: "constructor is not a tool",
      args: ["constructor", CATALOG, new Set(["constructor"])],
      expected: false,
      group: "inherited names",
    },
    {
      label: "__proto__ is not a tool",
      args: ["__proto__", CATALOG, new Set(["__proto__"])],
      expected: false,
      group: "inherited names",
    },
    {
      label: "a tool named hasOwnProperty",
      args: ["hasOwnProperty", { hasOwnProperty: {} }, new Set(["hasOwnProperty"])],
      expected: true,
      group: "inherited names",
    },
    {
      label: "a tool named constructor, advertised and allowed",
      args: ["constructor", { constructor: {} }, new Set(["constructor"])],
      expected: true,
      group: "inherited names",
    },
    {
      label: "a prefix of a tool's name is not the tool",
      args: ["word", CATALOG, new Set(["word"])],
      expected: false,
      group: "whole names",
    },
    {
      label: "a name with a space before it is another tool",
      args: [" word_count", CATALOG, new Set([" word_count"])],
      expected: false,
      group: "whole names",
    },
    {
      label: "a longer name that starts with a tool's name",
      args: ["word_count_all", CATALOG, new Set(["word_count_all"])],
      expected: false,
      group: "whole names",
    },
    {
      label: "a tool whose name is the start of another's",
      args: ["word", { word: {}, word_count: {} }, new Set(["word"])],
      expected: true,
      group: "whole names",
    },
    {
      label: "a name in other letters' case is another tool",
      args: ["Word_Count", CATALOG, new Set(["Word_Count"])],
      expected: false,
      group: "letters' case",
    },
    {
      label: "a tool named in capitals, advertised and allowed",
      args: ["Word_Count", { Word_Count: {} }, new Set(["Word_Count"])],
      expected: true,
      group: "letters' case",
    },
    {
      label: "a name in another Unicode form is another tool",
      args: ["cafe\u0301", { "caf\u00e9": {} }, new Set(["caf\u00e9"])],
      expected: false,
      group: "Unicode forms",
    },
    {
      label: "a name beyond ASCII, in the catalog's own form",
      args: ["caf\u00e9", { "caf\u00e9": {} }, new Set(["caf\u00e9"])],
      expected: true,
      group: "Unicode forms",
    },
    {
      label: "nothing advertised",
      args: ["word_count", {}, new Set(["word_count"])],
      expected: false,
      group: "advertised",
    },
    {
      label: "the only tool advertised, and allowed",
      args: ["word_count", { word_count: {} }, new Set(["word_count"])],
      expected: true,
      group: "advertised",
    },
    // A key is what advertises a tool, whatever it holds; and the answer is a boolean, even for a
    // name that is empty (round 14 of issue 38's red team).
    {
      label: "a tool whose entry is null is still advertised",
      args: ["word_count", { word_count: null }, new Set(["word_count"])],
      expected: true,
      group: "advertised",
    },
    {
      label: "an empty name, neither advertised nor allowed",
      args: ["", CATALOG, new Set(["word_count"])],
      expected: false,
      group: "advertised",
    },
  ],
};

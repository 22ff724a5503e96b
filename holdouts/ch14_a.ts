/**
 * Unit A's hidden cases. Instructors' repository and the autograder package
 * only: the learners' release leaves this folder out.
 *
 * @module
 */

import { CATALOG, reply } from "../cases/ch14_a.ts";
import type { GradeCase } from "../lib/grading/grading.ts";

/** Unit A's hidden cases, by the graded function's name. */
export const HOLDOUTS: Readonly<Record<"answerFor" | "authorize", readonly GradeCase[]>> = {
  answerFor: [
    { label: "id 0 is a real id", args: [0, reply(0)], expected: reply(0).result },
    {
      label: "id 0 does not answer request '0'",
      args: ["0", reply(0)],
      expected: { throws: "ProtocolError" },
    },
    {
      label: "an error response without an id",
      args: [1, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }],
      expected: { throws: "ProtocolError" },
    },
    {
      label: "a result with id null answers no request",
      args: [1, { jsonrpc: "2.0", id: null, result: reply(1).result }],
      expected: { throws: "ProtocolError" },
    },
    {
      label: "a reply with no id at all answers no request",
      args: [2, { jsonrpc: "2.0", result: reply(2).result }],
      expected: { throws: "ProtocolError" },
    },
    {
      label: "string ids that differ only in their letters' case",
      args: ["req-7", reply("REQ-7")],
      expected: { throws: "ProtocolError" },
    },
    {
      label: "an error response with an empty message",
      args: [8, { jsonrpc: "2.0", id: 8, error: { code: -32603, message: "" } }],
      expected: { throws: "ProtocolError" },
    },
  ],
  authorize: [
    {
      label: "constructor is not a tool",
      args: ["constructor", CATALOG, new Set(["constructor"])],
      expected: false,
    },
    {
      label: "__proto__ is not a tool",
      args: ["__proto__", CATALOG, new Set(["__proto__"])],
      expected: false,
    },
    {
      label: "a prefix of a tool's name is not the tool",
      args: ["word", CATALOG, new Set(["word"])],
      expected: false,
    },
    {
      label: "a name in other letters' case is another tool",
      args: ["Word_Count", CATALOG, new Set(["Word_Count"])],
      expected: false,
    },
    {
      label: "a tool named hasOwnProperty",
      args: ["hasOwnProperty", { hasOwnProperty: {} }, new Set(["hasOwnProperty"])],
      expected: true,
    },
    {
      label: "a name with a space before it is another tool",
      args: [" word_count", CATALOG, new Set([" word_count"])],
      expected: false,
    },
    {
      label: "a longer name that starts with a tool's name",
      args: ["word_count_all", CATALOG, new Set(["word_count_all"])],
      expected: false,
    },
    {
      label: "a name in another Unicode form is another tool",
      args: ["cafe\u0301", { "caf\u00e9": {} }, new Set(["caf\u00e9"])],
      expected: false,
    },
    {
      label: "nothing advertised",
      args: ["word_count", {}, new Set(["word_count"])],
      expected: false,
    },
  ],
};

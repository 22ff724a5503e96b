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
      label: "nothing advertised",
      args: ["word_count", {}, new Set(["word_count"])],
      expected: false,
    },
  ],
};

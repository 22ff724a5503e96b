/**
 * Unit A's visible cases: the notebook's grade tables show them, and the
 * autograder runs them again on the learner's code. The hidden cases are
 * held back: only the instructors' grader has them.
 *
 * @module
 */

import type { GradeCase } from "../lib/grading/grading.ts";
import type { JsonObject, RequestId } from "../lib/mcp/shared/jsonrpc.ts";

/**
 * A successful reply to request `id`, whose result holds `text`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(reply(3).result, { content: [{ type: "text", text: "4" }] });
 * ```
 */
export function reply(
  id: RequestId | null,
  text = "4",
): { jsonrpc: "2.0"; id: RequestId | null; result: JsonObject } {
  return { jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } };
}

/** The catalog the teaching server advertises, as `authorize` receives it. */
export const CATALOG = { word_count: {}, place_purchase: {} };

/** Unit A's visible cases, by the graded function's name. */
export const CASES: Readonly<Record<"answerFor" | "authorize", readonly GradeCase[]>> = {
  answerFor: [
    { label: "the reply to the waiting request", args: [3, reply(3)], expected: reply(3).result },
    {
      label: "a string id, matched exactly",
      args: ["req-7", reply("req-7")],
      expected: reply("req-7").result,
    },
    {
      label: "a late reply to the previous request",
      args: [4, reply(3)],
      expected: { throws: "ProtocolError" },
    },
    {
      label: "the string '3' for request 3",
      args: [3, reply("3")],
      expected: { throws: "ProtocolError" },
    },
    {
      label: "an error response to the waiting request",
      args: [5, { jsonrpc: "2.0", id: 5, error: { code: -32602, message: "Unknown tool" } }],
      expected: { throws: "ProtocolError" },
    },
  ],
  authorize: [
    {
      label: "advertised and allowed",
      args: ["word_count", CATALOG, new Set(["word_count"])],
      expected: true,
    },
    {
      label: "advertised, not allowed",
      args: ["place_purchase", CATALOG, new Set(["word_count"])],
      expected: false,
    },
    {
      label: "allowed, never advertised",
      args: ["delete_files", CATALOG, new Set(["delete_files"])],
      expected: false,
    },
    { label: "nothing allowed", args: ["word_count", CATALOG, new Set()], expected: false },
    {
      label: "a name every object inherits",
      args: ["toString", CATALOG, new Set(["toString"])],
      expected: false,
    },
  ],
};

/**
 * Lab 02's hidden cases. Instructors' repository and the autograder package
 * only: the learners' release leaves this folder out.
 *
 * @module
 */

import type { GradeCase } from "../lib/grading.ts";

const refused = { throws: "ProtocolError" };

/** Lab 02's hidden cases, by the graded function's name. */
export const HOLDOUTS: Readonly<Record<"correlate" | "unwrap", readonly GradeCase[]>> = {
  correlate: [
    {
      label: "id 0 answers request 0",
      args: [0, { jsonrpc: "2.0", id: 0, result: {} }],
      expected: {},
    },
    {
      label: 'id 0 does not answer request "0"',
      args: ["0", { jsonrpc: "2.0", id: 0, result: {} }],
      expected: refused,
    },
    {
      label: "an error reply for another id",
      args: [5, { jsonrpc: "2.0", id: 4, error: { code: -32601, message: "Method not found" } }],
      // Refused for its id: the server's code belongs to another request.
      expected: { throws: "ProtocolError", with: { code: undefined } },
    },
    {
      label: "an error reply keeps its data",
      args: [6, {
        jsonrpc: "2.0",
        id: 6,
        error: { code: -32000, message: "busy", data: { retry: 1 } },
      }],
      expected: { throws: "ProtocolError", with: { code: -32000, data: { retry: 1 } } },
    },
    {
      label: "an error with code 0 is still an error",
      args: [7, { jsonrpc: "2.0", id: 7, error: { code: 0, message: "zero" } }],
      expected: { throws: "ProtocolError", with: { code: 0 } },
    },
  ],
  unwrap: [
    { label: "an empty text stays empty", args: [""], expected: "" },
    { label: "JSON true", args: ["true"], expected: true },
    { label: "JSON null", args: ["null"], expected: null },
    { label: "a JSON array", args: ["[1,2]"], expected: [1, 2] },
    { label: "JSON with spaces around it", args: [" 7 "], expected: 7 },
    { label: "two words", args: ["has eaten"], expected: "has eaten" },
    { label: "text keeps its spaces", args: [" has eaten "], expected: " has eaten " },
    { label: "NaN is not JSON", args: ["NaN"], expected: "NaN" },
    { label: "Infinity is not JSON", args: ["Infinity"], expected: "Infinity" },
    { label: "JSON false", args: ["false"], expected: false },
    { label: "JSON zero", args: ["0"], expected: 0 },
    { label: "a JSON string that holds a number stays a string", args: ['"42"'], expected: "42" },
    { label: "single quotes are not JSON", args: ["'went'"], expected: "'went'" },
  ],
};

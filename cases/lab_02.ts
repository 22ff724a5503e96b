/**
 * Lab 02's visible cases: the notebook's grade tables show them, and the
 * autograder runs them again on the learner's code. The hidden cases are
 * held back: only the instructors' grader has them. The client's layers and the named tests have theirs in
 * `lab_02_client.ts`, with the helpers that write them.
 *
 * @module
 */

import type { GradeCase } from "../lib/grading/grading.ts";
import { CLIENT_CASES, type ClientLayer, type NamedTestName, TEST_CASES } from "./lab_02_client.ts";

const refused = { throws: "ProtocolError" };

/** Lab 02's visible cases, by the graded function's (or class's, or test's) name. */
export const CASES: Readonly<
  Record<"correlate" | "unwrap" | ClientLayer | NamedTestName, readonly GradeCase[]>
> = {
  ...CLIENT_CASES,
  ...TEST_CASES,
  correlate: [
    {
      label: "the reply to request 1",
      args: [1, { jsonrpc: "2.0", id: 1, result: { ok: true } }],
      expected: { ok: true },
    },
    {
      label: "a reply to another request",
      args: [2, { jsonrpc: "2.0", id: 1, result: { ok: true } }],
      expected: refused,
    },
    {
      label: 'the string "1" does not answer request 1',
      args: [1, { jsonrpc: "2.0", id: "1", result: {} }],
      expected: refused,
    },
    {
      label: "a string id that matches exactly",
      args: ["req-7", { jsonrpc: "2.0", id: "req-7", result: { n: 7 } }],
      expected: { n: 7 },
    },
    {
      label: "an error reply keeps the server's code",
      args: [3, { jsonrpc: "2.0", id: 3, error: { code: -32602, message: "Unknown tool: x" } }],
      expected: { throws: "ProtocolError", with: { code: -32602 } },
    },
    {
      label: "an error with id null answers no request",
      args: [3, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }],
      expected: refused,
    },
  ],
  unwrap: [
    { label: "a verb form stays a string", args: ["ate"], expected: "ate" },
    { label: "an accented word stays a string", args: ["comió"], expected: "comió" },
    {
      label: "a JSON object becomes an object",
      args: ['{"verb":"go","irregular":true}'],
      expected: { verb: "go", irregular: true },
    },
    { label: "a JSON number becomes a number", args: ["42"], expected: 42 },
    { label: "a quoted JSON string loses its quotes", args: ['"went"'], expected: "went" },
    {
      label: "text that only starts like JSON stays text",
      args: ['{"verb": go'],
      expected: '{"verb": go',
    },
  ],
};

// Lab 02: correlate and unwrap, with the notebook's visible cases and the
// hidden cases of its holdout cell.

import type { UnitSpec } from "../spec.ts";

const refused = { throws: "ProtocolError" };

/** Lab 02's graded functions. */
export const LAB_02: UnitSpec = {
  unit: "lab-02",
  imports: { "errors.ts": ["ProtocolError"], "not_implemented.ts": ["NotImplementedError"] },
  functions: [
    {
      name: "correlate",
      cell: "correlate",
      cases: [
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
        {
          label: "id 0 answers request 0",
          args: [0, { jsonrpc: "2.0", id: 0, result: {} }],
          expected: {},
          hidden: true,
        },
        {
          label: 'id 0 does not answer request "0"',
          args: ["0", { jsonrpc: "2.0", id: 0, result: {} }],
          expected: refused,
          hidden: true,
        },
        {
          label: "an error reply for another id",
          args: [5, {
            jsonrpc: "2.0",
            id: 4,
            error: { code: -32601, message: "Method not found" },
          }],
          // Refused for its id: the server's code belongs to another request.
          expected: { throws: "ProtocolError", with: { code: undefined } },
          hidden: true,
        },
        {
          label: "an error reply keeps its data",
          args: [6, {
            jsonrpc: "2.0",
            id: 6,
            error: { code: -32000, message: "busy", data: { retry: 1 } },
          }],
          expected: { throws: "ProtocolError", with: { code: -32000, data: { retry: 1 } } },
          hidden: true,
        },
      ],
    },
    {
      name: "unwrap",
      cell: "unwrap",
      cases: [
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
        { label: "an empty text stays empty", args: [""], expected: "", hidden: true },
        { label: "JSON true", args: ["true"], expected: true, hidden: true },
        { label: "JSON null", args: ["null"], expected: null, hidden: true },
        { label: "a JSON array", args: ["[1,2]"], expected: [1, 2], hidden: true },
        { label: "JSON with spaces around it", args: [" 7 "], expected: 7, hidden: true },
        { label: "two words", args: ["has eaten"], expected: "has eaten", hidden: true },
        {
          label: "text keeps its spaces",
          args: [" has eaten "],
          expected: " has eaten ",
          hidden: true,
        },
        { label: "NaN is not JSON", args: ["NaN"], expected: "NaN", hidden: true },
      ],
    },
  ],
  // The lab's saved files record the demo, not the graded functions: nothing to compare.
  claims: () => ({}),
};

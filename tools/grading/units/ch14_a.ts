// Unit A: answerFor and authorize, with the notebook's visible cases and the
// hidden cases of its holdout cell.

import type { UnitSpec } from "../spec.ts";

const reply = (id: string | number | null, text = "4") => ({
  jsonrpc: "2.0",
  id,
  result: { content: [{ type: "text", text }] },
});
const refused = { throws: "ProtocolError" };
const CATALOG = { word_count: {}, place_purchase: {} };

/** Unit A's graded functions. */
export const CH14_A: UnitSpec = {
  unit: "ch14-a",
  imports: { "errors.ts": ["ProtocolError"], "not_implemented.ts": ["NotImplementedError"] },
  functions: [
    {
      name: "answerFor",
      cell: "answer-for",
      cases: [
        {
          label: "the reply to the waiting request",
          args: [3, reply(3)],
          expected: reply(3).result,
        },
        {
          label: "a string id, matched exactly",
          args: ["req-7", reply("req-7")],
          expected: reply("req-7").result,
        },
        { label: "a late reply to the previous request", args: [4, reply(3)], expected: refused },
        { label: "the string '3' for request 3", args: [3, reply("3")], expected: refused },
        {
          label: "an error response to the waiting request",
          args: [5, { jsonrpc: "2.0", id: 5, error: { code: -32602, message: "Unknown tool" } }],
          expected: refused,
        },
        {
          label: "id 0 is a real id",
          args: [0, reply(0)],
          expected: reply(0).result,
          hidden: true,
        },
        {
          label: "id 0 does not answer request '0'",
          args: ["0", reply(0)],
          expected: refused,
          hidden: true,
        },
        {
          label: "an error response without an id",
          args: [1, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }],
          expected: refused,
          hidden: true,
        },
      ],
    },
    {
      name: "authorize",
      cell: "authorize",
      cases: [
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
        {
          label: "constructor is not a tool",
          args: ["constructor", CATALOG, new Set(["constructor"])],
          expected: false,
          hidden: true,
        },
        {
          label: "__proto__ is not a tool",
          args: ["__proto__", CATALOG, new Set(["__proto__"])],
          expected: false,
          hidden: true,
        },
      ],
    },
  ],
  // A COMPLETED handoff says both functions passed their visible cases.
  claims(handoff): Record<string, Record<string, boolean>> {
    if (handoff.status !== "COMPLETED") return {};
    const all = (name: string) =>
      Object.fromEntries(
        CH14_A.functions.find((fn) => fn.name === name)!.cases
          .filter((c) => !c.hidden)
          .map((c) => [c.label, true]),
      );
    return { answerFor: all("answerFor"), authorize: all("authorize") };
  },
};

import assert from "node:assert/strict";
import type { JsonObject } from "./jsonrpc.ts";
import { transferProblems } from "./transfer_problems.ts";

const DELIVERY = {
  type: "object",
  properties: { order_id: { type: "string" }, tubs: { type: "integer" } },
  required: ["order_id", "tubs"],
  additionalProperties: false,
};

// The six cases of the changed-constraint task, and the instructor's two more.
const CASES: [string, JsonObject, JsonObject, string[]][] = [
  ["valid arguments", DELIVERY, { order_id: "A-1043", tubs: 20 }, []],
  ["a missing key", DELIVERY, { order_id: "A-1043" }, ["missing tubs"]],
  ["an unexpected key", DELIVERY, { order_id: "A-1043", tubs: 20, price: 900 }, [
    "unexpected price",
  ]],
  ["tubs given as text", DELIVERY, { order_id: "A-1043", tubs: "20" }, ["tubs must be integer"]],
  ["true is not a number of tubs", DELIVERY, { order_id: "A-1043", tubs: true }, [
    "tubs must be integer",
  ]],
  ["several problems, sorted", DELIVERY, { tubs: 2.5, note: "x" }, [
    "missing order_id",
    "tubs must be integer",
    "unexpected note",
  ]],
  ["a number accepts an integer", { type: "object", properties: { x: { type: "number" } } }, {
    x: 3,
  }, []],
  ["extra keys are fine without additionalProperties", { type: "object", properties: {} }, {
    x: 1,
  }, []],
];

for (const [label, schema, args, expected] of CASES) {
  Deno.test(`transferProblems: ${label}`, () => {
    const before = structuredClone([schema, args]);
    assert.deepEqual(transferProblems(schema, args), expected);
    assert.deepEqual([schema, args], before, "the inputs were changed");
  });
}

Deno.test("transferProblems checks booleans and numbers strictly", () => {
  const schema = {
    type: "object",
    properties: { n: { type: "number" }, b: { type: "boolean" }, s: { type: "string" } },
  };
  assert.deepEqual(transferProblems(schema, { n: true, b: 0, s: 1 }), [
    "b must be boolean",
    "n must be number",
    "s must be string",
  ]);
  assert.deepEqual(transferProblems(schema, { n: 2.5, b: false, s: "" }), []);
});

Deno.test("transferProblems ignores types it does not check", () => {
  const schema = { type: "object", properties: { list: { type: "array" }, any: {} } };
  assert.deepEqual(transferProblems(schema, { list: "not a list", any: null }), []);
});

Deno.test("transferProblems is not fooled by names inherited from Object", () => {
  const schema = { type: "object", properties: {}, additionalProperties: false };
  assert.deepEqual(transferProblems(schema, JSON.parse('{"constructor":1,"__proto__":2}')), [
    "unexpected __proto__",
    "unexpected constructor",
  ]);
  assert.deepEqual(transferProblems({ required: ["toString"] }, {}), ["missing toString"]);
});

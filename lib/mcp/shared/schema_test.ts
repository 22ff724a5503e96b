import assert from "node:assert/strict";
import type { JsonObject } from "./jsonrpc.ts";
import { schemaProblems, transferProblems } from "./schema.ts";

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

Deno.test("schemaProblems finds what transferProblems finds, and more", () => {
  assert.deepEqual(schemaProblems(DELIVERY, { order_id: "A-1043", tubs: 20 }), []);
  assert.deepEqual(schemaProblems(DELIVERY, { tubs: 2.5, note: "x" }), [
    "arguments must have required property 'order_id'",
    "arguments must NOT have additional properties (note)",
    "/tubs must be integer",
  ]);
  const enumerated = { type: "object", properties: { tense: { enum: ["past_simple"] } } };
  assert.deepEqual(schemaProblems(enumerated, { tense: "future" }), [
    "/tense must be equal to one of the allowed values",
  ]);
});

Deno.test("schemaProblems reads draft-07 and 2020-12 schemas", () => {
  const draft07 = { $schema: "http://json-schema.org/draft-07/schema#", ...DELIVERY };
  const draft2020 = { $schema: "https://json-schema.org/draft/2020-12/schema", ...DELIVERY };
  for (const schema of [draft07, draft2020]) {
    assert.deepEqual(schemaProblems(schema, { order_id: "A", tubs: "2" }), [
      "/tubs must be integer",
    ]);
  }
});

Deno.test("schemaProblems keeps schemas that share an $id apart", () => {
  const first = { $id: "urn:tool:args", type: "object", required: ["a"] };
  const second = { $id: "urn:tool:args", type: "object", required: ["b"] };
  assert.deepEqual(schemaProblems(first, { a: 1 }), []);
  assert.deepEqual(schemaProblems(second, { b: 1 }), []);
});

Deno.test("schemaProblems throws on a schema that is not valid", () => {
  assert.throws(() => schemaProblems({ type: "no-such-type" }, {}));
});

Deno.test("schemaProblems runs a server's patterns in linear time", () => {
  const schema = { properties: { text: { type: "string", pattern: "^(a+)+$" } } };
  assert.deepEqual(schemaProblems(schema, { text: "a".repeat(40) + "!" }), [
    '/text must match pattern "^(a+)+$"',
  ]);
  const names = { patternProperties: { "^(x+)+$": { type: "integer" } } };
  assert.deepEqual(schemaProblems(names, { ["x".repeat(40)]: "one" }), [
    `/${"x".repeat(40)} must be integer`,
  ]);
});

Deno.test("schemaProblems refuses a schema it cannot check in bounded time", () => {
  assert.throws(
    () => schemaProblems({ properties: { a: { pattern: "(a)\\1" } } }, {}),
    SyntaxError,
  );
  const loop = {
    definitions: { n: { items: { $ref: "#/definitions/n" } } },
    $ref: "#/definitions/n",
  };
  assert.throws(() => schemaProblems(loop, []), RangeError);
});

Deno.test("a property the arguments inherit from Object's prototype is not one they hold", () => {
  const schema = {
    type: "object",
    properties: { toString: { type: "string" }, constructor: { type: "integer" } },
  };
  assert.deepEqual(schemaProblems(schema, {}), []);
  assert.deepEqual(schemaProblems(schema, { toString: "fine" }), []);
  assert.deepEqual(schemaProblems(schema, { toString: 5 }), ["/toString must be string"]);
});

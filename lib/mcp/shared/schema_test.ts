import assert from "node:assert/strict";
import { schemaProblems } from "./schema.ts";

const DELIVERY = {
  type: "object",
  properties: { order_id: { type: "string" }, tubs: { type: "integer" } },
  required: ["order_id", "tubs"],
  additionalProperties: false,
};

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

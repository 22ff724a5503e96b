import assert from "node:assert/strict";
import { schemaReach } from "./schema_reach.ts";

/** `levels` of anyOf whose two branches both refer to the next level. */
function fanningOut(levels: number) {
  const definitions: Record<string, unknown> = { [`d${levels}`]: { type: "integer" } };
  for (let level = 0; level < levels; level++) {
    const next = { $ref: `#/definitions/d${level + 1}` };
    definitions[`d${level}`] = { anyOf: [next, { ...next }] };
  }
  return { definitions, $ref: "#/definitions/d0" };
}

Deno.test("schemaReach counts a schema without references as written", () => {
  const schema = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
  assert.equal(schemaReach(schema), 4);
});

Deno.test("schemaReach counts a referenced node once for each way of reaching it", () => {
  assert.ok(schemaReach(fanningOut(4)) > 2 ** 4);
  assert.throws(() => schemaReach(fanningOut(30)), /more than 10,000 schema nodes/);
  assert.throws(() => schemaReach(fanningOut(4), { maxNodes: 16 }), RangeError);
});

Deno.test("schemaReach refuses a schema that loops back into itself", () => {
  const tree = { definitions: { node: { properties: { kids: { items: { $ref: "#" } } } } } };
  assert.throws(() => schemaReach({ ...tree, $ref: "#/definitions/node" }), /leads back/);
  assert.throws(() => schemaReach({ $dynamicRef: "#meta" }), /\$dynamicRef/);
  assert.throws(() => schemaReach({ $recursiveRef: "#" }), /\$recursiveRef/);
});

Deno.test("schemaReach refuses references it does not follow", () => {
  assert.throws(() => schemaReach({ $ref: "https://example.com/schema" }), SyntaxError);
  assert.throws(() => schemaReach({ $ref: "#anchor" }), SyntaxError);
  assert.throws(() => schemaReach({ $ref: "#/definitions/missing" }), /names nothing/);
  const inner = { $id: "inner", definitions: { a: {} }, $ref: "#/definitions/a" };
  assert.throws(() => schemaReach({ properties: { x: inner } }), /its own \$id/);
});

Deno.test("schemaReach follows JSON pointers with escapes", () => {
  const schema = { definitions: { "a/b": { type: "string" } }, $ref: "#/definitions/a~1b" };
  assert.equal(schemaReach(schema), 4);
});

Deno.test("schemaReach refuses a schema nested deeper than maxDepth", () => {
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < 200; i++) deep = { not: deep };
  assert.throws(() => schemaReach(deep), /deeper than 100 levels/);
});

// The server's own argument check, which needs no library, against ajv's
// verdicts on the schemas the course's servers advertise: the same arguments
// pass, and the same fail.

import assert from "node:assert/strict";
import fc from "fast-check";
import { DELIVERY_SCHEMA } from "../servers/delivery.ts";
import { schemaProblems } from "../lib/mcp/shared/schema.ts";
import { argumentProblems } from "../lib/mcp/server/arguments.ts";
import { GRAMMAR_TOOLS } from "../lib/course/grammar_tools.ts";
import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";

/** Each schema, and arguments that fit it. */
const SCHEMAS: [string, JsonObject, JsonObject][] = [
  ["conjugate", schemaOf("conjugate"), { verb: "eat", tense: "past_simple", person: "3sg" }],
  ["lookup_spanish", schemaOf("lookup_spanish"), { english_form: "ate" }],
  ["lookup_irregular_verb", schemaOf("lookup_irregular_verb"), { verb: "go" }],
  [
    "check_subject_verb_agreement",
    schemaOf("check_subject_verb_agreement"),
    { subject: "he", verb_form: "go" },
  ],
  ["record_delivery", DELIVERY_SCHEMA, { order_id: "A-1043", tubs: 20 }],
];

function schemaOf(name: string): JsonObject {
  return GRAMMAR_TOOLS.find((tool) => tool.name === name)!.inputSchema;
}

/** Values a client might send for one argument: the schema's own words, near misses, other types. */
const value = fc.oneof(
  fc.constantFrom("eat", "run", "fly", "3sg", "4sg", "past_simple", "he", "go", "", "A-1043", "ó"),
  fc.string({ maxLength: 3 }),
  fc.integer({ min: -2, max: 30 }),
  fc.double({ noNaN: true, min: -2, max: 30 }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 2 }),
);
const keys = [
  "verb",
  "tense",
  "person",
  "english_form",
  "subject",
  "verb_form",
  "order_id",
  "tubs",
  "mood",
];
const args = fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 4 });

for (const [name, schema] of SCHEMAS) {
  Deno.test(`argumentProblems agrees with ajv on ${name}'s schema`, () => {
    fc.assert(
      fc.property(args, (candidate) => {
        const ours = argumentProblems(schema, candidate);
        const ajv = schemaProblems(schema, candidate);
        assert.equal(
          ours.length === 0,
          ajv.length === 0,
          `${JSON.stringify(candidate)}: ${ours} / ${ajv}`,
        );
      }),
      { numRuns: 2000 },
    );
  });
}

Deno.test("argumentProblems refuses arguments that are not an object", () => {
  for (const bad of [null, "go", 5, ["go"]]) {
    assert.deepEqual(argumentProblems(GRAMMAR_TOOLS[0].inputSchema, bad), [
      "arguments must be object",
    ]);
  }
});

Deno.test("argumentProblems refuses a schema it cannot read in full", () => {
  const nested = {
    type: "object",
    properties: { where: { type: "object", properties: { city: { type: "string" } } } },
  };
  assert.throws(
    () => argumentProblems(nested, { where: {} }),
    /does not read the schema keyword "properties"/,
  );
  assert.throws(
    () => argumentProblems({ type: "object", additionalProperties: { type: "string" } }, {}),
    /additionalProperties/,
  );
  assert.throws(
    () => argumentProblems({ type: "object", properties: { n: { pattern: "x" } } }, { n: "x" }),
    /"pattern"/,
  );
});

Deno.test("argumentProblems counts characters, not UTF-16 units", () => {
  const schema = { type: "object", properties: { s: { type: "string", maxLength: 1 } } };
  assert.deepEqual(argumentProblems(schema, { s: "😀" }), []);
  assert.deepEqual(schemaProblems(schema, { s: "😀" }), []);
});

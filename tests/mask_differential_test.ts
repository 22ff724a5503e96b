// The mask proved against ajv on generated instances: for each schema of a
// catalogue, random JSON values (built from the schema's own property names
// and from values near its edges) are written as the mask writes them, and
// the matcher's verdict must be ajv's. Accepting what ajv refuses would be a
// wrong mask; refusing what ajv accepts is counted against the documented
// limits (properties the schema does not name, in strict mode) and must not
// happen otherwise.

import assert from "node:assert/strict";
import fc from "fast-check";
import {
  compileJsonSchema,
  GrammarMatcher,
  inSchemaOrder,
  o200kVocabulary,
  schemaProblems,
} from "../lib/mask/mod.ts";

const vocabulary = o200kVocabulary();

const CATALOGUE: Record<string, unknown> = {
  conjugate: {
    type: "object",
    properties: {
      verb: { type: "string", enum: ["eat", "go"] },
      tense: { type: "string", enum: ["past_simple", "present_simple"] },
      person: { type: "string", enum: ["1sg", "3sg"] },
    },
    required: ["verb", "tense", "person"],
    additionalProperties: false,
  },
  booking: {
    type: "object",
    properties: {
      date: { type: "string", format: "date", examples: ["2024-02-29", "2023-02-28"] },
      time: { type: "string", format: "time", examples: ["09:30:00Z"] },
      email: { type: "string", format: "email", examples: ["a@b.co"] },
      seats: { type: "integer", minimum: 1, maximum: 9, examples: [1, 9] },
      note: { type: "string", maxLength: 3, examples: ["ok"] },
    },
    required: ["date", "seats"],
  },
  shapes: {
    type: "object",
    properties: {
      length: { type: "number" },
      radius: { type: "number", exclusiveMinimum: 0 },
      shape: { type: "string", enum: ["rectangle", "circle"] },
      width: { type: "number" },
    },
    required: ["shape"],
    oneOf: [
      { properties: { shape: { const: "rectangle" } }, required: ["length", "width"] },
      { properties: { shape: { const: "circle" } }, required: ["radius"] },
    ],
  },
  presence: {
    type: "object",
    properties: { a: { type: "boolean" }, b: { type: "null" }, c: { type: "string" } },
    anyOf: [{ required: ["a"] }, { required: ["b"], not: { required: ["c"] } }],
    dependencies: { c: ["a"] },
  },
  lists: {
    type: "object",
    properties: {
      tags: { type: "array", items: { type: "string", pattern: "^[a-z]+$" }, maxItems: 3 },
      scores: { type: "array", items: { type: ["integer", "null"] }, minItems: 1 },
    },
  },
  nested: {
    $defs: {
      point: {
        type: "object",
        properties: { x: { type: "integer" }, y: { type: "integer" } },
        required: ["x"],
      },
    },
    type: "object",
    properties: { from: { $ref: "#/$defs/point" }, to: { $ref: "#/$defs/point" } },
    required: ["from"],
  },
  scalars: {
    anyOf: [{ type: "string", format: "date-time" }, { type: "number", maximum: 2 }, {
      const: true,
    }],
  },
  sampling: {
    type: "object",
    properties: {
      temperature: { type: "number", minimum: 0, maximum: 1.5, examples: [0, 0.75, 1.5] },
      top_p: { type: "number", exclusiveMinimum: 0.5, maximum: 1, examples: [0.75, 1] },
      offset: { type: "number", minimum: -0.25, exclusiveMaximum: 0.125, examples: [-0.25, 0] },
    },
    required: ["temperature"],
  },
  open: {
    type: "object",
    properties: { id: { type: "integer" } },
    additionalProperties: { type: "string" },
  },
};

/** Every property name a schema mentions, anywhere in it. */
function names(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) schema.forEach((item) => names(item, into));
  else if (typeof schema === "object" && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      if (key === "properties" && typeof value === "object" && value !== null) {
        Object.keys(value).forEach((name) => into.add(name));
      }
      if (key === "required" && Array.isArray(value)) {
        value.forEach((name) => into.add(String(name)));
      }
      names(value, into);
    }
  }
  return into;
}

/**
 * True when every object in `value` has only the properties the mask may
 * write at its place: those its schema (or a branch of it) declares or
 * requires, or any when `additionalProperties` is given. The mask is strict:
 * others are left out by design, as XGrammar's strict mode leaves them out.
 */
function onlyNamed(value: unknown, schema: unknown, root: unknown): boolean {
  while (isObject(schema) && typeof schema.$ref === "string") {
    schema = schema.$ref.slice(2).split("/").reduce(
      (at: unknown, key) => (at as Record<string, unknown>)[key],
      root,
    );
  }
  if (!isObject(schema)) return true;
  if (Array.isArray(value)) return value.every((item) => onlyNamed(item, schema.items, root));
  if (!isObject(value)) return true;
  const declared = new Map<string, unknown>();
  for (
    const part of [
      schema,
      ...["anyOf", "oneOf", "allOf"].flatMap((key) =>
        (schema as Record<string, unknown[]>)[key] ?? []
      ),
    ]
  ) {
    if (!isObject(part)) continue;
    for (const [key, property] of Object.entries(part.properties ?? {})) {
      if (!declared.has(key)) declared.set(key, property);
    }
    for (
      const key of [...(part.required as string[] ?? []), ...Object.keys(part.dependencies ?? {})]
    ) {
      if (!declared.has(key)) declared.set(key, {});
    }
  }
  const open = schema.additionalProperties !== undefined && schema.additionalProperties !== false;
  return Object.entries(value).every(([key, item]) =>
    (declared.has(key) || open) &&
    onlyNamed(item, declared.get(key) ?? schema.additionalProperties, root)
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const SCALARS = [
  0,
  1,
  -1,
  2,
  3,
  9,
  10,
  2.5,
  -0.5,
  0.001,
  0.5,
  0.75,
  1.5,
  1.25,
  -0.25,
  0.125,
  0.1,
  123456789,
  "",
  "a",
  "ab",
  "abc",
  "abcd",
  "A",
  "a b",
  "é",
  "\n",
  '"',
  "x\\y",
  "2024-02-29",
  "2023-02-29",
  "2024-13-01",
  "12:00:00Z",
  "23:59:59+01:00",
  "24:00:00Z",
  "2024-02-29T12:00:00Z",
  "2024-02-29 12:00:00.5-05:00",
  "2024-02-29T12:00:00",
  "a@b.co",
  "a@b",
  "eat",
  "go",
  "run",
  "past_simple",
  "1sg",
  "3sg",
  "rectangle",
  "circle",
  true,
  false,
  null,
];

function valueFor(schema: unknown): fc.Arbitrary<unknown> {
  const keys = [...names(schema), "extra"];
  return fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom(...SCALARS),
      fc.array(tie("value"), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom(...keys), tie("value"), { maxKeys: 5 }),
    ),
  })).value;
}

/**
 * Values near a schema: objects with some of its properties (each near its
 * own schema), its enum, const and example values, arrays of its items, among
 * arbitrary values, so that both verdicts come up often.
 */
function near(schema: unknown, root: unknown, depth = 0): fc.Arbitrary<unknown> {
  while (isObject(schema) && typeof schema.$ref === "string") {
    schema = schema.$ref.slice(2).split("/").reduce(
      (at: unknown, key) => (at as Record<string, unknown>)[key],
      root,
    );
  }
  const anything = fc.constantFrom(...SCALARS);
  if (!isObject(schema) || depth > 3) return anything;
  const options: fc.Arbitrary<unknown>[] = [anything];
  const literals = [
    ...(Array.isArray(schema.enum) ? schema.enum : []),
    ...(Array.isArray(schema.examples) ? schema.examples : []),
    ...("const" in schema ? [schema.const] : []),
  ];
  if (literals.length > 0) options.push(fc.constantFrom(...literals), fc.constantFrom(...literals));
  const types = [schema.type ?? []].flat();
  const typeOf = (value: unknown) =>
    value === null ? "null" : Number.isInteger(value) ? "integer" : typeof value;
  const typed = SCALARS.filter((value) =>
    types.includes(typeOf(value)) || (types.includes("number") && typeOf(value) === "integer")
  );
  if (typed.length > 0) options.push(fc.constantFrom(...typed), fc.constantFrom(...typed));
  const branches = ["anyOf", "oneOf", "allOf"].flatMap((key) =>
    (schema as Record<string, unknown[]>)[key] ?? []
  );
  for (const branch of branches) options.push(near(branch, root, depth + 1));
  const properties: Record<string, fc.Arbitrary<unknown>> = {};
  for (const part of [schema, ...branches]) {
    if (!isObject(part) || !isObject(part.properties)) continue;
    for (const [key, property] of Object.entries(part.properties)) {
      properties[key] ??= near(property, root, depth + 1);
    }
  }
  if (Object.keys(properties).length > 0) {
    const some = fc.record(properties, { requiredKeys: [] });
    const all = fc.record(properties);
    options.push(
      some,
      all,
      all,
      fc.tuple(some, anything).map(([value, extra]) => ({ ...value, extra })),
    );
  }
  if (schema.items !== undefined) {
    options.push(fc.array(near(schema.items, root, depth + 1), { maxLength: 4 }));
  }
  return fc.oneof(...options);
}

for (const [name, schema] of Object.entries(CATALOGUE)) {
  Deno.test(`the mask and ajv agree on generated instances: ${name}`, () => {
    const compiled = compileJsonSchema(schema, vocabulary);
    let valid = 0;
    fc.assert(
      fc.property(
        fc.oneof(valueFor(schema), near(schema, schema), near(schema, schema)),
        (value) => {
          const text = JSON.stringify(inSchemaOrder(value, schema));
          const matcher = new GrammarMatcher(compiled);
          const accepted = matcher.acceptString(text) && matcher.isComplete();
          const problems = schemaProblems(schema, value);
          if (accepted) assert.deepEqual(problems, [], `the mask accepts ${text}, ajv refuses it`);
          if (problems.length === 0) valid++;
          if (problems.length === 0 && onlyNamed(value, schema, schema)) {
            assert.ok(accepted, `ajv accepts ${text}, the mask refuses it`);
          }
        },
      ),
      { numRuns: 3000, seed: 31 },
    );
    // the generated values reach both verdicts
    assert.ok(valid >= 25, `only ${valid} generated values were valid`);
  });
}

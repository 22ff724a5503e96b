// The mask proved against ajv on generated schemas: a seeded generator
// writes schemas over every keyword the mask supports and their combinations
// (composition beside properties, const beside enum, counted lengths, bounds
// with exponents, lone surrogates, $ref, dependencies...), and for each, values
// near it (its literals, its edges, objects of its names) and far from it; each
// is fed token by token and judged by ajv (`_mask_judge.ts`). Every
// disagreement is a wrong mask or a needless refusal; there must be none.

import assert from "node:assert/strict";
import { seeded } from "../lib/mask/generate.ts";
import { o200kVocabulary } from "../lib/mask/mod.ts";
import { judge, tally } from "./_mask_judge.ts";
import { smallVocabulary } from "./_mask_models.ts";

/** How many schemas, and the seed. */
const SCHEMAS = 1000;
const SEED = 41;

type Random = () => number;
type Schema = Record<string, unknown>;

const NAMES = ["a", "b", "c", "d"];
const PATTERNS = ["^[a-z]+$", "^a", "b$", "^.{0,3}$", "^[^a]$", "\\d", "^(ab|cd)*$", "é", "^\\S+$"];
const FORMATS = ["date", "email", "uuid", "ipv4", "time", "date-time", "uri", "byte", "color"];
const BOUNDS = [0, 1, -1, 2.5, 10, -0.5, 100, 0.1, 1e21, 1e-7, 3];
const STRINGS = [
  "",
  "a",
  "ab",
  "abc",
  "abcd",
  "b",
  "é",
  "\ud83d",
  "\udc00\ud83d",
  "😀",
  "x\\y",
  '"',
  "\n",
  "a b",
  "12",
  "2024-02-29",
  "2023-02-29",
  "a@b.co",
  "123e4567-e89b-12d3-a456-426614174000",
  "192.168.0.1",
  "12:00:00Z",
  "2024-02-29T12:00:00Z",
  "aGVsbG8=",
  "http://x.y/z",
  "cdab",
];
const NUMBERS = [
  0,
  1,
  -1,
  2,
  3,
  2.5,
  10,
  11,
  0.1,
  100,
  -0.5,
  0.75,
  1e21,
  1e-7,
  0.30000000000000004,
];
const SCALARS: unknown[] = [...STRINGS, ...NUMBERS, true, false, null];

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];
const chance = (random: Random, p: number) => random() < p;

/** A random schema, at most `depth` levels more. */
function schemaOf(random: Random, depth: number): Schema {
  const kinds = depth <= 0
    ? ["string", "number", "integer", "boolean", "null", "enum", "const", "untyped"]
    : [
      "string",
      "number",
      "integer",
      "boolean",
      "enum",
      "const",
      "array",
      "object",
      "object",
      "object",
      "anyOf",
      "oneOf",
      "allOf",
      "not",
      "types",
      "untyped",
    ];
  const kind = pick(random, kinds);
  switch (kind) {
    case "string":
      return stringSchema(random, { type: "string" });
    case "number":
    case "integer":
      return numberSchema(random, { type: kind });
    case "boolean":
    case "null":
      return { type: kind };
    case "enum": {
      const values = Array.from({ length: 1 + Math.floor(random() * 3) }, () => literal(random));
      const schema: Schema = { enum: values };
      if (chance(random, 0.4)) {
        schema.type = pick(random, ["string", "number", "integer", "object"]);
      }
      return schema;
    }
    case "const": {
      const schema: Schema = { const: literal(random) };
      if (chance(random, 0.5)) {
        schema.enum = [schema.const, literal(random)].slice(0, 1 + Math.floor(random() * 2));
      }
      if (chance(random, 0.3)) schema.enum = [literal(random)];
      return schema;
    }
    case "array": {
      const schema: Schema = { type: "array" };
      if (chance(random, 0.8)) schema.items = schemaOf(random, depth - 1);
      if (chance(random, 0.3)) schema.minItems = pick(random, [0, 1, 2]);
      if (chance(random, 0.4)) schema.maxItems = pick(random, [0, 1, 2, 3, 500, 10000]);
      return schema;
    }
    case "object":
      return objectSchema(random, depth);
    case "anyOf":
    case "oneOf":
    case "allOf": {
      const branches = Array.from(
        { length: 1 + Math.floor(random() * 3) },
        () => chance(random, 0.5) ? objectBranch(random, depth - 1) : schemaOf(random, depth - 1),
      );
      const schema: Schema = chance(random, 0.5) ? objectSchema(random, depth - 1) : {};
      schema[kind] = branches;
      return schema;
    }
    case "not": {
      const base = pick(random, ["string", "object", "number", "untyped"]);
      const schema: Schema = base === "string"
        ? stringSchema(random, { type: "string" })
        : base === "object"
        ? objectSchema(random, depth - 1)
        : base === "number"
        ? { type: "number" }
        : {};
      schema.not = base === "object" ? objectBranch(random, depth - 1) : schemaOf(random, 0);
      return schema;
    }
    case "types": {
      const types = [
        pick(random, ["string", "integer", "number"]),
        pick(random, ["null", "boolean", "array"]),
      ];
      return stringSchema(random, numberSchema(random, { type: types }));
    }
    default: {
      // keywords of a type, without a type: other types pass them
      return pick(random, [
        () => stringSchema(random, {}),
        () => numberSchema(random, {}),
        () => ({ required: [pick(random, NAMES)] }),
        () => ({ items: { type: "integer" }, maxItems: 2 }),
        () => ({}),
      ])();
    }
  }
}

function stringSchema(random: Random, schema: Schema): Schema {
  if (chance(random, 0.3)) schema.minLength = pick(random, [0, 1, 2, 3]);
  if (chance(random, 0.4)) schema.maxLength = pick(random, [0, 1, 2, 3, 4, 5000, 100000]);
  if (chance(random, 0.3)) schema.pattern = pick(random, PATTERNS);
  if (chance(random, 0.2)) schema.format = pick(random, FORMATS);
  return schema;
}

function numberSchema(random: Random, schema: Schema): Schema {
  for (const keyword of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
    if (chance(random, 0.25)) schema[keyword] = pick(random, BOUNDS);
  }
  return schema;
}

/** An object schema: properties, required, additionalProperties, dependencies, maybe branches. */
function objectSchema(random: Random, depth: number): Schema {
  const schema: Schema = {};
  if (chance(random, 0.7)) schema.type = "object";
  const names = NAMES.filter(() => chance(random, 0.5));
  if (names.length > 0 || chance(random, 0.5)) {
    schema.properties = Object.fromEntries(
      names.map((name) => [name, propertySchema(random, depth)]),
    );
  }
  if (chance(random, 0.5)) schema.required = NAMES.filter(() => chance(random, 0.3));
  if (chance(random, 0.3)) {
    schema.additionalProperties = pick(random, [false, true, { type: "integer" }, {
      type: "string",
    }]);
  }
  if (chance(random, 0.15)) {
    const name = pick(random, NAMES);
    schema.dependencies = {
      [name]: chance(random, 0.6) ? [pick(random, NAMES)] : objectBranch(random, 0),
    };
  }
  if (depth > 0 && chance(random, 0.3)) {
    const keyword = pick(random, ["anyOf", "oneOf", "allOf", "not"]);
    const branches = Array.from(
      { length: 1 + Math.floor(random() * 3) },
      () => objectBranch(random, depth - 1),
    );
    schema[keyword] = keyword === "not" ? branches[0] : branches;
  }
  return schema;
}

/** A branch as tool schemas write them beside an object: properties, required, additionalProperties. */
function objectBranch(random: Random, depth: number): Schema {
  const branch: Schema = {};
  const names = NAMES.filter(() => chance(random, 0.35));
  if (names.length > 0) {
    branch.properties = Object.fromEntries(names.map((name) => [
      name,
      chance(random, 0.4)
        ? { const: pick(random, ["x", "y", 1, true]) }
        : propertySchema(random, depth),
    ]));
  }
  if (chance(random, 0.6)) branch.required = NAMES.filter(() => chance(random, 0.3));
  if (chance(random, 0.25)) {
    branch.additionalProperties = pick(random, [false, { type: "integer" }]);
  }
  if (chance(random, 0.1)) branch.not = { required: [pick(random, NAMES)] };
  return branch;
}

function propertySchema(random: Random, depth: number): unknown {
  if (chance(random, 0.1)) return pick(random, [true, false, {}, { not: {} }]);
  return schemaOf(random, depth - 1);
}

function literal(random: Random): unknown {
  return pick(random, [
    ...SCALARS.filter((value) =>
      typeof value !== "number" || Number.isSafeInteger(value) || value === 2.5
    ),
    { a: 1 },
    { b: "x", a: [1] },
    [1, "a"],
    [],
  ]);
}

/** Values near `schema` (its literals, edges, names, items) and far from it. */
function valuesOf(random: Random, schema: unknown, root: Schema, depth = 0): unknown[] {
  if (typeof schema !== "object" || schema === null || depth > 2) return [pick(random, SCALARS)];
  const s = schema as Schema;
  if (typeof s.$ref === "string") {
    return valuesOf(random, (root.$defs as Schema)?.x, root, depth + 1);
  }
  const found: unknown[] = [pick(random, SCALARS), pick(random, SCALARS)];
  if ("const" in s) found.push(s.const);
  if (Array.isArray(s.enum)) found.push(...s.enum);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    if (Array.isArray(s[key])) {
      for (const branch of s[key] as unknown[]) {
        found.push(pick(random, valuesOf(random, branch, root, depth + 1)));
      }
    }
  }
  if (typeof s.maxLength === "number" && s.maxLength > 100) {
    found.push("ab".repeat(2500), "ab".repeat(2500) + "c");
  }
  if (s.type === "string" || "pattern" in s || "format" in s) {
    found.push(...STRINGS.filter(() => chance(random, 0.3)));
  }
  if (s.type === "number" || s.type === "integer" || "minimum" in s || "maximum" in s) {
    found.push(...NUMBERS.filter(() => chance(random, 0.3)));
  }
  if (s.type === "array" || "items" in s) {
    for (let length = 0; length < 4; length++) {
      found.push(
        Array.from({ length }, () => pick(random, valuesOf(random, s.items, root, depth + 1))),
      );
    }
    if (s.maxItems === 500) {
      found.push(
        Array.from({ length: 500 }, () => 1),
        Array.from({ length: 501 }, () => 1),
      );
    }
  }
  const properties = new Map<string, unknown[]>();
  const required = new Set<string>();
  const collect = (part: unknown) => {
    if (typeof part !== "object" || part === null) return;
    const record = part as Schema;
    if (typeof record.properties === "object" && record.properties !== null) {
      for (const [name, property] of Object.entries(record.properties)) {
        properties.set(name, [
          ...(properties.get(name) ?? []),
          ...valuesOf(random, property, root, depth + 1),
        ]);
      }
    }
    if (Array.isArray(record.required)) record.required.forEach((name) => required.add(name));
    for (const key of ["anyOf", "oneOf", "allOf"]) {
      if (Array.isArray(record[key])) (record[key] as unknown[]).forEach(collect);
    }
  };
  collect(s);
  if (properties.size > 0 || s.type === "object" || "required" in s) {
    // objects of the names it declares and requires, their values near their own schemas
    for (let count = 0; count < 12; count++) {
      const object: Record<string, unknown> = {};
      for (const name of [...NAMES, "z"]) {
        const near = properties.get(name);
        const p = required.has(name) ? 0.85 : near !== undefined ? 0.55 : name === "z" ? 0.1 : 0.2;
        if (!chance(random, p)) continue;
        object[name] = near !== undefined && chance(random, 0.85)
          ? pick(random, near)
          : pick(random, SCALARS);
      }
      found.push(object);
    }
  }
  return found;
}

/** A schema, sometimes behind a `$ref` into `$defs`. */
function rootSchema(random: Random): Schema {
  const schema = schemaOf(random, 3);
  if (!chance(random, 0.15)) return schema;
  return {
    $defs: { x: schema },
    ...(chance(random, 0.5)
      ? { $ref: "#/$defs/x" }
      : { type: "object", properties: { a: { $ref: "#/$defs/x" } } }),
  };
}

Deno.test("the mask and ajv agree on generated schemas over every supported keyword, instance by instance", () => {
  const random = seeded(SEED);
  const result = tally();
  const seen = new Set<string>();
  for (let index = 0; index < SCHEMAS; index++) {
    const schema = rootSchema(random);
    const values = valuesOf(random, schema, schema);
    const before = result.compiled;
    // one schema in ten over the whole of o200k_base, the others over a cut of it
    judge(schema, values, result, index % 10 === 0 ? o200kVocabulary() : smallVocabulary(), 1);
    if (result.compiled > before) JSON.stringify(schema, (key, value) => (seen.add(key), value));
  }
  console.log(JSON.stringify({ ...result, disagreements: result.disagreements.length }));
  assert.deepEqual(result.disagreements.slice(0, 10), []);
  // the run reaches what it is meant to: both verdicts, many schemas compiled, every keyword
  assert.ok(result.compiled >= SCHEMAS * 0.6, `only ${result.compiled} compiled`);
  assert.ok(
    result.validCompleted >= SCHEMAS * 1.5 && result.invalidRefused >= SCHEMAS * 3,
    JSON.stringify(result),
  );
  const keywords = "type enum const minLength maxLength pattern format minimum maximum " +
    "exclusiveMinimum exclusiveMaximum items minItems maxItems properties required " +
    "additionalProperties dependencies anyOf oneOf allOf not $ref";
  for (const keyword of keywords.split(" ")) {
    assert.ok(seen.has(keyword), `no compiled schema used ${keyword}`);
  }
});

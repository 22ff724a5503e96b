// withDefaults fills a field the user left out only with a default its own
// field takes: one that breaks the field's bounds, choices or format in the
// same requested schema is the server's slip, and the field is left out. The
// bounds and pattern servers add beyond the specification (exclusiveMinimum,
// exclusiveMaximum, pattern: FastMCP writes them for pydantic's gt, lt and
// pattern) are read as JSON Schema reads them, a pattern run by RE2; a field
// that says what the check does not read (a pattern RE2 cannot run) has its
// default left out, since nothing can vouch for it. The rest of the answer is
// as it was, and nothing throws.

import assert from "node:assert/strict";
import fc from "fast-check";
import type { JsonObject } from "../shared/jsonrpc.ts";
import {
  checkedAnswer,
  type ElicitResult,
  FormAnswerError,
  MAX_FORM_PATTERNS,
  withDefaults,
} from "./elicitation.ts";

const TITLED = [{ const: "free", title: "Free" }, { const: "pro", title: "Pro" }];
const SIZES = { type: "string", enum: ["S", "M", "L"] };

/** Each field with a default its own schema refuses, by the bound it breaks. */
const BROKEN: Record<string, JsonObject> = {
  minLength: { type: "string", minLength: 3, default: "Al" },
  // Code points, as JSON Schema counts them: two emoji are four UTF-16 units.
  maxLength: { type: "string", maxLength: 3, default: "😀😀😀😀" },
  minimum: { type: "number", minimum: 1, default: 0.5 },
  maximum: { type: "integer", maximum: 9, default: 12 },
  exclusiveMinimum: { type: "number", exclusiveMinimum: 0, default: 0 },
  exclusiveMaximum: { type: "integer", exclusiveMaximum: 5, default: 5 },
  enum: { type: "string", enum: ["S", "L"], default: "XL" },
  oneOf: { type: "string", oneOf: TITLED, default: "gold" },
  enumNames: { type: "string", enum: ["S"], enumNames: ["Small"], default: "L" },
  minItems: { type: "array", items: SIZES, minItems: 2, default: ["S"] },
  maxItems: { type: "array", items: { anyOf: TITLED }, maxItems: 1, default: ["free", "pro"] },
  items: { type: "array", items: SIZES, default: ["S", "XL"] },
  email: { type: "string", format: "email", default: "ada" },
  uri: { type: "string", format: "uri", default: "example.com" },
  date: { type: "string", format: "date", default: "2026-02-30" },
  "date-time": { type: "string", format: "date-time", default: "2026-04-30T10:00:00" },
  type: { type: "integer", default: 1.5 },
  boolean: { type: "boolean", default: "yes" },
  pattern: { type: "string", pattern: "^[A-Z]+$", default: "ada" },
  // A pattern RE2 cannot run: the default is not vouched for, though it fits.
  backreference: { type: "string", pattern: "^(a)\\1$", default: "aa" },
};

/** Each field with a default that fits it, each at its bound. */
const FITTING: Record<string, JsonObject> = {
  name: { type: "string", minLength: 3, maxLength: 3, default: "Ada" },
  wide: { type: "string", maxLength: 3, default: "😀😀😀" },
  count: { type: "integer", minimum: 1, maximum: 9, default: 9 },
  weight: { type: "number", minimum: 0.5, default: 0.5 },
  size: { type: "string", enum: ["S", "L"], default: "L" },
  tier: { type: "string", oneOf: TITLED, default: "pro" },
  sizes: { type: "array", items: SIZES, minItems: 1, maxItems: 2, default: ["S", "L"] },
  tiers: { type: "array", items: { anyOf: TITLED }, default: [] },
  contact: { type: "string", format: "email", default: "ada@example.com" },
  site: { type: "string", format: "uri", default: "https://example.com/a?b=c" },
  day: { type: "string", format: "date", default: "2024-02-29" },
  at: { type: "string", format: "date-time", default: "2026-04-30T10:00:00Z" },
  gift: { type: "boolean", default: false },
  above: { type: "number", exclusiveMinimum: 0, default: 0.5 },
  below: { type: "integer", exclusiveMaximum: 5, default: 4 },
  code: { type: "string", pattern: "^[A-Z]{2}\\d{2}$", default: "AB12" },
};

const accepted = (content: JsonObject = {}): ElicitResult => ({ action: "accept", content });
const form = (properties: Record<string, JsonObject>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
});

Deno.test("withDefaults leaves out a default that breaks its own field, bound by bound", () => {
  for (const [bound, field] of Object.entries(BROKEN)) {
    assert.deepEqual(withDefaults(form({ x: field }), accepted()), accepted(), bound);
  }
});

Deno.test("withDefaults fills each default that fits its field, at its bound", () => {
  const filled = Object.fromEntries(
    Object.entries(FITTING).map(([name, field]) => [name, field.default]),
  );
  assert.deepEqual(withDefaults(form(FITTING), accepted()), accepted(filled as JsonObject));
});

Deno.test("withDefaults leaves the rest of the answer as it was beside a default left out", () => {
  const fields = { ...FITTING, ...BROKEN };
  const schema = form(fields, Object.keys(fields));
  const result = withDefaults(schema, accepted({ minLength: "Alan", name: "Bea" }));
  const filled = Object.fromEntries(
    Object.entries(FITTING).map(([name, field]) => [name, field.default]),
  );
  // The user's own answers are never changed here: checkedAnswer judges them.
  assert.deepEqual(result, accepted({ ...filled, minLength: "Alan", name: "Bea" } as JsonObject));
  assert.deepEqual(withDefaults(schema, { action: "decline" }), { action: "decline" });
  assert.deepEqual(withDefaults(schema, { action: "cancel" }), { action: "cancel" });
});

Deno.test("withDefaults never throws at the user for the server's form", () => {
  const odd: unknown[] = [
    undefined,
    null,
    "form",
    [],
    { properties: [] },
    { properties: { x: null, y: "string", z: [] } },
    { properties: { x: { type: "string", minLength: "3", default: "Al" } } },
    { properties: { x: { type: "array", items: null, default: ["S"] } } },
    // A list of types, which String() reads as the one type it holds.
    { properties: { x: { type: ["string"], default: [[]] } } },
    { properties: { x: { type: ["array"], items: { type: "string", enum: ["S"] }, default: 1 } } },
    { properties: { x: { type: "string", format: "hostname", default: "example.com" } } },
  ];
  for (const schema of odd) {
    assert.deepEqual(withDefaults(schema, accepted({ y: 1 })), accepted({ y: 1 }), String(schema));
  }
});

Deno.test("withDefaults never throws for a generated form, whatever its fields hold", () => {
  const keys = fc.constantFrom(
    ...["type", "enum", "enumNames", "oneOf", "items", "anyOf", "const", "format", "default"],
    ...["minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems", "constructor"],
  );
  const words = ["string", "integer", "array", "email", "date-time", "constructor", "toString"];
  const leaf = fc.oneof(fc.constantFrom(...words), fc.double(), fc.boolean(), fc.constant(null));
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      leaf,
      fc.array(tie("value"), { maxLength: 3 }),
      fc.dictionary(keys, tie("value"), { maxKeys: 4 }),
    ),
  }));
  const properties = fc.dictionary(fc.string(), fc.dictionary(keys, value, { maxKeys: 6 }));
  fc.assert(
    fc.property(properties, (fields) => {
      // As it arrives: parsed from JSON (no -0, NaN or undefined).
      const schema = JSON.parse(JSON.stringify({ type: "object", properties: fields }));
      const { content } = withDefaults(schema, accepted({ note: "kept" }));
      assert.equal(content!.note, "kept");
    }),
    { numRuns: 2000 },
  );
});

Deno.test("withDefaults fills a field named as an object's own keys are", () => {
  // JSON.parse makes "__proto__" an own key of the form; its default is an own key of the answer.
  const schema = JSON.parse(
    '{"type":"object","properties":{"__proto__":{"type":"string","default":"Ada"},' +
      '"constructor":{"type":"boolean","default":true}}}',
  );
  const result = withDefaults(schema, accepted());
  assert.equal(JSON.stringify(result.content), '{"__proto__":"Ada","constructor":true}');
});

Deno.test("checkedAnswer takes a key the form requires though no field describes it, and refuses one it never asked", () => {
  const schema = { type: "object", properties: {}, required: ["name"] };
  assert.deepEqual(checkedAnswer(schema, accepted({ name: "Ada" })), accepted({ name: "Ada" }));
  assert.throws(() => checkedAnswer(schema, accepted({})), /missing name/);
  assert.throws(
    () => checkedAnswer(schema, accepted({ name: "Ada", age: 3 })),
    /age is not a field of the form/,
  );
  assert.throws(() => checkedAnswer(schema, accepted({ name: { a: 1 } })), /name is not a string/);
});

Deno.test("a key whose value is undefined is left out, as JSON sends it: its default fills it, and nothing refuses it", () => {
  const schema = form({
    name: { type: "string", minLength: 2, default: "Ada" },
    nick: { type: "string" },
  });
  const result = checkedAnswer(schema, accepted({ name: undefined, nick: undefined }));
  assert.deepEqual(result, accepted({ name: "Ada" }));
});

Deno.test("checkedAnswer names an answer that is no object as no answer, with FormAnswerError", () => {
  for (const result of [undefined, null, "accept", ["accept"]]) {
    assert.throws(
      () => checkedAnswer(form({}), result as unknown as ElicitResult),
      (error: Error) => error instanceof FormAnswerError && /is not an object/.test(error.message),
      String(result),
    );
  }
});

Deno.test("a form's patterns are compiled once each, and none past MAX_FORM_PATTERNS: those fields are not read", () => {
  const fields = (source: (index: number) => string) =>
    Object.fromEntries(
      Array.from({ length: 3 * MAX_FORM_PATTERNS }, (_, index) => {
        return [`f${index}`, { type: "string", pattern: source(index), default: "x1" }];
      }),
    );
  // One pattern for every field: compiled once, every default filled.
  const same = fields(() => "^x\\d$");
  assert.deepEqual(
    withDefaults(form(same), accepted()).content,
    Object.fromEntries(Object.keys(same).map((name) => [name, "x1"])),
  );
  // A pattern of its own for each: the first MAX_FORM_PATTERNS are read, the rest not.
  const distinct = fields((index) => `^x\\d$|^y${index}$`);
  const { content } = withDefaults(form(distinct), accepted());
  assert.deepEqual(Object.keys(content!), Object.keys(distinct).slice(0, MAX_FORM_PATTERNS));
  // The same first ones, whatever the user filled in: f0's answer does not make room for another.
  const given = withDefaults(form(distinct), accepted({ f0: "y0" })).content!;
  assert.deepEqual(Object.keys(given), Object.keys(distinct).slice(0, MAX_FORM_PATTERNS));
  // The fields read hold their answers to their patterns; those past them, to what every answer is.
  const last = `f${3 * MAX_FORM_PATTERNS - 1}`;
  assert.throws(() => checkedAnswer(form(distinct), accepted({ f0: "zz" })), /f0 must match/);
  assert.equal(checkedAnswer(form(distinct), accepted({ [last]: "zz" })).content![last], "zz");
  assert.throws(() => checkedAnswer(form(distinct), accepted({ [last]: [1] })), FormAnswerError);
});

Deno.test("checkedAnswer reads a multiple choice's uniqueItems, as FastMCP writes a set of choices", () => {
  const items = { type: "string", enum: ["S", "L"] };
  const schema = form({ sizes: { type: "array", items, uniqueItems: true, default: ["S", "S"] } });
  assert.deepEqual(withDefaults(schema, accepted()), accepted({}));
  assert.throws(
    () => checkedAnswer(schema, accepted({ sizes: ["S", "S"] })),
    /must not give a choice/,
  );
  assert.throws(() => checkedAnswer(schema, accepted({ sizes: ["S", "XL"] })), /holds "XL"/);
  assert.deepEqual(
    checkedAnswer(schema, accepted({ sizes: ["L", "S"] })),
    accepted({ sizes: ["L", "S"] }),
  );
});

Deno.test("checkedAnswer holds a form's fields to their rules whatever else the form says, such as zod's additionalProperties", () => {
  const schema = {
    ...form({ tubs: { type: "integer", maximum: 9 } }),
    additionalProperties: false,
  };
  assert.throws(() => checkedAnswer(schema, accepted({ tubs: 12 })), /tubs must be at most 9/);
  assert.throws(
    () => checkedAnswer(schema, accepted({ age: 3 })),
    /age is not a field of the form/,
  );
  assert.deepEqual(checkedAnswer(schema, accepted({ tubs: 2 })), accepted({ tubs: 2 }));
});

Deno.test("checkedAnswer reads a number's multipleOf as JSON Schema says it, as FastMCP writes pydantic's multiple_of", () => {
  const schema = form({
    count: { type: "integer", multipleOf: 2, default: 3 },
    step: { type: "number", multipleOf: 0.5 },
  });
  assert.deepEqual(withDefaults(schema, accepted()), accepted({}));
  assert.throws(
    () => checkedAnswer(schema, accepted({ count: 3 })),
    /count must be a multiple of 2/,
  );
  assert.throws(
    () => checkedAnswer(schema, accepted({ step: 0.3 })),
    /step must be a multiple of 0.5/,
  );
  const fits = accepted({ count: -4, step: 1.5 });
  assert.deepEqual(checkedAnswer(schema, fits), fits);
  // One that is not more than 0 is no multipleOf JSON Schema has: the field is not read.
  const zero = form({ count: { type: "integer", multipleOf: 0, default: 2 } });
  assert.deepEqual(withDefaults(zero, accepted()), accepted({}));
});

// The check of an elicitation form both sides of the course's library hold
// (a server's of an accepted answer, a client's of a default; ajv-formats' own
// format tests, full mode), against ajv's verdicts on a form of
// every field an elicitation schema defines: the same answers pass, and the
// same fail. And what no elicitation schema has, named rather than passed.

import assert from "node:assert/strict";
import fc from "fast-check";
import { withDefaults } from "../lib/mcp/client/elicitation.ts";
import { formProblems, unreadForm } from "../lib/mcp/shared/elicitation_form.ts";
import { schemaProblems } from "../lib/mask/validate.ts";
import { linearPattern } from "../lib/mcp/shared/linear_pattern.ts";
import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";

const TITLED = [{ const: "free", title: "Free" }, { const: "pro", title: "Pro" }];

/** 2025-11-25's PrimitiveSchemaDefinition, each kind, one field each. */
const FORM = {
  type: "object",
  properties: {
    size: { type: "string", enum: ["S", "L"], enumNames: ["Small", "Large"] },
    tier: { type: "string", oneOf: TITLED, default: "free" },
    name: { type: "string", minLength: 2, maxLength: 4 },
    email: { type: "string", format: "email" },
    day: { type: "string", format: "date" },
    at: { type: "string", format: "date-time" },
    site: { type: "string", format: "uri" },
    count: { type: "integer", minimum: 1, maximum: 9 },
    weight: { type: "number", minimum: 0.5, maximum: 2 },
    gift: { type: "boolean", default: false },
    sizes: { type: "array", items: { type: "string", enum: ["S", "L"] }, minItems: 1 },
    tiers: { type: "array", items: { anyOf: TITLED }, maxItems: 1 },
  },
  required: ["size", "count"],
};

/** Strings near each format's edge: emails, dates, times, URIs (a bracketed host left open among them). */
const FORMATTED = [
  ...["ada@example.com", "ada@", "a.b@c.d", "a..b@c.d", "ada@-x.io"],
  ...["2024-02-29", "2023-02-29", "2026-13-01", "2026-04-31", "2026-1-1"],
  ...["2026-04-30T10:00:00Z", "2026-04-30t10:00:00.5+02:00", "2026-04-30 10:00:00+0200"],
  ...["2026-04-30T10:00:00", "2026-04-30T24:00:00Z", "2026-12-31T23:59:60Z"],
  ...["2026-12-31T22:59:60-01:00", "2026-12-31T12:59:60Z"],
  ...["https://example.com/a?b=c#d", "http://[bad", "http://[::1]:80/", "http://[v1.x]/"],
  ...["http://a:b:c/", "http://x:8a/", "urn:isbn:0451450523", "a:%zz", "https://example.com/a b"],
];

/** Values a user might fill in: the form's own words, near misses, formatted strings, other types. */
const value = fc.oneof(
  fc.constantFrom("S", "L", "XL", "free", "pro", "gold", "", "Ada", "ó😀", "Ada Lovelace"),
  fc.constantFrom(...FORMATTED),
  fc.string({ maxLength: 3 }),
  fc.integer({ min: -2, max: 12 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -2, max: 12 }),
  fc.boolean(),
  fc.array(fc.constantFrom("S", "L", "XL", "free", "pro"), { maxLength: 3 }),
);
const changes = fc.dictionary(
  fc.constantFrom(...Object.keys(FORM.properties), "mood"),
  value,
  { maxKeys: 3 },
);
/** Answers: the required fields filled in right, then some fields changed (or, at times, not filled in). */
const content = fc.tuple(fc.boolean(), changes).map(([filled, changed]) => ({
  ...(filled ? { size: "S", count: 3 } : {}),
  ...changed,
}));

Deno.test("formProblems agrees with ajv on every kind of elicitation field", () => {
  let fitting = 0;
  fc.assert(
    fc.property(content, (answer) => {
      const ours = formProblems(FORM, answer as JsonObject);
      const ajv = schemaProblems(FORM, answer);
      if (ajv.length === 0) fitting++;
      assert.equal(
        ours.length === 0,
        ajv.length === 0,
        `${JSON.stringify(answer)}: ${ours} / ${ajv}`,
      );
    }),
    { numRuns: 3000 },
  );
  assert.ok(fitting > 300, `only ${fitting} of 3000 answers fit: the check was hardly tried`);
});

/** A value each field of FORM takes, so that defaults that fit are tried as often as not. */
const FITS: Record<string, unknown> = {
  size: "S",
  tier: "pro",
  name: "Ada",
  email: "ada@example.com",
  day: "2024-02-29",
  at: "2026-04-30T10:00:00Z",
  site: "urn:isbn:0451450523",
  count: 9,
  weight: 0.5,
  gift: true,
  sizes: ["S", "L"],
  tiers: [],
};
/** A field of FORM, and a default for it: a value it takes, or any value. */
const defaulted = fc.constantFrom(...Object.entries(FORM.properties)).chain(([name, field]) =>
  fc.tuple(fc.constant(name), fc.constant(field), fc.oneof(value, fc.constant(FITS[name])))
);

Deno.test("the client fills in a default exactly when ajv takes it under its own field", () => {
  let filled = 0;
  fc.assert(
    fc.property(defaulted, ([name, field, fallback]) => {
      const schema = { type: "object", properties: { [name]: { ...field, default: fallback } } };
      const { content } = withDefaults(schema, { action: "accept", content: {} });
      const fits = schemaProblems(field, fallback).length === 0;
      if (fits) filled++;
      assert.deepEqual(content, fits ? { [name]: fallback } : {}, JSON.stringify(schema));
    }),
    { numRuns: 2000 },
  );
  assert.ok(filled > 200, `only ${filled} of 2000 defaults fit: the check was hardly tried`);
});

/** Fields of the keywords servers add beyond the specification (FastMCP's gt, lt, pattern). */
const BEYOND: Record<string, JsonObject> = {
  price: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 10 },
  level: { type: "integer", exclusiveMinimum: 1, maximum: 4 },
  code: { type: "string", pattern: "^[A-Z]{2}\\d{2}$" },
  tag: { type: "string", pattern: "b", maxLength: 3 },
};
/** Values near those fields' edges, and any others. */
const edges = fc.oneof(
  fc.constantFrom(0, 10, 1, 2, 1.5, 9.99, 4, "AB12", "ab12", "AB123", "b", "abc", "abcd", "xbx"),
  fc.integer({ min: -2, max: 12 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -2, max: 12 }),
  fc.string({ maxLength: 4 }),
);

Deno.test("read as the client reads it, an exclusive bound or a pattern agrees with ajv, for answers and defaults", () => {
  const reading = { patterns: linearPattern };
  let fitting = 0;
  fc.assert(
    fc.property(fc.constantFrom(...Object.entries(BEYOND)), edges, ([name, field], value) => {
      const fits = schemaProblems(field, value).length === 0;
      if (fits) fitting++;
      const form = { type: "object", properties: { [name]: field } };
      const ours = formProblems(form, { [name]: value } as JsonObject, reading);
      assert.equal(ours.length === 0, fits, `${name} ${JSON.stringify(value)}: ${ours}`);
      const withDefault = { type: "object", properties: { [name]: { ...field, default: value } } };
      const { content } = withDefaults(withDefault, { action: "accept", content: {} });
      assert.deepEqual(content, fits ? { [name]: value } : {}, `${name} ${JSON.stringify(value)}`);
    }),
    { numRuns: 2000 },
  );
  assert.ok(fitting > 200, `only ${fitting} of 2000 values fit: the check was hardly tried`);
});

Deno.test("formProblems agrees with ajv on each formatted string in each format", () => {
  for (const [name, field] of Object.entries(FORM.properties)) {
    if (!("format" in field)) continue;
    for (const text of FORMATTED) {
      const ours = formProblems(FORM, { size: "S", count: 3, [name]: text });
      const ajv = schemaProblems(FORM, { size: "S", count: 3, [name]: text });
      assert.equal(ours.length === 0, ajv.length === 0, `${name} ${text}: ${ours} / ${ajv}`);
    }
  }
});

Deno.test("formProblems takes a URI with a scheme and refuses one without", () => {
  const form = { type: "object", properties: { site: { type: "string", format: "uri" } } };
  for (
    const site of ["https://example.com/a?b=c#d", "mailto:ada@example.com", "urn:isbn:0451450523"]
  ) {
    assert.deepEqual(formProblems(form, { site }), [], site);
  }
  for (
    const site of [
      "example.com",
      "/a/b",
      "https://exa mple.com",
      "https://example.com/<x>",
      "1http://x",
      "http://[bad",
    ]
  ) {
    assert.deepEqual(formProblems(form, { site }), ["site must be a uri"], site);
  }
});

Deno.test("formProblems names what no elicitation schema has, rather than pass an answer it did not check", () => {
  const cases: [JsonObject, RegExp][] = [
    [{ type: "string", pattern: "^[A-Z]+$" }, /has "pattern"/],
    [{ type: "string", format: "hostname" }, /the format "hostname"/],
    [{ type: "object", properties: {} }, /the type "object"/],
    [{ type: ["string"] }, /the type \["string"\]/],
    [{ type: "array", items: { type: "string" } }, /items that are no choices/],
    [{ type: "string", oneOf: [{ type: "string" }] }, /a oneOf that is no titled choices/],
    [{ type: "number", enum: [1, 2] }, /has "enum"/],
    [{ type: "string", enum: [1, 2] }, /has an enum that is not a list of strings/],
    [{ type: "integer", minimum: "1" }, /has a "minimum" that is not a number/],
    [
      { type: "array", items: { type: "string", enum: ["A"] }, maxItems: null },
      /a "maxItems" that/,
    ],
    // Choices of no elicitation shape, where ajv refuses what a check of their values takes.
    [{ type: "string", enum: ["A", "B"], oneOf: TITLED }, /both an enum and a oneOf/],
    [{ type: "array", items: { type: "string", enum: ["A"], maxLength: 0 } }, /items that are no/],
    [{ type: "array", items: { anyOf: [{ const: "A", pattern: "^B$" }] } }, /items that are no/],
    [{ type: "string", oneOf: [{ const: "A", title: "A", minLength: 2 }] }, /a oneOf that is no/],
    [{ type: "string", oneOf: [TITLED[0], TITLED[0]] }, /a oneOf whose choices repeat/],
  ];
  for (const [field, named] of cases) {
    const [problem] = formProblems({ type: "object", properties: { x: field } }, { x: "A" });
    assert.match(problem, /^the form cannot be checked: its field x has /);
    assert.match(problem, named);
    assert.ok(problem.endsWith(", which no elicitation form has"), problem);
  }
});

Deno.test("unreadForm names a default its field refuses, by the bound it breaks; an answer is checked all the same", () => {
  // A default the field refuses, which a client fills in or shows the user as the answer.
  const cases: [JsonObject, RegExp][] = [
    [
      { type: "string", enum: ["A", "B"], default: "C" },
      /a default that does not fit it \(it must be one of: A, B\)/,
    ],
    [
      { type: "integer", minimum: 1, default: 0 },
      /a default that does not fit it \(it must be at least 1\)/,
    ],
    [
      { type: "boolean", default: "yes" },
      /a default that does not fit it \(it must be true or false\)/,
    ],
    [{ type: "string", format: "date", default: "2026-02-30" }, /fit it \(it must be a date\)/],
    [
      { type: "array", items: { type: "string", enum: ["A"] }, maxItems: 0, default: ["A"] },
      /fit it \(it must be at most 0 choices\)/,
    ],
  ];
  for (const [field, named] of cases) {
    const form = { type: "object", properties: { x: field } };
    const problem = unreadForm(form) ?? "";
    assert.match(problem, /^its field x has a default that does not fit it/);
    assert.match(problem, named);
    // A default is not what no form has: it is named with the bound it breaks, and no more.
    assert.ok(!problem.endsWith(", which no elicitation form has"), problem);
    // The answer to such a form is checked by its field's rules: the default is no part of it.
    const { default: fallback, ...rules } = field;
    const answer = { x: fallback ?? null };
    assert.deepEqual(
      formProblems(form, answer),
      formProblems({ ...form, properties: { x: rules } }, answer),
    );
  }
});

Deno.test("formProblems names a form whose schema says what no elicitation form says", () => {
  const form = { type: "object", properties: {}, additionalProperties: false };
  assert.deepEqual(formProblems(form, {}), [
    'the form cannot be checked: its schema has "additionalProperties", which no elicitation form has',
  ]);
  // Each of these ajv refuses to compile, or refuses every answer to; none took the answer unchecked.
  const field = { x: { type: "string" } };
  const cases: [JsonObject, RegExp][] = [
    [{ type: "object", properties: field, required: "x" }, /a required that is no list of/],
    [{ type: "object", properties: field, required: [1] }, /a required that is no list of/],
    [{ type: "object", properties: [field.x] }, /properties that are no object/],
    [{ type: "string", properties: field }, /the type "string"/],
  ];
  for (const [schema, named] of cases) {
    const [problem] = formProblems(schema, { x: ["A", "B"] });
    assert.match(
      problem ?? "",
      /^the form cannot be checked: its schema has /,
      JSON.stringify(schema),
    );
    assert.match(problem, named);
  }
});

Deno.test("formProblems refuses a key the form did not ask whose value no elicitation answer holds", () => {
  const form = { type: "object", properties: {} };
  assert.deepEqual(formProblems(form, { extra: "x", list: ["a"] }), []);
  for (const extra of [null, { a: 1 }, [1]]) {
    assert.deepEqual(formProblems(form, { extra }), [
      "extra is not a string, number, boolean or list of strings",
    ]);
  }
});

// Tried as a tool author would: hand-written input schemas of the kind MCP
// tools publish, together using every keyword the mask supports, each with
// instances written by hand (valid and invalid, and the author's expectation
// checked against ajv first), judged like the generated ones
// (`_mask_judge.ts`): fed token by token over o200k_base, random generations
// under each mask, no disagreement with ajv.

import assert from "node:assert/strict";
import { o200kVocabulary, schemaProblems } from "../lib/mask/mod.ts";
import { judge, tally } from "./_mask_judge.ts";

const vocabulary = o200kVocabulary();

/** A tool's schema, and instances the author expects valid and invalid. */
interface Tool {
  name: string;
  schema: Record<string, unknown>;
  valid: unknown[];
  invalid: unknown[];
}

const TOOLS: Tool[] = [
  {
    name: "conjugate: enums, required, additionalProperties false",
    schema: {
      type: "object",
      properties: {
        verb: { type: "string", enum: ["eat", "go"] },
        tense: { type: "string", enum: ["past_simple", "present_simple"] },
        person: { type: "string", enum: ["1sg", "3sg"] },
      },
      required: ["verb", "tense", "person"],
      additionalProperties: false,
    },
    valid: [{ verb: "eat", tense: "past_simple", person: "3sg" }],
    invalid: [{ verb: "run", tense: "past_simple", person: "3sg" }, { verb: "eat" }, {
      verb: "go",
      tense: "past_simple",
      person: "1sg",
      mood: "x",
    }],
  },
  {
    name: "send_email: formats, counted lengths and items",
    schema: {
      type: "object",
      properties: {
        to: { type: "string", format: "email" },
        cc: { type: "array", items: { type: "string", format: "email" }, maxItems: 10 },
        subject: { type: "string", minLength: 1, maxLength: 200 },
        body: { type: "string", maxLength: 5000 },
        priority: { enum: ["low", "normal", "high"], default: "normal" },
      },
      required: ["to", "subject", "body"],
      additionalProperties: false,
    },
    valid: [
      { to: "a@b.co", subject: "Hi", body: "x".repeat(5000) },
      { to: "a@b.co", cc: ["c@d.org"], subject: "é".repeat(200), body: "", priority: "high" },
    ],
    invalid: [
      { to: "a@b.co", subject: "Hi", body: "x".repeat(5001) },
      { to: "a@b.co", subject: "", body: "" },
      { to: "not an email", subject: "Hi", body: "" },
      { to: "a@b.co", cc: Array.from({ length: 11 }, () => "c@d.org"), subject: "Hi", body: "" },
    ],
  },
  {
    name: "search: a query of up to 100,000 characters, bounded integers, open filters",
    schema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, maxLength: 100000 },
        limit: { type: "integer", minimum: 1, maximum: 100 },
        filters: { type: "object", additionalProperties: { type: "string" } },
      },
      required: ["query"],
    },
    valid: [{ query: "mask", limit: 100 }, { query: "q", filters: { lang: "en", site: "x" } }],
    invalid: [{ query: "" }, { query: "q", limit: 0 }, { query: "q", limit: 1.5 }, {
      query: "q",
      filters: { lang: 1 },
    }],
  },
  {
    name: "create_event: date-times, arrays of objects, oneOf of a const and an object",
    schema: {
      type: "object",
      properties: {
        title: { type: "string", maxLength: 80 },
        start: { type: "string", format: "date-time" },
        attendees: {
          type: "array",
          items: {
            type: "object",
            properties: {
              email: { type: "string", format: "email" },
              optional: { type: "boolean" },
            },
            required: ["email"],
          },
          minItems: 1,
          maxItems: 500,
        },
        recurrence: {
          oneOf: [
            { const: "none" },
            {
              type: "object",
              properties: {
                freq: { enum: ["daily", "weekly"] },
                count: { type: "integer", minimum: 1 },
              },
              required: ["freq"],
            },
          ],
        },
      },
      required: ["title", "start", "attendees"],
    },
    valid: [
      { title: "Standup", start: "2024-02-29T09:30:00Z", attendees: [{ email: "a@b.co" }] },
      {
        title: "Review",
        start: "2024-03-01 10:00:00+01:00",
        attendees: [{ email: "a@b.co", optional: true }],
        recurrence: { freq: "weekly", count: 4 },
      },
      {
        title: "x",
        start: "2024-03-01T10:00:00z",
        attendees: [{ email: "a@b.co" }],
        recurrence: "none",
      },
    ],
    invalid: [
      { title: "Standup", start: "2023-02-29T09:30:00Z", attendees: [{ email: "a@b.co" }] },
      { title: "Standup", start: "2024-02-29T09:30:00Z", attendees: [] },
      {
        title: "x",
        start: "2024-03-01T10:00:00Z",
        attendees: [{ email: "a@b.co" }],
        recurrence: "daily",
      },
      { title: "x", start: "2024-03-01T10:00:00Z", attendees: [{}], recurrence: { freq: "daily" } },
    ],
  },
  {
    name: "area: anyOf beside properties, a branch closed to the parent's names",
    schema: {
      type: "object",
      properties: { shape: { type: "string" }, radius: { type: "number" } },
      anyOf: [
        {
          properties: { side: { type: "number" } },
          required: ["side"],
          additionalProperties: false,
        },
        { required: ["shape", "radius"] },
      ],
    },
    valid: [{ side: 2 }, { shape: "circle", radius: 1 }, { shape: "circle", radius: 1, side: "x" }],
    invalid: [{ side: 2, shape: "square" }, { shape: "circle" }, {}],
  },
  {
    name: "shapes: oneOf of branches named by a const, each with its own required names",
    schema: {
      type: "object",
      properties: {
        shape: { type: "string", enum: ["rectangle", "circle"] },
        length: { type: "number" },
        width: { type: "number" },
        radius: { type: "number", exclusiveMinimum: 0 },
      },
      required: ["shape"],
      oneOf: [
        { properties: { shape: { const: "rectangle" } }, required: ["length", "width"] },
        { properties: { shape: { const: "circle" } }, required: ["radius"] },
      ],
    },
    valid: [{ shape: "circle", radius: 0.5 }, { shape: "rectangle", length: 1, width: 2 }],
    invalid: [{ shape: "circle" }, { shape: "circle", radius: 0 }, {
      shape: "rectangle",
      radius: 1,
    }],
  },
  {
    name:
      "payment: exclusive bounds, bounds with exponents, patterns, dependencies, const beside enum",
    schema: {
      type: "object",
      properties: {
        amount: { type: "number", exclusiveMinimum: 0, maximum: 1e21 },
        fee: { type: "number", minimum: 1e-7, maximum: 0.5 },
        currency: { type: "string", pattern: "^[A-Z]{3}$" },
        method: { const: "card", enum: ["card", "cash"] },
        card: { type: "string", pattern: "^\\d{16}$" },
      },
      required: ["amount", "currency"],
      dependencies: { card: ["method"] },
    },
    valid: [
      { amount: 12.5, currency: "EUR" },
      {
        amount: 999999999999999,
        fee: 0.25,
        currency: "USD",
        method: "card",
        card: "4111111111111111",
      },
    ],
    invalid: [
      { amount: 0, currency: "EUR" },
      { amount: 1, currency: "eur" },
      { amount: 1, currency: "EUR", method: "cash" },
      { amount: 1, currency: "EUR", card: "4111111111111111" },
      { amount: 1, fee: 0.00000001, currency: "EUR" },
    ],
  },
  {
    name: "translate: not beside properties, type lists, nullable strings",
    schema: {
      type: "object",
      properties: {
        text: { type: "string", maxLength: 5000 },
        source: { type: ["string", "null"], enum: ["auto", "en", "fr", null] },
        target: { type: "string", enum: ["en", "fr"] },
      },
      required: ["text", "target"],
      not: {
        properties: { target: { const: "en" }, source: { const: "en" } },
        required: ["source"],
      },
    },
    valid: [{ text: "bonjour", source: "fr", target: "en" }, {
      text: "x",
      source: null,
      target: "fr",
    }],
    invalid: [{ text: "hello", source: "en", target: "en" }, {
      text: "x",
      source: "de",
      target: "en",
    }],
  },
  {
    name: "tags: items of 50 characters, up to 500 of them; numbers and booleans beside",
    schema: {
      type: "object",
      properties: {
        tags: { type: "array", items: { type: "string", maxLength: 50 }, maxItems: 500 },
        weights: { type: "array", items: { type: ["number", "null"] }, minItems: 1 },
        exact: { type: "boolean" },
      },
    },
    valid: [{ tags: Array.from({ length: 500 }, (_, i) => `t${i}`), weights: [1, null, -2.5] }, {
      exact: false,
    }],
    invalid: [{ tags: Array.from({ length: 501 }, () => "t") }, { tags: ["x".repeat(51)] }, {
      weights: [],
    }],
  },
  {
    name: "tree: a recursive $ref into $defs, beside other keywords",
    schema: {
      $defs: {
        node: {
          type: "object",
          properties: {
            label: { type: "string" },
            children: { type: "array", items: { $ref: "#/$defs/node" } },
          },
          required: ["label"],
        },
      },
      $ref: "#/$defs/node",
      description: "a tree of labels",
    },
    valid: [{ label: "root", children: [{ label: "a" }, { label: "b", children: [] }] }],
    invalid: [{ children: [] }, { label: "root", children: [{}] }],
  },
  {
    name: "allOf: branches whose additionalProperties bind the parent's names",
    schema: {
      type: "object",
      properties: { id: { type: "integer" }, note: { type: "string" } },
      allOf: [
        { properties: { id: {}, note: {} }, additionalProperties: false },
        { additionalProperties: { type: ["integer", "string"] } },
        { required: ["id"] },
      ],
    },
    valid: [{ id: 1 }, { id: 2, note: "x" }],
    invalid: [{ note: "x" }, { id: 1, other: 2 }],
  },
  {
    name: "characters: lone surrogates, escapes, code points",
    schema: {
      type: "object",
      properties: {
        one: { type: "string", pattern: "^[^a]$" },
        short: { type: "string", minLength: 2, maxLength: 3 },
        text: { type: "string" },
      },
    },
    valid: [{ one: "\ud83d" }, { one: "😀", short: "é😀" }, { text: '\udc00\ud83d\n"\\' }, {
      short: "\ud83d\ud83d",
    }],
    invalid: [{ one: "a" }, { one: "ab" }, { short: "\ud83d" }, { short: "😀😀😀😀" }],
  },
  {
    name: "scalars: anyOf of a date-time, a bounded number and a const",
    schema: {
      anyOf: [{ type: "string", format: "date-time" }, { type: "number", maximum: 2 }, {
        const: true,
      }],
    },
    valid: ["2024-02-29T12:00:00Z", 2, -1.5, true],
    invalid: ["2024-02-30T12:00:00Z", 2.5, false, null],
  },
];

Deno.test("a tool author's schemas of every supported keyword: no wrong mask", () => {
  const result = tally();
  for (const { name, schema, valid, invalid } of TOOLS) {
    for (const value of valid) {
      assert.deepEqual(
        schemaProblems(schema, value),
        [],
        `${name}: the author thought ${JSON.stringify(value).slice(0, 80)} valid`,
      );
    }
    for (const value of invalid) {
      assert.notDeepEqual(
        schemaProblems(schema, value),
        [],
        `${name}: the author thought ${JSON.stringify(value).slice(0, 80)} invalid`,
      );
    }
    const before = result.compiled;
    judge(schema, [...valid, ...invalid], result, vocabulary, 4);
    assert.equal(
      result.compiled,
      before + 1,
      `${name} was refused: ${JSON.stringify(result.refused)}`,
    );
  }
  assert.deepEqual(result.disagreements, []);
  assert.deepEqual(result.outside, {});
  assert.equal(result.validCompleted, TOOLS.reduce((sum, tool) => sum + tool.valid.length, 0));
});

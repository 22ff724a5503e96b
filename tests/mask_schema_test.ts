// compileJsonSchema on the keywords tool schemas use: what each accepts and
// refuses (compact JSON, the schema's order), what it will not compile, and
// random instances generated under each mask, every one checked by ajv.

import assert from "node:assert/strict";
import {
  compileJsonSchema,
  generateArguments,
  GrammarMatcher,
  inSchemaOrder,
  MaxTokensError,
  o200kVocabulary,
  SchemaTooLargeError,
  UnsupportedSchemaError,
} from "../lib/mask/mod.ts";
import { closingModel } from "./_mask_models.ts";

const vocabulary = o200kVocabulary();

/** Whether the compiled schema takes `text` as a whole instance. */
function takes(schema: unknown, text: string): boolean {
  const matcher = new GrammarMatcher(compileJsonSchema(schema, vocabulary));
  return matcher.acceptString(text) && matcher.isComplete();
}

const CASES: { name: string; schema: unknown; accepts: string[]; refuses: string[] }[] = [
  {
    name: "an object: schema order, optional properties omissible, nothing undeclared",
    schema: {
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "boolean" } },
      required: ["b"],
    },
    accepts: ['{"b":true}', '{"a":-3,"b":false}'],
    refuses: ['{"b":true,"a":1}', '{"a":1}', '{"b":true,"c":1}', '{ "b":true}', "{}"],
  },
  {
    name: "additionalProperties as a schema: declared first, then others",
    schema: {
      type: "object",
      properties: { a: { type: "null" } },
      additionalProperties: { type: "integer" },
    },
    accepts: ["{}", '{"a":null,"x":1,"y":2}', '{"x":1}'],
    refuses: ['{"x":"1"}', '{"a":1}', '{"x":1,"a":null}'],
  },
  {
    name: "strings: enum, const, lengths in code points, escapes as JSON.stringify writes them",
    schema: {
      type: "object",
      properties: {
        e: { enum: ["x", 1, null] },
        c: { const: "k" },
        s: { type: "string", minLength: 2, maxLength: 3 },
      },
    },
    accepts: ['{"e":1}', '{"e":null,"c":"k"}', '{"s":"é😀"}', '{"s":"\\n\\"x"}'],
    refuses: ['{"e":2}', '{"c":"K"}', '{"s":"a"}', '{"s":"abcd"}', '{"s":"\\u0041b"}'],
  },
  {
    name: "numbers: bounds, exclusive bounds, integers",
    schema: {
      type: "array",
      items: {
        anyOf: [{ type: "integer", exclusiveMinimum: 10 }, { type: "number", maximum: -1 }],
      },
    },
    accepts: ["[11]", "[-1,-2.5,1000]", "[]"],
    refuses: ["[10]", "[-0.5]", "[11.5]"],
  },
  {
    name: "arrays: items, minItems, maxItems",
    schema: { type: "array", items: { type: "boolean" }, minItems: 1, maxItems: 2 },
    accepts: ["[true]", "[true,false]"],
    refuses: ["[]", "[true,true,true]", '["true"]'],
  },
  {
    name: "oneOf over presence: exactly one set of properties",
    schema: {
      type: "object",
      properties: { r: { type: "number" }, w: { type: "number" }, h: { type: "number" } },
      oneOf: [{ required: ["r"] }, { required: ["w", "h"] }],
    },
    accepts: ['{"r":1}', '{"w":1,"h":2}'],
    refuses: ['{"r":1,"w":1,"h":2}', '{"w":1}', "{}"],
  },
  {
    name: "oneOf over branches that declare their own properties",
    schema: {
      type: "object",
      oneOf: [
        { properties: { radius: { type: "number" } }, required: ["radius"] },
        { properties: { side: { type: "number" } }, required: ["side"] },
      ],
    },
    accepts: ['{"radius":2}', '{"side":1}'],
    refuses: ['{"radius":2,"side":1}', "{}", '{"radius":"2"}'],
  },
  {
    name: "oneOf whose branches name a shape by const, read in the object's order",
    schema: {
      type: "object",
      properties: {
        length: { type: "number" },
        radius: { type: "number" },
        shape: { type: "string", enum: ["rectangle", "circle"] },
        width: { type: "number" },
      },
      required: ["shape"],
      oneOf: [
        { properties: { shape: { const: "rectangle" } }, required: ["length", "width"] },
        { properties: { shape: { const: "circle" } }, required: ["radius"] },
      ],
    },
    accepts: ['{"radius":5,"shape":"circle"}', '{"length":1,"shape":"rectangle","width":2}'],
    refuses: [
      '{"shape":"circle"}',
      '{"radius":1,"shape":"rectangle"}',
      '{"shape":"circle","radius":5}',
    ],
  },
  {
    name: "oneOf of branches of different types",
    schema: {
      oneOf: [{ type: "integer", minimum: 1 }, { type: "string", maxLength: 2 }, { type: "null" }],
    },
    accepts: ["1", '"ab"', "null"],
    refuses: ["0", '"abc"', "true"],
  },
  {
    name: "anyOf alone: its branches nest as deep as they say (no free value cuts them)",
    schema: {
      anyOf: [
        {
          type: "object",
          properties: {
            a: {
              type: "object",
              properties: {
                b: {
                  type: "object",
                  properties: { c: { type: "object", properties: { d: { type: "integer" } } } },
                },
              },
            },
          },
        },
        { type: "null" },
      ],
    },
    accepts: ['{"a":{"b":{"c":{"d":1}}}}', "null"],
    refuses: ['{"a":{"b":{"c":{"d":"1"}}}}', "1"],
  },
  {
    name: "oneOf of strings and not: exact",
    schema: {
      oneOf: [{ type: "string", pattern: "^a" }, { type: "string", pattern: "b$" }],
      not: { const: "axb" },
    },
    accepts: ['"ax"', '"xb"'],
    refuses: ['"ab"', '"axb"', '"x"'],
  },
  {
    name: "dependencies: a property that needs another",
    schema: {
      type: "object",
      properties: { card: { type: "string" }, billing: { type: "string" } },
      dependencies: { card: ["billing"] },
    },
    accepts: ["{}", '{"billing":"x"}', '{"card":"1","billing":"x"}'],
    refuses: ['{"card":"1"}'],
  },
  {
    name: "local $ref, recursion bounded",
    schema: {
      $defs: { node: { type: "object", properties: { next: { $ref: "#/$defs/node" } } } },
      $ref: "#/$defs/node",
    },
    accepts: ["{}", '{"next":{}}', '{"next":{"next":{}}}'],
    refuses: ['{"next":1}'],
  },
  {
    name: "formats: date, date-time, email, uri enforced; others plain strings",
    schema: {
      type: "array",
      items: {
        anyOf: [{ type: "string", format: "date" }, { type: "string", format: "email" }, {
          type: "integer",
        }],
      },
    },
    accepts: ['["2024-02-29","a@b.co",1]'],
    refuses: ['["2023-02-29"]', '["a@b"]'],
  },
];

for (const { name, schema, accepts, refuses } of CASES) {
  Deno.test(`compileJsonSchema: ${name}`, () => {
    for (const text of accepts) assert.ok(takes(schema, text), `should accept ${text}`);
    for (const text of refuses) assert.ok(!takes(schema, text), `should refuse ${text}`);
  });
}

Deno.test("compileJsonSchema enforces ajv-formats' number formats: int32 and int64 are integers", () => {
  assert.ok(takes({ type: "number", format: "int32" }, "2147483647"));
  assert.ok(!takes({ type: "number", format: "int32" }, "2147483648"));
  assert.ok(!takes({ type: "number", format: "int64" }, "1.5"));
  assert.ok(takes({ type: "number", format: "double" }, "1.5"));
});

Deno.test("compileJsonSchema reads a format it does not enforce as a plain string, and says so", () => {
  const compiled = compileJsonSchema({ type: "string", format: "color" }, vocabulary);
  assert.deepEqual(compiled.ignoredFormats, ["color"]);
});

Deno.test("compileJsonSchema refuses what it cannot make exact, naming the keyword", () => {
  const refused: [unknown, string][] = [
    [{ type: "array", uniqueItems: true }, "uniqueItems"],
    [{ type: "integer", multipleOf: 3 }, "multipleOf"],
    [{ type: "object", patternProperties: { "^x": {} } }, "patternProperties"],
    [{ type: "string", pattern: "(a)\\1" }, "pattern"],
    [{ type: "number", maximum: -1e16 }, "maximum"],
    [{ oneOf: [{ type: "integer" }, { type: ["number", "null"] }] }, "oneOf"],
    [{ not: { type: "object" } }, "not"],
    [{ $ref: "https://example.com/schema" }, "$ref"],
    [{ if: { type: "string" } }, "if"],
    [{ type: "object", properties: { a: false }, required: ["a"] }, "a schema no value satisfies"],
  ];
  for (const [schema, keyword] of refused) {
    assert.throws(
      () => compileJsonSchema(schema, vocabulary),
      (error: unknown) =>
        error instanceof UnsupportedSchemaError && error.name === "UnsupportedSchemaError" &&
        error.keyword === keyword,
      JSON.stringify(schema),
    );
  }
});

Deno.test("compileJsonSchema stops at its limits with SchemaTooLargeError, naming the keyword", () => {
  const properties = Object.fromEntries(
    Array.from({ length: 16 }, (_, index) => [`p${index}`, {}]),
  );
  const oneOf = Object.keys(properties).map((name) => ({ required: [name] }));
  assert.throws(
    () => compileJsonSchema({ type: "object", properties, oneOf }, vocabulary),
    (error: unknown) => error instanceof SchemaTooLargeError && error.keyword === "oneOf",
  );
});

Deno.test("random instances generated under each case's mask all pass ajv", () => {
  let generated = 0;
  for (const { schema } of CASES) {
    const compiled = compileJsonSchema(schema, vocabulary);
    for (let seed = 1; seed <= 4; seed++) {
      try {
        // generateArguments checks its result with ajv and throws if the mask let a bad one through
        const result = generateArguments({ inputSchema: schema }, closingModel(vocabulary, seed), {
          compiled,
          temperature: 1,
          seed,
          maxTokens: 64,
        });
        assert.deepEqual(result.problems, []);
        generated++;
      } catch (error) {
        if (!(error instanceof MaxTokensError)) throw error;
      }
    }
  }
  assert.ok(generated >= CASES.length * 2, `only ${generated} instances were finished`);
});

Deno.test("inSchemaOrder writes an object of an anyOf in the order of its branches' properties", () => {
  const schema = {
    $defs: {
      text: {
        type: "object",
        properties: { text: { type: "string" }, type: { const: "text" } },
        required: ["text", "type"],
      },
      image: {
        type: "object",
        properties: { data: { type: "string" }, type: { const: "image" } },
        required: ["data", "type"],
      },
    },
    anyOf: [{ $ref: "#/$defs/text" }, { $ref: "#/$defs/image" }],
  };
  for (const value of [{ type: "image", data: "iVBO" }, { type: "text", text: "hi" }]) {
    const text = JSON.stringify(inSchemaOrder(value, schema));
    assert.ok(takes(schema, text), text);
  }
  // one order for every branch: the properties of each in turn, as the schema names them
  assert.equal(
    JSON.stringify(inSchemaOrder({ type: "image", data: "iVBO" }, schema)),
    '{"type":"image","data":"iVBO"}',
  );
});

// The wrong masks and needless refusals issue 41 lists, each fed token by
// token through the mask and judged by ajv: composition beside properties,
// const beside enum, counted lengths as large as tool schemas use, bounds
// written with exponents, lone surrogates, and refusals that name their keyword.

import assert from "node:assert/strict";
import {
  type CompiledGrammar,
  compileJsonSchema,
  GrammarMatcher,
  o200kVocabulary,
  schemaProblems,
  SchemaTooLargeError,
  UnsupportedSchemaError,
} from "../lib/mask/mod.ts";

const vocabulary = o200kVocabulary();

/** True when every token of `text` is in the mask before it, and then the stop token is. */
function completes(compiled: CompiledGrammar, text: string): boolean {
  const matcher = new GrammarMatcher(compiled);
  const mask = new Uint32Array(compiled.maskWords);
  const allowed = (id: number) => (mask[id >>> 5] & (1 << (id & 31))) !== 0;
  for (const id of [...vocabulary.encode(text), vocabulary.stopToken]) {
    matcher.fillNextTokenBitmask(mask);
    if (!allowed(id)) return false;
    assert.ok(matcher.acceptToken(id), `the mask allowed token ${id} the matcher refuses`);
  }
  return true;
}

/** Assert the mask completes exactly the texts ajv finds valid, of these. */
function agrees(schema: unknown, texts: string[], expected: boolean[]): void {
  const compiled = compileJsonSchema(schema, vocabulary);
  texts.forEach((text, index) => {
    const valid = schemaProblems(schema, JSON.parse(text)).length === 0;
    assert.equal(valid, expected[index], `ajv on ${text}`);
    assert.equal(
      completes(compiled, text),
      valid,
      `the mask on ${text} under ${JSON.stringify(schema)}`,
    );
  });
}

Deno.test("const beside enum: only the const the enum lists", () => {
  assert.throws(
    () => compileJsonSchema({ type: "string", const: "a", enum: ["b", "c"] }, vocabulary),
    (error: unknown) => error instanceof UnsupportedSchemaError,
    "no value is valid, so no mask",
  );
  agrees({ type: "string", const: "b", enum: ["b", "c"] }, ['"b"', '"c"'], [true, false]);
});

Deno.test("anyOf beside properties: a branch's additionalProperties forbids the parent's names", () => {
  const schema = {
    type: "object",
    properties: { a: { type: "integer" } },
    anyOf: [{ properties: { b: { type: "integer" } }, additionalProperties: false }],
  };
  agrees(schema, ['{"a":1}', '{"b":1}', "{}", '{"a":1,"b":1}'], [false, true, true, false]);
});

Deno.test("allOf beside properties: a branch's additionalProperties, false or a schema, binds the parent's names", () => {
  const closed = {
    type: "object",
    properties: { a: { type: "integer" }, b: { type: "integer" } },
    allOf: [{ properties: { a: {} }, additionalProperties: false }],
  };
  agrees(closed, ['{"a":1,"b":2}', '{"a":1}'], [false, true]);
  const typed = {
    type: "object",
    properties: { a: { type: "integer" }, b: { type: "integer" } },
    allOf: [{ properties: { a: {} }, additionalProperties: { type: "string" } }],
  };
  agrees(typed, ['{"a":1,"b":2}', '{"a":1}'], [false, true]);
});

Deno.test("oneOf of branches that declare their own properties: a name one branch leaves free is free there", () => {
  const schema = {
    type: "object",
    oneOf: [
      { properties: { radius: { type: "number" } }, required: ["radius"] },
      { properties: { side: { type: "number" } }, required: ["side"] },
    ],
  };
  agrees(
    schema,
    ['{"radius":2}', '{"radius":2,"side":"x"}', '{"radius":"x","side":1}', '{"radius":1,"side":1}'],
    [true, true, true, false],
  );
});

Deno.test("maxLength counted beside the automaton: 5000 and 100,000, exact at the bound", () => {
  const compiled = compileJsonSchema({ type: "string", maxLength: 5000 }, vocabulary);
  assert.ok(compiled.automaton.stateCount < 40, `${compiled.automaton.stateCount} states`);
  assert.ok(completes(compiled, JSON.stringify("ab".repeat(2500))));
  assert.ok(!completes(compiled, JSON.stringify("ab".repeat(2500) + "c")));
  // four characters before the bound, a token of five no longer fits; one of four does
  const matcher = new GrammarMatcher(compiled);
  assert.ok(matcher.acceptString(`"${"x".repeat(4996)}`));
  const mask = new Uint32Array(compiled.maskWords);
  matcher.fillNextTokenBitmask(mask);
  const isSet = (id: number) => (mask[id >>> 5] & (1 << (id & 31))) !== 0;
  const [five] = vocabulary.encode("hello");
  const [four] = vocabulary.encode("done");
  assert.equal(vocabulary.decode([five]), "hello");
  assert.equal(vocabulary.decode([four]), "done");
  assert.ok(!isSet(five) && isSet(four));
  // 100,000 characters: the long prefix accepted whole, the end token by token
  const long = compileJsonSchema({ type: "string", minLength: 2, maxLength: 100_000 }, vocabulary);
  const upTo = (count: number) => {
    const matcher = new GrammarMatcher(long);
    assert.ok(matcher.acceptString(`"${"é".repeat(count - 3)}`));
    return matcher;
  };
  const [e] = vocabulary.encode("é");
  assert.ok(upTo(100_000).acceptString("ééé") && upTo(100_000).acceptString('ééé"'));
  assert.ok(!upTo(100_001).acceptString('éééé"'));
  const near = upTo(100_000);
  near.acceptString("éé");
  near.fillNextTokenBitmask(mask);
  assert.ok(isSet(e) && !isSet(five) && !isSet(four));
  assert.ok(near.acceptToken(e));
  near.fillNextTokenBitmask(mask);
  assert.ok(!isSet(e) && isSet(vocabulary.encode('"')[0]));
  assert.ok(!completes(long, '"a"'));
});

Deno.test("maxItems counted beside the automaton: 500 strings of 50, and 10,000 items", () => {
  const schema = { type: "array", items: { type: "string", maxLength: 50 }, maxItems: 500 };
  const compiled = compileJsonSchema(schema, vocabulary);
  const items = (count: number) => JSON.stringify(Array.from({ length: count }, (_, i) => `${i}`));
  assert.ok(completes(compiled, items(500)));
  assert.ok(!completes(compiled, items(501)));
  assert.ok(!completes(compiled, JSON.stringify(["x".repeat(51)])));
  const many = compileJsonSchema({
    type: "array",
    items: { type: "integer" },
    maxItems: 10_000,
    minItems: 2,
  }, vocabulary);
  const numbers = (count: number) => JSON.stringify(Array.from({ length: count }, (_, i) => i));
  assert.ok(completes(many, numbers(10_000)));
  assert.ok(!completes(many, numbers(10_001)));
  assert.ok(!completes(many, numbers(1)));
});

Deno.test("a bound written with an exponent compiles; one no 15-digit number meets is refused naming it", () => {
  agrees({ type: "number", maximum: 1e21 }, ["1", "999999999999999", "1e+22"], [true, true, false]);
  agrees({ type: "number", exclusiveMinimum: 1e-7 }, ["0.0000002", "0.00000001"], [true, false]);
  assert.throws(
    () => compileJsonSchema({ type: "number", maximum: -1e16 }, vocabulary),
    (error: unknown) => error instanceof UnsupportedSchemaError && error.keyword === "maximum",
  );
});

Deno.test("a lone surrogate is one character, as ajv takes it; an escaped pair is never two", () => {
  agrees({ type: "string", pattern: "^[^a]$" }, ['"\\ud83d"', '"a"'], [true, false]);
  agrees({ type: "string", maxLength: 1 }, ['"\\udc00"', '"\\udc00\\ud83d"'], [true, false]);
  assert.throws(
    () =>
      compileJsonSchema(
        { type: "string", pattern: "^[\\ud800-\\udbff][\\udc00-\\udfff]$" },
        vocabulary,
      ),
    (error: unknown) => error instanceof UnsupportedSchemaError,
    "no string is a lone high surrogate before a lone low one",
  );
});

Deno.test("every refusal names the keyword it refuses", () => {
  const refused: [unknown, string][] = [
    [{ type: "array", uniqueItems: true }, "uniqueItems"],
    [{ type: "number", multipleOf: 0.5 }, "multipleOf"],
    [{ type: "object", dependentRequired: { a: ["b"] } }, "dependentRequired"],
    [{
      type: "object",
      properties: { a: { not: { type: "object" } } },
      not: { properties: { a: { type: "array" } } },
    }, "not"],
    [{ oneOf: [{ type: "integer" }, { type: "number", minimum: 0 }] }, "oneOf"],
    [{ $ref: "#/$defs/missing" }, "$ref"],
    [{ type: "string", format: "hostname" }, "format"],
    [{ type: "number", minimum: "1" }, "minimum"],
    [{ type: "string", maxLength: -1 }, "maxLength"],
    [{ type: "strin" }, "type"],
    [
      { anyOf: [{ type: "string", maxLength: 5000 }, { type: "string", pattern: "^a" }] },
      "maxLength",
    ],
  ];
  for (const [schema, keyword] of refused) {
    assert.throws(
      () => compileJsonSchema(schema, vocabulary),
      (error: unknown) => error instanceof UnsupportedSchemaError && error.keyword === keyword,
      `${JSON.stringify(schema)} should be refused naming ${keyword}`,
    );
  }
});

Deno.test("counts the automaton cannot meet are no value, never a dead end", () => {
  for (
    const schema of [
      { type: "string", maxLength: 0, pattern: "^[^a]$" },
      { type: "string", minLength: 5, pattern: "^\\d{3}$" },
      { type: "string", minLength: 1, maxLength: 0 },
    ]
  ) {
    assert.throws(
      () => compileJsonSchema(schema, vocabulary),
      (error: unknown) =>
        error instanceof UnsupportedSchemaError && error.keyword === "a schema no value satisfies",
      JSON.stringify(schema),
    );
  }
  // an array that may close before its first item still counts its items beside the automaton
  const numbers = { type: "array", items: { type: ["number", "null"] }, minItems: 1 };
  assert.ok(compileJsonSchema(numbers, vocabulary).automaton.regionInfo !== undefined);
  agrees(numbers, ["[1,null]", "[]"], [true, false]);
  // a oneOf of a string and an object: from the object's side, one branch
  agrees(
    { oneOf: [{ const: "none" }, { type: "object", properties: { n: { type: "integer" } } }] },
    ['"none"', '{"n":1}', '{"n":1.5}'],
    [true, true, false],
  );
});

Deno.test("not over a counted string subtracts it, counts and all", () => {
  agrees(
    { not: { type: "string", maxLength: 1, pattern: "^.{0,3}$" } },
    ['"abcd"', '"a"', "1"],
    [true, false, true],
  );
});

Deno.test("a name every JavaScript object inherits is refused: ajv reads it through the prototype", () => {
  // ajv finds {} invalid here ({}.toString is a function), and {} valid under required: ["toString"]
  assert.deepEqual(
    schemaProblems({ type: "object", properties: { toString: { type: "string" } } }, {}),
    ["/toString must be string"],
  );
  // JSON, as a server sends it: "__proto__" a property, not the prototype
  for (
    const [text, keyword] of [
      ['{"type":"object","properties":{"constructor":{"type":"null"}}}', "properties"],
      ['{"type":"object","required":["toString"]}', "required"],
      ['{"type":"object","dependencies":{"__proto__":["a"]}}', "dependencies"],
    ]
  ) {
    assert.throws(
      () => compileJsonSchema(JSON.parse(text), vocabulary),
      (error: unknown) => error instanceof UnsupportedSchemaError && error.keyword === keyword,
      text,
    );
  }
});

Deno.test("a pattern's long bounded repeat is refused by size, naming pattern, not built until memory runs out", () => {
  assert.throws(
    () => compileJsonSchema({ type: "string", pattern: "^a{1,100000}$" }, vocabulary),
    (error: unknown) => error instanceof SchemaTooLargeError && error.keyword === "pattern",
  );
  agrees({ type: "string", pattern: "^a{2,3}$" }, ['"aa"', '"aaa"', '"a"', '"aaaa"'], [
    true,
    true,
    false,
    false,
  ]);
});

Deno.test("a schema ajv cannot compile (a lone surrogate as a property name) is said plainly", () => {
  const schema = { type: "object", properties: { "\ud83d": { type: "string" } } };
  assert.throws(
    () => schemaProblems(schema, {}),
    (error: unknown) => error instanceof TypeError && /ajv cannot compile/.test(error.message),
  );
});

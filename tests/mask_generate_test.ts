// Decoding under the mask and without it: the masked call always validates,
// the unmasked one need not, the budget is a hard stop, and the stand-in
// model is seeded and small enough to print.

import assert from "node:assert/strict";
import { standInModel } from "../lib/course/stand_in.ts";
import { measureStandIn } from "../tools/release/record_lab_03.ts";
import {
  BigramModel,
  DEFAULT_MAX_TOKENS,
  generateArguments,
  generateUnmasked,
  MaxTokensError,
  o200kVocabulary,
} from "../lib/mask/mod.ts";

const vocabulary = o200kVocabulary();
const CONJUGATE = {
  type: "object",
  properties: {
    verb: { type: "string", enum: ["eat", "go"] },
    tense: { type: "string", enum: ["past_simple", "present_simple"] },
  },
  required: ["verb", "tense"],
  additionalProperties: false,
};

Deno.test("generateArguments is bounded by DEFAULT_MAX_TOKENS, and says so with MaxTokensError", () => {
  assert.equal(DEFAULT_MAX_TOKENS, 256);
  // a model that only ever wants to go on writing a string
  const [a] = vocabulary.encode("a");
  const model = () => {
    const scores = new Float32Array(vocabulary.size).fill(-100);
    scores[a] = 0;
    return scores;
  };
  assert.throws(
    () => generateArguments({ inputSchema: { type: "string" } }, model, { maxTokens: 10 }),
    (error: unknown) =>
      error instanceof MaxTokensError && error.name === "MaxTokensError" &&
      error.text === '"aaaaaaaaa',
  );
});

Deno.test("the same seed gives the same arguments; the stop token ends them", () => {
  const model = standInModel().model;
  const first = generateArguments({ inputSchema: CONJUGATE }, model, { temperature: 1, seed: 7 });
  const again = generateArguments({ inputSchema: CONJUGATE }, model, { temperature: 1, seed: 7 });
  assert.deepEqual(first, again);
  assert.equal(first.tokens.at(-1), vocabulary.stopToken);
  assert.deepEqual(first.problems, []);
});

Deno.test("the stand-in model unmasked writes calls that fail the schema; masked, none", () => {
  const rows = measureStandIn({ samples: 4 });
  assert.deepEqual(rows.map((row) => row.tool), [
    "conjugate",
    "lookup_spanish",
    "lookup_irregular_verb",
    "check_subject_verb_agreement",
  ]);
  assert.ok(
    rows.reduce((sum, row) => sum + row.unmaskedInvalid, 0) > 0,
    "unmasked, some call fails",
  );
  for (const row of rows) assert.equal(row.maskedInvalid, 0, row.tool);
});

Deno.test("generateUnmasked reports what is wrong rather than throwing", () => {
  const model = new BigramModel(vocabulary, ['{"verb":"run","tense":"past_simple"}']).model;
  const generated = generateUnmasked({ inputSchema: CONJUGATE }, model, { maxTokens: 12 });
  // greedy, the bigram model writes "run" and then loops: '":"' was followed by "run" first
  assert.match(generated.text, /^\{"verb":"run","tense":"run/);
  assert.deepEqual(generated.problems, ["the text is not JSON"]);
  const one = new BigramModel(vocabulary, ['{"verb":"run"}']).model;
  const wrong = generateUnmasked({ inputSchema: CONJUGATE }, one);
  assert.equal(wrong.text, '{"verb":"run"}');
  assert.ok(
    wrong.problems.some((problem) =>
      /\/verb must be equal to one of the allowed values/.test(problem)
    ),
  );
  const masked = generateArguments({ inputSchema: CONJUGATE }, model);
  assert.deepEqual(masked.problems, []);
  assert.match(masked.text, /^\{"verb":"(eat|go)","tense":"past_simple"\}$/);
});

Deno.test("BigramModel prints as its table", () => {
  const model = new BigramModel(vocabulary, ['{"verb":"eat"}']);
  assert.equal(
    model.toString(),
    [
      "⏹ → '{\"' ×1",
      '\'{"\' → "verb" ×1',
      '"verb" → \'":"\' ×1',
      '\'":"\' → "eat" ×1',
      '"eat" → \'"}\' ×1',
      "'\"}' → ⏹ ×1",
    ]
      .join("\n"),
  );
});

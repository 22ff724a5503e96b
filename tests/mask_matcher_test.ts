// GrammarMatcher's contract: the mask holds exactly the tokens acceptToken
// takes, a refused token changes nothing, the stop token comes only after a
// whole instance, and reset starts over.

import assert from "node:assert/strict";
import { compileJsonSchema, GrammarMatcher, o200kVocabulary } from "../lib/mask/mod.ts";

const vocabulary = o200kVocabulary();
const SCHEMA = {
  type: "object",
  properties: {
    verb: { type: "string", enum: ["eat", "go", "write"] },
    note: { type: "string" },
    day: { type: "string", format: "date" },
    count: { type: "integer", minimum: 1, maximum: 300 },
    tags: { type: "array", items: { type: "string", maxLength: 3 }, maxItems: 2 },
  },
  required: ["verb", "count"],
};
const compiled = compileJsonSchema(SCHEMA, vocabulary);
const isSet = (mask: Uint32Array, id: number) => (mask[id >>> 5] & (1 << (id & 31))) !== 0;

Deno.test("fillNextTokenBitmask sets exactly the tokens acceptToken takes, at every kind of place", () => {
  const prefixes = [
    "",
    '{"',
    '{"verb":"',
    '{"verb":"go","note":"caf',
    '{"verb":"go","note":"a\\',
    '{"verb":"go","day":"2024-02-',
    '{"verb":"go","count":2',
    '{"verb":"go","count":3,"tags":["ab',
    '{"verb":"go","count":3}',
  ];
  const mask = new Uint32Array(compiled.maskWords);
  for (const prefix of prefixes) {
    const matcher = new GrammarMatcher(compiled);
    assert.ok(matcher.acceptString(prefix), prefix);
    matcher.fillNextTokenBitmask(mask);
    let allowed = 0;
    for (let id = 0; id < vocabulary.size; id++) {
      const takes = matcher.acceptToken(id);
      if (isSet(mask, id) !== takes) {
        assert.fail(
          `after ${JSON.stringify(prefix)}, token ${id}: mask ${!takes}, acceptToken ${takes}`,
        );
      }
      if (takes) {
        allowed++;
        matcher.reset();
        matcher.acceptString(prefix);
      }
    }
    assert.ok(allowed > 0, `something may follow ${prefix}`);
  }
});

Deno.test("acceptToken refuses a token that cannot come next, and nothing changes", () => {
  const matcher = new GrammarMatcher(compiled);
  assert.ok(matcher.acceptString('{"verb":"'));
  const [run] = vocabulary.encode("run");
  assert.equal(matcher.acceptToken(run), false);
  assert.ok(matcher.acceptString('eat","count":1}'));
  assert.ok(matcher.isComplete());
});

Deno.test("the stop token comes only after a whole instance, and then nothing more", () => {
  const matcher = new GrammarMatcher(compiled);
  const mask = new Uint32Array(compiled.maskWords);
  assert.equal(matcher.acceptToken(vocabulary.stopToken), false);
  for (const id of vocabulary.encode('{"verb":"go","count":30')) assert.ok(matcher.acceptToken(id));
  assert.equal(matcher.isComplete(), false);
  matcher.fillNextTokenBitmask(mask);
  assert.equal(isSet(mask, vocabulary.stopToken), false);
  assert.ok(matcher.acceptString("}"));
  matcher.fillNextTokenBitmask(mask);
  assert.ok(isSet(mask, vocabulary.stopToken));
  assert.ok(matcher.acceptToken(vocabulary.stopToken));
  assert.ok(matcher.isTerminated());
  matcher.fillNextTokenBitmask(mask);
  assert.ok(mask.every((word) => word === 0));
  assert.equal(matcher.acceptString(" "), false);
  matcher.reset();
  assert.equal(matcher.isTerminated(), false);
  assert.equal(matcher.isComplete(), false);
  assert.ok(matcher.acceptString('{"verb":"eat","count":1}'));
});

Deno.test("special tokens other than the stop token are never allowed", () => {
  const matcher = new GrammarMatcher(compiled);
  for (let id = 199998; id < vocabulary.size; id++) {
    if (id !== vocabulary.stopToken) assert.equal(matcher.acceptToken(id), false);
  }
  assert.equal(matcher.acceptToken(-1), false);
  assert.equal(matcher.acceptToken(1.5), false);
});

Deno.test("fillNextTokenBitmask refuses a bitmask of the wrong length", () => {
  const matcher = new GrammarMatcher(compiled);
  assert.throws(() => matcher.fillNextTokenBitmask(new Uint32Array(6250)), RangeError);
});

Deno.test("masks computed at compile time are the masks computed on first use", () => {
  const eager = compileJsonSchema(SCHEMA, vocabulary, { precompute: true });
  const lazy = compileJsonSchema(SCHEMA, vocabulary, { precompute: false });
  assert.equal(eager.automaton.stateCount, lazy.automaton.stateCount);
  for (let state = 0; state < eager.automaton.stateCount; state++) {
    assert.deepEqual(eager.tokensAfter(state), lazy.tokensAfter(state), `state ${state}`);
  }
});

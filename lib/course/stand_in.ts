/**
 * The stand-in model of Lab 03: a bigram model trained on example calls of
 * the grammar server's four tools. What the library's mask does to its calls
 * is recorded by the instructors' build (`recorded.ts`).
 *
 * @module
 */

import { BigramModel } from "../mask/bigram_model.ts";
import { o200kVocabulary } from "../mask/vocabulary.ts";
import type { Sample } from "../mcp/client/sampling.ts";

/** One example call: a tool's name and its arguments. */
export interface ExampleCall {
  tool: string;
  arguments: Record<string, string>;
}

/**
 * Example calls of the grammar server's four tools, the stand-in model's
 * whole training set (every one valid under its tool's schema).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const examples = grammarExamples();
 * assert.deepEqual(examples[0], { tool: "conjugate", arguments: { verb: "eat", tense: "past_simple", person: "3sg" } });
 * assert.deepEqual(new Set(examples.map((example) => example.tool)).size, 4);
 * ```
 */
export function grammarExamples(): ExampleCall[] {
  const conjugate = [
    ["eat", "past_simple", "3sg"],
    ["go", "present_simple", "3sg"],
    ["be", "past_simple", "1pl"],
    ["write", "present_perfect", "1sg"],
    ["see", "future_simple", "2pl"],
    ["speak", "past_simple", "3pl"],
    ["walk", "present_simple", "2sg"],
    ["have", "present_perfect", "3sg"],
  ].map(([verb, tense, person]) => ({ tool: "conjugate", arguments: { verb, tense, person } }));
  const spanish = ["ate", "goes", "wrote", "sees", "walked", "speak"].map((english_form) => ({
    tool: "lookup_spanish",
    arguments: { english_form },
  }));
  const irregular = ["eat", "go", "write", "walk", "run"].map((verb) => ({
    tool: "lookup_irregular_verb",
    arguments: { verb },
  }));
  const agreement = [["he", "goes"], ["they", "go"], ["I", "am"], ["she", "go"], ["we", "went"]]
    .map((
      [subject, verb_form],
    ) => ({ tool: "check_subject_verb_agreement", arguments: { subject, verb_form } }));
  return [...conjugate, ...spanish, ...irregular, ...agreement];
}

/** The stand-in model: a bigram model of the examples' compact JSON, in o200k_base tokens. */
export function standInModel(): BigramModel {
  return new BigramModel(
    o200kVocabulary(),
    grammarExamples().map((example) => JSON.stringify(example.arguments)),
  );
}

/** The name the stand-in model gives itself in a sampling answer. */
export const STAND_IN_NAME = "stand-in bigram (o200k_base)";

/**
 * The stand-in model as a client's answer to a server's sampling request:
 * it reads the last message and writes after it, the likeliest token each
 * time, until its stop token or the request's `maxTokens`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const sample = standInSample();
 * const answer = await sample({ messages: [{ role: "user", text: '{"verb":"' }], maxTokens: 30 });
 * assert.equal(answer.text, 'go"}');
 * assert.equal(answer.stopReason, "endTurn");
 * ```
 */
export function standInSample(model: BigramModel = standInModel()): Sample {
  const { vocabulary } = model;
  return (request) => {
    const read = vocabulary.encode(request.messages.at(-1)!.text);
    const written: number[] = [];
    let stopReason: "endTurn" | "maxTokens" = "maxTokens";
    while (written.length < request.maxTokens) {
      const scores = model.scores(written.length === 0 ? read : written);
      let best = 0;
      for (let id = 1; id < scores.length; id++) if (scores[id] > scores[best]) best = id;
      if (best === vocabulary.stopToken) {
        stopReason = "endTurn";
        break;
      }
      written.push(best);
    }
    return Promise.resolve({ text: vocabulary.decode(written), model: STAND_IN_NAME, stopReason });
  };
}

// A model for the mask's tests: seeded random scores that favour tokens
// which close things (a quote, a brace, a bracket) and the stop token, so
// that random instances end within the token budget.

import type { Model, Vocabulary } from "../lib/mask/mod.ts";

/** A seeded random model over `vocabulary` (the same seed, the same scores). */
export function closingModel(vocabulary: Vocabulary, seed: number): Model {
  let state = seed >>> 0;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const scores = new Float32Array(vocabulary.size);
  for (let id = 0; id < vocabulary.size; id++) {
    const bytes = vocabulary.tokenBytes(id);
    const closes = bytes !== undefined &&
      bytes.some((byte) => byte === 0x22 || byte === 0x7d || byte === 0x5d);
    scores[id] = random() * 4 + (closes ? 6 : 0);
  }
  scores[vocabulary.stopToken] = 14;
  return () => scores;
}

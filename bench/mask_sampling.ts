// The random model row 10's generations sample from, the same for every
// engine: seeded scores, and softmax sampling among the allowed tokens.

import type { Vocabulary } from "../lib/mask/mod.ts";
import { seeded } from "../lib/mask/generate.ts";

/**
 * The random model generations sample from: seeded scores that favour
 * tokens which close a string, an object or an array, and the stop token,
 * so that most generations end within the budget.
 */
export function closingScores(vocabulary: Vocabulary): Float64Array {
  const random = seeded(2026);
  const scores = new Float64Array(vocabulary.size).fill(-Infinity);
  for (let id = 0; id < vocabulary.size; id++) {
    const bytes = vocabulary.tokenBytes(id);
    if (bytes === undefined) continue;
    const closes = bytes.some((byte) => byte === 0x22 || byte === 0x7d || byte === 0x5d);
    scores[id] = random() * 4 + (closes ? 6 : 0);
  }
  scores[vocabulary.stopToken] = 14;
  return scores;
}

/** One id sampled from the softmax of the allowed ids' scores, or -1 when none is allowed. */
export function sample(
  scores: Float64Array,
  allowed: (id: number) => boolean,
  random: () => number,
): number {
  let best = -Infinity;
  const ids: number[] = [];
  for (let id = 0; id < scores.length; id++) {
    if (allowed(id) && scores[id] > -Infinity) {
      ids.push(id);
      best = Math.max(best, scores[id]);
    }
  }
  if (ids.length === 0) return -1;
  const weights = ids.map((id) => Math.exp(scores[id] - best));
  let target = random() * weights.reduce((sum, weight) => sum + weight, 0);
  for (let index = 0; index < ids.length; index++) {
    target -= weights[index];
    if (target <= 0) return ids[index];
  }
  return ids[ids.length - 1];
}

/**
 * A stand-in for a language model, small enough to print: it counts which
 * token follows which in example texts, and scores the next token by those
 * counts (with a little of each token's overall count, so that it can leave
 * the examples, as a real model does). No weights to download, seeded,
 * and what it knows is one table.
 *
 * @module
 */

import type { Model } from "./generate.ts";
import type { Vocabulary } from "./vocabulary.ts";

/** Options for {@linkcode BigramModel}. */
export interface BigramOptions {
  /** The weight of the overall counts beside the pair counts. @default {0.05} */
  backoff?: number;
  /** The score of a token never seen in the examples. @default {-30} */
  unseen?: number;
}

/**
 * A token bigram model trained on example texts, each framed by the stop
 * token (so the stop token is also "the start").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { o200kVocabulary } from "./vocabulary.ts";
 *
 * const vocabulary = o200kVocabulary();
 * const model = new BigramModel(vocabulary, ['{"verb":"eat"}', '{"verb":"go"}']);
 * const scores = model.scores(vocabulary.encode('{"verb":"'));
 * const [eat] = vocabulary.encode("eat");
 * const [run] = vocabulary.encode("run");
 * assert.ok(scores[eat] > scores[run]);
 * assert.match(model.toString(), /"verb" → '":"' ×2/);
 * ```
 */
export class BigramModel {
  /** The vocabulary its ids are from. */
  readonly vocabulary: Vocabulary;
  /** For each token seen, how often each token followed it. */
  readonly pairs = new Map<number, Map<number, number>>();
  /** How often each token was seen (after another). */
  readonly counts = new Map<number, number>();
  private readonly backoff: number;
  private readonly unseen: number;
  private total = 0;

  constructor(vocabulary: Vocabulary, examples: readonly string[], options: BigramOptions = {}) {
    this.vocabulary = vocabulary;
    this.backoff = options.backoff ?? 0.05;
    this.unseen = options.unseen ?? -30;
    for (const example of examples) {
      const tokens = [vocabulary.stopToken, ...vocabulary.encode(example), vocabulary.stopToken];
      for (let index = 1; index < tokens.length; index++) {
        const after = this.pairs.get(tokens[index - 1]) ?? new Map<number, number>();
        after.set(tokens[index], (after.get(tokens[index]) ?? 0) + 1);
        this.pairs.set(tokens[index - 1], after);
        this.counts.set(tokens[index], (this.counts.get(tokens[index]) ?? 0) + 1);
        this.total++;
      }
    }
  }

  /**
   * The log-probability of each id after `tokens` (only the last one
   * counts): the mixture of the pair counts and, with weight `backoff`,
   * the overall counts; `unseen` for tokens never seen.
   */
  scores(tokens: readonly number[]): Float32Array {
    const scores = new Float32Array(this.vocabulary.size).fill(this.unseen);
    const previous = tokens.length === 0 ? this.vocabulary.stopToken : tokens[tokens.length - 1];
    const after = this.pairs.get(previous);
    const afterTotal = after === undefined
      ? 0
      : [...after.values()].reduce((sum, count) => sum + count, 0);
    const pairWeight = after === undefined ? 0 : 1 - this.backoff;
    for (const [id, count] of this.counts) {
      const pair = after?.get(id) ?? 0;
      const probability = pairWeight * (afterTotal === 0 ? 0 : pair / afterTotal) +
        (1 - pairWeight) * count / this.total;
      scores[id] = Math.log(probability);
    }
    return scores;
  }

  /** This model as a {@linkcode Model} function. */
  get model(): Model {
    return (tokens) => this.scores(tokens);
  }

  /** The table, one line per token: what followed it and how often. */
  toString(): string {
    const show = (id: number) => {
      if (id === this.vocabulary.stopToken) return "⏹";
      const text = this.vocabulary.decode([id]);
      return text.includes('"') && !/[\n\\']/.test(text) ? `'${text}'` : JSON.stringify(text);
    };
    return [...this.pairs].map(([previous, after]) =>
      `${show(previous)} → ${
        [...after].sort((a, b) => b[1] - a[1]).map(([id, count]) => `${show(id)} ×${count}`).join(
          ", ",
        )
      }`
    ).join("\n");
  }
}

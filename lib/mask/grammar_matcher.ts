/**
 * `GrammarMatcher`: where one generation is in a compiled schema, as
 * XGrammar's matcher is. It fills the mask of the tokens that may come next
 * and accepts tokens one at a time, refusing (and changing nothing) any token
 * that could not be followed by a valid instance.
 *
 * @module
 */

import type { CompiledGrammar } from "./compile.ts";
import { stepCounted } from "./count_step.ts";

/**
 * The state of one generation under a compiled schema.
 *
 * @example Two tokens of a call, then the stop token
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileJsonSchema } from "./compile.ts";
 * import { o200kVocabulary } from "./vocabulary.ts";
 *
 * const vocabulary = o200kVocabulary();
 * const schema = { type: "object", properties: { verb: { enum: ["eat", "go"] } }, required: ["verb"] };
 * const matcher = new GrammarMatcher(compileJsonSchema(schema, vocabulary));
 * const bitmask = new Uint32Array(Math.ceil(vocabulary.size / 32));
 * for (const id of vocabulary.encode('{"verb":"eat"}')) {
 *   matcher.fillNextTokenBitmask(bitmask);
 *   assert.ok(bitmask[id >>> 5] & (1 << (id & 31)));
 *   assert.ok(matcher.acceptToken(id));
 * }
 * assert.ok(matcher.isComplete());
 * assert.equal(matcher.acceptToken(vocabulary.encode("x")[0]), false);
 * assert.ok(matcher.acceptToken(vocabulary.stopToken));
 * assert.ok(matcher.isTerminated());
 * ```
 */
export class GrammarMatcher {
  /** The compiled schema this matcher walks. */
  readonly compiled: CompiledGrammar;
  private state = 0;
  private terminated = false;
  /** The counts of the regions the state is in, one per level (`regions.ts`). */
  private readonly counts: Float64Array;

  constructor(compiled: CompiledGrammar) {
    this.compiled = compiled;
    this.counts = new Float64Array(compiled.automaton.regionInfo?.levels ?? 0);
  }

  /**
   * Fill `bitmask` (`ceil(vocabulary.size / 32)` words): bit `i` set when
   * token `i` may come next. Throws `RangeError` for a bitmask of another length.
   */
  fillNextTokenBitmask(bitmask: Uint32Array): void {
    if (bitmask.length !== this.compiled.maskWords) {
      throw new RangeError(
        `The bitmask has ${bitmask.length} words; this vocabulary needs ${this.compiled.maskWords}`,
      );
    }
    if (this.terminated) bitmask.fill(0);
    else this.compiled.fill(this.state, this.counts, bitmask);
  }

  /** Accept token `id`; `false`, and nothing changed, when it may not come next. */
  acceptToken(id: number): boolean {
    if (this.terminated) return false;
    const vocabulary = this.compiled.vocabulary;
    if (id === vocabulary.stopToken) {
      if (!this.isComplete()) return false;
      this.terminated = true;
      return true;
    }
    const bytes = Number.isInteger(id) ? vocabulary.tokenBytes(id) : undefined;
    if (bytes === undefined || bytes.length === 0) return false;
    return this.advance(bytes);
  }

  /** Accept the bytes of `text` whatever tokens they would be; `false`, and nothing changed, when they may not come next. */
  acceptString(text: string): boolean {
    return !this.terminated && this.advance(new TextEncoder().encode(text));
  }

  /** True when what was accepted is a whole valid instance. */
  isComplete(): boolean {
    return this.terminated || this.compiled.automaton.accepting[this.state] === 1;
  }

  /** True once the stop token was accepted: nothing more may come. */
  isTerminated(): boolean {
    return this.terminated;
  }

  /** Back to the start, nothing accepted. */
  reset(): void {
    this.state = 0;
    this.terminated = false;
    this.counts.fill(0);
  }

  private advance(bytes: Uint8Array): boolean {
    const { automaton } = this.compiled;
    const info = automaton.regionInfo;
    if (info === undefined) {
      const next = automaton.run(bytes, this.state);
      if (next < 0) return false;
      this.state = next;
      return true;
    }
    const counts = this.counts.slice();
    const next = stepCounted(info, this.state, counts, bytes);
    if (next < 0) return false;
    this.state = next;
    this.counts.set(counts);
    return true;
  }
}

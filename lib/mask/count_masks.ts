/**
 * Masks of an automaton with counted regions (`regions.ts`). A state's mask
 * is computed once, as if no count were near its bound, by walking the
 * vocabulary's prefix tree with the ticks each token makes; the tokens whose
 * fate does depend on a count (too many characters for what `maxLength`
 * leaves, a closing quote before `minLength`) are kept beside it with what
 * they need. Far from the bounds a fill is that mask copied; near them the
 * few tokens that no longer fit are cleared, and the result kept for the
 * next time the same counts are that near.
 *
 * @module
 */

import type { ByteDfa } from "./byte_dfa.ts";
import type { RegionInfo } from "./regions.ts";
import type { TokenIndex } from "./token_index.ts";
import type { TokenTrie } from "./token_trie.ts";

/** What counts can take away from one state's mask. */
export interface Sensitive {
  /** The number of levels of the state's regions (levels 0 to `levels - 1`). */
  levels: number;
  /** The tokens a count may refuse. */
  ids: Int32Array;
  /** Per token and level: ticks the token makes there, plus those that must follow before the region can be left. */
  need: Int32Array;
  /** Per token and level: ticks made when the token leaves the region, or -1. */
  leave: Int32Array;
  /** The level plain tokens tick (one per character), or -1. */
  plainLevel: number;
  /** What a plain token needs at `plainLevel` beyond its characters. */
  plainNeed: number;
  /** Per level: the most any token needs, the fewest any token leaves with. */
  mostNeeded: number[];
  fewestLeaving: number[];
}

/**
 * The tokens a count may refuse at one state, gathered over one or more
 * walks (`walkCounted`), then summed up (`finish`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stringDfa } from "./string_grammar.ts";
 * import { tokenIndex } from "./token_index.ts";
 * import { o200kVocabulary } from "./vocabulary.ts";
 *
 * const dfa = stringDfa({ maxLength: 3 });
 * const inside = dfa.table[0x22];
 * const tokens = new SensitiveTokens(dfa.regionInfo!, inside);
 * tokens.add(7, [2], [-1]);
 * const found = tokens.finish(tokenIndex(o200kVocabulary()), -1, 0)!;
 * assert.deepEqual([...found.ids], [7]);
 * assert.deepEqual(found.mostNeeded, [2]);
 * ```
 */
export class SensitiveTokens {
  private readonly found: number[] = [];
  private readonly needs: number[] = [];
  private readonly leaves: number[] = [];
  /** The number of levels of the state's regions. */
  readonly own: number;

  constructor(info: RegionInfo, state: number) {
    const region = info.counting.regionOf[state];
    this.own = region < 0 ? 0 : info.level[region] + 1;
  }

  /** Keep a token whose needs or leavings (one per level) a count may refuse. */
  add(id: number, needs: number[], leaves: number[]): void {
    this.found.push(id);
    for (let level = 0; level < this.own; level++) {
      this.needs.push(needs[level]);
      this.leaves.push(leaves[level]);
    }
  }

  /** What counts can take away, plain tokens ticking `plainLevel` with `plainNeed` more. */
  finish(index: TokenIndex, plainLevel: number, plainNeed: number): Sensitive | undefined {
    const { own, needs, leaves } = this;
    if (own === 0) return undefined;
    const mostNeeded = Array.from({ length: own }, (_, level) => {
      let most = level === plainLevel ? index.byChars.length - 1 + plainNeed : 0;
      for (let at = level; at < needs.length; at += own) most = Math.max(most, needs[at]);
      return most;
    });
    const fewestLeaving = Array.from({ length: own }, (_, level) => {
      let fewest = Infinity;
      for (let at = level; at < leaves.length; at += own) {
        if (leaves[at] >= 0) fewest = Math.min(fewest, leaves[at]);
      }
      return fewest;
    });
    return {
      levels: own,
      ids: Int32Array.from(this.found),
      need: Int32Array.from(needs),
      leave: Int32Array.from(leaves),
      plainLevel,
      plainNeed,
      mostNeeded,
      fewestLeaving,
    };
  }
}

/**
 * Set in `mask` every token of `trie` the automaton can read from `from`
 * whatever the counts of the regions it starts in, checking those of regions
 * a token enters itself; keep in `sensitive` the tokens those counts can
 * refuse. With `plainLevel` ≥ 0, `trie` holds what follows each token's plain
 * prefix, whose characters (already read to reach `from`) tick that level;
 * with `skipBare`, tokens without a plain prefix are passed over.
 *
 * @example Before a string of at most 3 characters, `"hello"` cannot come
 * ```ts
 * import assert from "node:assert/strict";
 * import { stringDfa } from "./string_grammar.ts";
 * import { tokenIndex } from "./token_index.ts";
 * import { o200kVocabulary } from "./vocabulary.ts";
 *
 * const vocabulary = o200kVocabulary();
 * const index = tokenIndex(vocabulary);
 * const dfa = stringDfa({ maxLength: 3 });
 * const mask = new Uint32Array(index.plain.length);
 * walkCounted(mask, new SensitiveTokens(dfa.regionInfo!, 0), index, index.trie, dfa, dfa.regionInfo!, 0);
 * const has = (text: string) => vocabulary.encode(text).every((id) => (mask[id >>> 5] >>> (id & 31)) & 1);
 * assert.ok(has('"'));
 * assert.ok(!has('"hello"'));
 * ```
 */
export function walkCounted(
  mask: Uint32Array,
  sensitive: SensitiveTokens,
  index: TokenIndex,
  trie: TokenTrie,
  dfa: ByteDfa,
  info: RegionInfo,
  from: number,
  plainLevel = -1,
  skipBare = false,
): void {
  const { table } = dfa;
  const { regionOf, ticks: tickOf } = info.counting;
  const levels = info.levels;
  const own = sensitive.own;
  const { bytes, depths, ends, ids, skip } = trie;
  const width = trie.maxDepth + 1;
  const states = new Int32Array(width);
  const ticks = new Int32Array(width * levels);
  // per depth and level: 0 in the start's own region, 1 outside, 2 in a region the token entered
  const mode = new Int8Array(width * levels).fill(1);
  const leftAt = new Int32Array(width * levels).fill(-1);
  // per depth: 1 when the token has entered a region of its own (its bounds checked at its end)
  const fresh = new Uint8Array(width);
  for (let level = 0; level < own; level++) mode[level] = 0;
  states[0] = from;
  const needs: number[] = new Array(own);
  const leaves: number[] = new Array(own);
  for (let node = 0; node < bytes.length;) {
    const depth = depths[node];
    const before = states[depth - 1];
    const move = before * 256 + bytes[node];
    const next = table[move];
    if (next < 0) {
      node = skip[node];
      continue;
    }
    const at = depth * levels;
    for (let level = 0; level < levels; level++) {
      ticks[at + level] = ticks[at - levels + level];
      mode[at + level] = mode[at - levels + level];
      leftAt[at + level] = leftAt[at - levels + level];
    }
    fresh[depth] = fresh[depth - 1];
    let dead = false;
    const tick = tickOf[move];
    if (tick >= 0) {
      const level = info.level[tick];
      const made = ++ticks[at + level];
      if (mode[at + level] === 2 && made > info.max[tick]) dead = true;
    }
    const fromRegion = regionOf[before];
    const toRegion = regionOf[next];
    if (fromRegion !== toRegion) {
      let region = fromRegion;
      while (region >= 0 && !encloses(info, region, toRegion)) {
        const level = info.level[region];
        if (mode[at + level] === 2 && ticks[at + level] < info.min[region]) dead = true;
        if (mode[at + level] === 0) leftAt[at + level] = ticks[at + level];
        mode[at + level] = 1;
        region = info.parent[region];
      }
      for (
        let entered = toRegion;
        entered >= 0 && entered !== region;
        entered = info.parent[entered]
      ) {
        mode[at + info.level[entered]] = 2;
        ticks[at + info.level[entered]] = 0;
        fresh[depth] = 1;
      }
    }
    if (dead) {
      node = skip[node];
      continue;
    }
    states[depth] = next;
    const first = node === 0 ? 0 : ends[node - 1];
    if (first < ends[node] && (fresh[depth] === 0 || fits(info, next, at, mode, ticks))) {
      for (let at_ = first; at_ < ends[node]; at_++) {
        const id = ids[at_];
        const prefix = index.prefixChars[id];
        if (skipBare && prefix === 0) continue;
        mask[id >>> 5] |= 1 << (id & 31);
        let counted = false;
        for (let level = 0; level < own; level++) {
          const plain = level === plainLevel ? prefix : 0;
          const left = leftAt[at + level];
          needs[level] = left >= 0
            ? left + plain
            : ticks[at + level] + info.needed(next, level) + plain;
          leaves[level] = left >= 0 ? left + plain : -1;
          if (needs[level] > 0 || left >= 0) counted = true;
        }
        if (counted) sensitive.add(id, needs, leaves);
      }
    }
    node++;
  }
}

/** True when `region` is `inner` or lies around it. */
function encloses(info: RegionInfo, region: number, inner: number): boolean {
  for (let at = inner; at >= 0; at = info.parent[at]) if (at === region) return true;
  return false;
}

/** True when every region the token entered itself can still be left within its bounds from `state`. */
function fits(
  info: RegionInfo,
  state: number,
  at: number,
  mode: Int8Array,
  ticks: Int32Array,
): boolean {
  for (let region = info.counting.regionOf[state]; region >= 0; region = info.parent[region]) {
    const level = info.level[region];
    if (
      mode[at + level] === 2 && ticks[at + level] + info.needed(state, level) > info.max[region]
    ) {
      return false;
    }
  }
  return true;
}

/** The most masks near a bound kept per compiled schema. */
const KEPT = 256;

/**
 * Masks near a count's bound, computed on first use and kept.
 *
 * @example Three characters into a string of at most 4, only one more fits
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileJsonSchema } from "./compile.ts";
 * import { GrammarMatcher } from "./grammar_matcher.ts";
 * import { o200kVocabulary } from "./vocabulary.ts";
 *
 * const vocabulary = o200kVocabulary();
 * const matcher = new GrammarMatcher(compileJsonSchema({ type: "string", maxLength: 4 }, vocabulary));
 * matcher.acceptString('"abc');
 * const mask = new Uint32Array(Math.ceil(vocabulary.size / 32));
 * matcher.fillNextTokenBitmask(mask); // a GrammarMatcher fills through NearBounds
 * const has = (text: string) => ((mask[vocabulary.encode(text)[0] >>> 5] >>> (vocabulary.encode(text)[0] & 31)) & 1) === 1;
 * assert.ok(has("d") && !has("de"));
 * ```
 */
export class NearBounds {
  private readonly kept = new Map<string, Uint32Array>();

  /**
   * Fill `out` with `state`'s mask under `counts` (one per level): `base`
   * when no count is near enough to matter, else `base` less the tokens
   * that no longer fit.
   */
  fill(
    out: Uint32Array,
    base: Uint32Array,
    sensitive: Sensitive,
    info: RegionInfo,
    state: number,
    counts: Float64Array,
    index: TokenIndex,
  ): void {
    const room: number[] = [];
    const short: number[] = [];
    let near = false;
    for (let level = 0; level < sensitive.levels; level++) {
      const region = info.regionAt(state, level);
      const left = info.max[region] - counts[level];
      const missing = info.min[region] - counts[level];
      // clamped where every token fits alike, so that one kept mask serves all such counts
      room.push(Math.min(left, sensitive.mostNeeded[level]));
      short.push(Math.min(Math.max(missing, 0), sensitive.mostNeeded[level] + 1));
      if (left < sensitive.mostNeeded[level] || missing > sensitive.fewestLeaving[level]) {
        near = true;
      }
    }
    if (!near) {
      out.set(base);
      return;
    }
    const key = `${state} ${room.join(",")} ${short.join(",")}`;
    let mask = this.kept.get(key);
    if (mask === undefined) {
      mask = base.slice();
      const { ids, need, leave, levels } = sensitive;
      for (let token = 0; token < ids.length; token++) {
        for (let level = 0; level < levels; level++) {
          const at = token * levels + level;
          if (need[at] > room[level] || (leave[at] >= 0 && leave[at] < short[level])) {
            mask[ids[token] >>> 5] &= ~(1 << (ids[token] & 31));
            break;
          }
        }
      }
      const plain = sensitive.plainLevel;
      if (plain >= 0) {
        for (
          let chars = Math.max(room[plain] - sensitive.plainNeed + 1, 0);
          chars < index.byChars.length;
          chars++
        ) {
          for (const id of index.byChars[chars]) mask[id >>> 5] &= ~(1 << (id & 31));
        }
      }
      if (this.kept.size >= KEPT) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(key, mask);
    }
    out.set(mask);
  }
}

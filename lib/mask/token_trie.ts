/**
 * A prefix tree over a vocabulary's token bytes, stored flat in depth-first
 * order: tokens that share a prefix are walked once, as XGrammar and
 * llguidance walk theirs.
 *
 * @module
 */

import type { Vocabulary } from "./vocabulary.ts";

/**
 * The tokens of a vocabulary (or some of them) as a prefix tree. Node `i`
 * (in depth-first order) has a byte, a depth, the tokens ending there and
 * `skip[i]`, the first node after its subtree.
 *
 * @example Walk only the tokens that stay inside a set of bytes
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const bytes = ["a", "ab", "b", "ba"].map((text) => new TextEncoder().encode(text));
 * const trie = TokenTrie.fromTokens(bytes.map((token, id) => ({ id, bytes: token })));
 * const found: number[] = [];
 * // a one-state automaton that accepts "a" only: state 0, -1 is dead
 * trie.walk(0, (state, byte) => byte === 97 ? 0 : -1, (id) => found.push(id));
 * assert.deepEqual(found, [0]);
 * ```
 */
export class TokenTrie {
  /** The byte of each node. */
  readonly bytes: Uint8Array;
  /** The depth of each node (1 for a token's first byte). */
  readonly depths: Uint16Array;
  /** The tokens ending at node `i` are `ids[ends[i - 1] ?? 0 .. ends[i]]`. */
  readonly ends: Int32Array;
  /** The token ids, grouped by the node they end at. */
  readonly ids: Int32Array;
  /** The first node after each node's subtree. */
  readonly skip: Int32Array;
  /** The deepest node's depth. */
  readonly maxDepth: number;

  private constructor(
    bytes: Uint8Array,
    depths: Uint16Array,
    ends: Int32Array,
    ids: Int32Array,
    skip: Int32Array,
  ) {
    this.bytes = bytes;
    this.depths = depths;
    this.ends = ends;
    this.ids = ids;
    this.skip = skip;
    this.maxDepth = depths.reduce((max, depth) => Math.max(max, depth), 0);
  }

  /** The tree of every token of `vocabulary` that has bytes. */
  static forVocabulary(vocabulary: Vocabulary): TokenTrie {
    const entries = [];
    for (let id = 0; id < vocabulary.size; id++) {
      const bytes = vocabulary.tokenBytes(id);
      if (bytes !== undefined && bytes.length > 0) entries.push({ id, bytes });
    }
    return TokenTrie.fromTokens(entries);
  }

  /** The tree of these tokens; tokens with the same bytes end at the same node. */
  static fromTokens(entries: { id: number; bytes: Uint8Array }[]): TokenTrie {
    const sorted = [...entries].sort((a, b) => compareBytes(a.bytes, b.bytes) || a.id - b.id);
    const bytes: number[] = [];
    const depths: number[] = [];
    const ends: number[] = [];
    const ids: number[] = [];
    let previous: Uint8Array | undefined;
    for (const entry of sorted) {
      if (entry.bytes.length === 0) continue;
      let common = 0;
      while (
        previous !== undefined && common < previous.length && common < entry.bytes.length &&
        previous[common] === entry.bytes[common]
      ) common++;
      if (previous === undefined || common < entry.bytes.length || common < previous.length) {
        for (let depth = common; depth < entry.bytes.length; depth++) {
          bytes.push(entry.bytes[depth]);
          depths.push(depth + 1);
          ends.push(ids.length);
        }
      }
      ids.push(entry.id);
      ends[ends.length - 1] = ids.length;
      previous = entry.bytes;
    }
    const skip = new Int32Array(bytes.length);
    const open: number[] = [];
    for (let node = 0; node < bytes.length; node++) {
      while (open.length > 0 && depths[open[open.length - 1]] >= depths[node]) {
        skip[open.pop()!] = node;
      }
      open.push(node);
    }
    for (const node of open) skip[node] = bytes.length;
    return new TokenTrie(
      Uint8Array.from(bytes),
      Uint16Array.from(depths),
      Int32Array.from(ends),
      Int32Array.from(ids),
      skip,
    );
  }

  /** The number of nodes. */
  get length(): number {
    return this.bytes.length;
  }

  /**
   * Walk every token whose bytes an automaton can read from `start`:
   * `step(state, byte)` gives the next state, or -1 (dead: the subtree is
   * skipped); `found(id, state)` is called for each token read whole.
   */
  walk(
    start: number,
    step: (state: number, byte: number) => number,
    found: (id: number, state: number) => void,
  ): void {
    const { bytes, depths, ends, ids, skip } = this;
    const states = new Int32Array(this.maxDepth + 1);
    states[0] = start;
    for (let node = 0; node < bytes.length;) {
      const next = step(states[depths[node] - 1], bytes[node]);
      if (next < 0) {
        node = skip[node];
        continue;
      }
      states[depths[node]] = next;
      for (let index = node === 0 ? 0 : ends[node - 1]; index < ends[node]; index++) {
        found(ids[index], next);
      }
      node++;
    }
  }
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    if (a[index] !== b[index]) return a[index] - b[index];
  }
  return a.length - b.length;
}

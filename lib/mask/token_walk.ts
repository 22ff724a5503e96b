/**
 * Walks of the vocabulary's prefix tree against an automaton's table: the
 * tokens a state allows, as bits or as ids, and inside a string, what its
 * content allows without a quote (computed once per process for each
 * content, shared by every automaton that holds it).
 *
 * @module
 */

import type { ByteDfa } from "./byte_dfa.ts";
import { plainTarget, type TokenIndex } from "./token_index.ts";
import type { TokenTrie } from "./token_trie.ts";
import type { Vocabulary } from "./vocabulary.ts";

const insides = new WeakMap<Vocabulary, WeakMap<ByteDfa, Map<number, Uint32Array>>>();

/**
 * The tokens `content` reads whole from `state`: inside a string, every
 * token without a quote that may come next (kept for every automaton that
 * holds this content).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalContent } from "./json_chars.ts";
 * import { tokenIndex } from "./token_index.ts";
 * import { o200kVocabulary } from "./vocabulary.ts";
 *
 * const vocabulary = o200kVocabulary();
 * const inside = insideMask(vocabulary, tokenIndex(vocabulary), canonicalContent(), 0);
 * const has = (text: string) => vocabulary.encode(text).every((id) => (inside[id >>> 5] >>> (id & 31)) & 1);
 * assert.ok(has(" hello world"));
 * assert.ok(!has('"'));
 * ```
 */
export function insideMask(
  vocabulary: Vocabulary,
  index: TokenIndex,
  content: ByteDfa,
  state: number,
): Uint32Array {
  let byContent = insides.get(vocabulary);
  if (byContent === undefined) insides.set(vocabulary, byContent = new WeakMap());
  let byState = byContent.get(content);
  if (byState === undefined) byContent.set(content, byState = new Map());
  let mask = byState.get(state);
  if (mask === undefined) {
    const target = plainTarget(content.table, state);
    if (target === undefined) {
      mask = new Uint32Array(index.plain.length);
      walkInto(mask, index.trie, content.table, state);
    } else {
      mask = index.plain.slice();
      walkInto(
        mask,
        index.rest,
        content.table,
        target,
        target === state ? undefined : index.prefixChars,
      );
      if (target !== state) walkInto(mask, index.bare, content.table, state);
    }
    byState.set(state, mask);
  }
  return mask;
}

/**
 * Call `found` for every token of `trie` the table can read from `start`:
 * `TokenTrie.walk` with the automaton's table read in place, since a call
 * per byte would cost more than the walk itself. With `prefixChars`, tokens
 * without a plain prefix are passed over.
 */
function walkTable(
  trie: TokenTrie,
  table: Int32Array,
  start: number,
  prefixChars: Uint16Array | undefined,
  found: (id: number) => void,
): void {
  const { bytes, depths, ends, ids, skip } = trie;
  const states = new Int32Array(trie.maxDepth + 1);
  states[0] = start;
  for (let node = 0; node < bytes.length;) {
    const depth = depths[node];
    const next = table[states[depth - 1] * 256 + bytes[node]];
    if (next < 0) {
      node = skip[node];
      continue;
    }
    states[depth] = next;
    for (let index = node === 0 ? 0 : ends[node - 1]; index < ends[node]; index++) {
      const id = ids[index];
      if (prefixChars === undefined || prefixChars[id] > 0) found(id);
    }
    node++;
  }
}

/**
 * `walkTable` setting each token's bit in `mask`.
 *
 * @example The tokens that may start a boolean
 * ```ts
 * import assert from "node:assert/strict";
 * import { literalDfa } from "./_schema_parts.ts";
 * import { tokenIndex } from "./token_index.ts";
 * import { o200kVocabulary } from "./vocabulary.ts";
 *
 * const vocabulary = o200kVocabulary();
 * const index = tokenIndex(vocabulary);
 * const mask = new Uint32Array(index.plain.length);
 * walkInto(mask, index.trie, literalDfa(["true", "false"]).table, 0);
 * const [t] = vocabulary.encode("true");
 * assert.ok((mask[t >>> 5] >>> (t & 31)) & 1);
 * const ids: number[] = [];
 * walkIds(ids, index.trie, literalDfa(["true", "false"]).table, 0);
 * assert.ok(ids.includes(t));
 * ```
 */
export function walkInto(
  mask: Uint32Array,
  trie: TokenTrie,
  table: Int32Array,
  start: number,
  prefixChars?: Uint16Array,
): void {
  walkTable(trie, table, start, prefixChars, (id) => mask[id >>> 5] |= 1 << (id & 31));
}

/** `walkTable` pushing each token onto `ids` (see `walkInto`). */
export function walkIds(
  ids: number[],
  trie: TokenTrie,
  table: Int32Array,
  start: number,
  prefixChars?: Uint16Array,
): void {
  walkTable(trie, table, start, prefixChars, (id) => ids.push(id));
}

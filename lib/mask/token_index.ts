/**
 * What the mask needs to know about a vocabulary, built once per vocabulary:
 * the prefix tree of all its tokens, and the split that makes the inside of
 * a free string cheap. Most tokens are "plain" (whole UTF-8 characters, none
 * a quote, a backslash or a control character): inside a string whose
 * characters are free, each plain token leads back to the same state, so
 * their bits are copied at once and only the rest of each other token
 * (after its plain prefix) is walked.
 *
 * @module
 */

import { TokenTrie } from "./token_trie.ts";
import type { Vocabulary } from "./vocabulary.ts";

/** A vocabulary's tokens, arranged for filling masks. */
export interface TokenIndex {
  /** Every token with bytes. */
  readonly trie: TokenTrie;
  /** Bit `i` set for each plain token. */
  readonly plain: Uint32Array;
  /** Every other token, by what follows its longest plain prefix. */
  readonly rest: TokenTrie;
  /** The other tokens that have no plain prefix at all, whole. */
  readonly bare: TokenTrie;
  /** The tokens that hold a quote (the only ones that can leave a string), whole. */
  readonly quoted: TokenTrie;
  /** Per token, the characters of its longest plain prefix (all of a plain token's). */
  readonly prefixChars: Uint16Array;
  /** The plain tokens by their number of characters: `byChars[n]` has those of `n`. */
  readonly byChars: Int32Array[];
}

const built = new WeakMap<Vocabulary, TokenIndex>();

/**
 * The index of `vocabulary`, built on first use.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { o200kVocabulary } from "./vocabulary.ts";
 *
 * const vocabulary = o200kVocabulary();
 * const index = tokenIndex(vocabulary);
 * const [word] = vocabulary.encode(" hello");
 * assert.ok(index.plain[word >>> 5] & (1 << (word & 31)));
 * ```
 */
export function tokenIndex(vocabulary: Vocabulary): TokenIndex {
  let index = built.get(vocabulary);
  if (index !== undefined) return index;
  const plain = new Uint32Array(Math.ceil(vocabulary.size / 32));
  const rest: { id: number; bytes: Uint8Array }[] = [];
  const bare: { id: number; bytes: Uint8Array }[] = [];
  const quoted: { id: number; bytes: Uint8Array }[] = [];
  const prefixChars = new Uint16Array(vocabulary.size);
  const byChars: number[][] = [];
  for (let id = 0; id < vocabulary.size; id++) {
    const bytes = vocabulary.tokenBytes(id);
    if (bytes === undefined || bytes.length === 0) continue;
    const prefix = plainPrefix(bytes);
    if (bytes.includes(0x22)) quoted.push({ id, bytes });
    // a plain prefix is whole UTF-8 characters: count the bytes that start one
    for (let at = 0; at < prefix; at++) if ((bytes[at] & 0xc0) !== 0x80) prefixChars[id]++;
    if (prefix === bytes.length) {
      plain[id >>> 5] |= 1 << (id & 31);
      (byChars[prefixChars[id]] ??= []).push(id);
    } else {
      rest.push({ id, bytes: bytes.subarray(prefix) });
      if (prefix === 0) bare.push({ id, bytes });
    }
  }
  index = {
    trie: TokenTrie.forVocabulary(vocabulary),
    plain,
    rest: TokenTrie.fromTokens(rest),
    bare: TokenTrie.fromTokens(bare),
    quoted: TokenTrie.fromTokens(quoted),
    prefixChars,
    byChars: Array.from(byChars, (ids) => Int32Array.from(ids ?? [])),
  };
  built.set(vocabulary, index);
  return index;
}

/** The length of the longest prefix of `bytes` made of whole plain characters. *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode('ab"}');
 * assert.equal(plainPrefix(bytes), 2);
 * ```
 */
export function plainPrefix(bytes: Uint8Array): number {
  let at = 0;
  while (at < bytes.length) {
    const length = plainCharLength(bytes, at);
    if (length === 0) break;
    at += length;
  }
  return at;
}

/** The length of the plain character at `at`, or 0 when there is none. */
function plainCharLength(bytes: Uint8Array, at: number): number {
  const first = bytes[at];
  if (first < 0x80) return first >= 0x20 && first !== 0x22 && first !== 0x5c ? 1 : 0;
  let length: number, low = 0x80, high = 0xbf;
  if (first >= 0xc2 && first <= 0xdf) length = 2;
  else if (first >= 0xe0 && first <= 0xef) {
    length = 3;
    if (first === 0xe0) low = 0xa0;
    if (first === 0xed) high = 0x9f;
  } else if (first >= 0xf0 && first <= 0xf4) {
    length = 4;
    if (first === 0xf0) low = 0x90;
    if (first === 0xf4) high = 0x8f;
  } else return 0;
  if (at + length > bytes.length) return 0;
  if (bytes[at + 1] < low || bytes[at + 1] > high) return 0;
  for (let index = 2; index < length; index++) {
    if (bytes[at + index] < 0x80 || bytes[at + index] > 0xbf) return 0;
  }
  return length;
}

/**
 * The state every plain character read from `state` leads to, when that is
 * one state and it loops on plain characters (`loopsOnPlain`): then every
 * plain token leads there. `undefined` otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * import { stringDfa } from "./string_grammar.ts";
 *
 * const dfa = stringDfa({});
 * const inside = dfa.table[0 * 256 + 0x22];
 * assert.equal(plainTarget(dfa.table, inside), inside);
 * assert.equal(plainTarget(dfa.table, 0), undefined);
 * ```
 */
export function plainTarget(table: Int32Array, state: number): number | undefined {
  if (loopsOnPlain(table, state)) return state;
  const target = table[state * 256 + 0x61];
  if (target < 0 || !loopsOnPlain(table, target)) return undefined;
  // every plain character from `state` must reach `target`: as from `target` itself
  const next = (from: number, byte: number) => from < 0 ? -1 : table[from * 256 + byte];
  for (let byte = 0x20; byte < 0x80; byte++) {
    if (byte !== 0x22 && byte !== 0x5c && next(state, byte) !== target) return undefined;
  }
  for (let first = 0xc2; first <= 0xf4; first++) {
    // the rest of the character is read alike from both: the same state after the lead byte
    if (next(state, first) !== next(target, first)) return undefined;
  }
  return target;
}

/**
 * True when every plain character read from `state` of this table leads
 * back to `state`: then every plain token does too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * import { stringDfa } from "./string_grammar.ts";
 *
 * const dfa = stringDfa({});
 * // state 0 is before the opening quote; after it, the free inside of the string
 * const inside = dfa.table[0 * 256 + 0x22];
 * assert.ok(loopsOnPlain(dfa.table, inside));
 * assert.ok(!loopsOnPlain(dfa.table, 0));
 * ```
 */
export function loopsOnPlain(table: Int32Array, state: number): boolean {
  const next = (from: number, byte: number) => from < 0 ? -1 : table[from * 256 + byte];
  for (let byte = 0x20; byte < 0x80; byte++) {
    if (byte !== 0x22 && byte !== 0x5c && next(state, byte) !== state) return false;
  }
  const back = new Map<number, boolean>();
  // from `from`, `depth` more continuation bytes lead back to `state`
  const returns = (from: number, depth: number): boolean => {
    if (from < 0) return false;
    if (depth === 0) return from === state;
    const key = from * 4 + depth;
    let known = back.get(key);
    if (known === undefined) {
      known = true;
      for (let byte = 0x80; byte <= 0xbf && known; byte++) {
        known = returns(next(from, byte), depth - 1);
      }
      back.set(key, known);
    }
    return known;
  };
  for (let first = 0xc2; first <= 0xf4; first++) {
    const length = first <= 0xdf ? 2 : first <= 0xef ? 3 : 4;
    const low = first === 0xe0 ? 0xa0 : first === 0xf0 ? 0x90 : 0x80;
    const high = first === 0xed ? 0x9f : first === 0xf4 ? 0x8f : 0xbf;
    const after = next(state, first);
    for (let second = low; second <= high; second++) {
      if (!returns(next(after, second), length - 2)) return false;
    }
  }
  return true;
}

/**
 * One character of a JSON string, from a set of code points, as the bytes
 * `JSON.stringify` writes for it: the short escapes (`\"`, `\\`, `\n`...),
 * `\u00XX` for other control characters, UTF-8 for everything else.
 * Surrogate code points are never read: they cannot be UTF-8.
 *
 * @module
 */

import type { ByteNfa, Fragment } from "./byte_nfa.ts";

/** A set of code points as sorted, disjoint, inclusive ranges. */
export type CharSet = [number, number][];

/** Every code point. */
export const ANY_CHAR: CharSet = [[0, 0x10ffff]];

/** How `JSON.stringify` writes code point `code` inside a string. *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(jsonEscape(0x0a), "\\n");
 * assert.equal(jsonEscape(0x01), "\\u0001");
 * assert.equal(jsonEscape(0xe9), "é");
 * ```
 */
export function jsonEscape(code: number): string {
  return JSON.stringify(String.fromCodePoint(code)).slice(1, -1);
}

/**
 * The fragment that reads one character of `set`, JSON-encoded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ByteNfa } from "./byte_nfa.ts";
 * import { ByteDfa } from "./byte_dfa.ts";
 *
 * const nfa = new ByteNfa();
 * const dfa = ByteDfa.fromNfa(nfa, jsonChar(nfa, [[0x0a, 0x0a], [0xe9, 0xe9]]));
 * assert.ok(dfa.accepts(new TextEncoder().encode("\\n")));
 * assert.ok(dfa.accepts(new TextEncoder().encode("é")));
 * assert.ok(!dfa.accepts(new TextEncoder().encode("\n")));
 * ```
 */
export function jsonChar(nfa: ByteNfa, set: CharSet): Fragment {
  const start = nfa.state();
  const end = nfa.state();
  const utf8 = new TextEncoder();
  for (const [low, high] of set) {
    // the characters written escaped, one by one
    for (let code = low; code <= Math.min(high, 0x5c); code++) {
      if (code < 0x20 || code === 0x22 || code === 0x5c) {
        const path = nfa.literal(utf8.encode(jsonEscape(code)));
        nfa.link(start, path.start);
        nfa.link(path.end, end);
      }
    }
    for (const [from, to] of plainRanges(low, high)) {
      for (const sequence of utf8Sequences(from, to)) {
        let state = start;
        sequence.forEach(([lowByte, highByte], index) => {
          const next = index === sequence.length - 1 ? end : nfa.state();
          nfa.move(state, lowByte, highByte, next);
          state = next;
        });
      }
    }
  }
  return { start, end };
}

/** The parts of `low..high` written as themselves: not control, quote, backslash or surrogate. */
function plainRanges(low: number, high: number): CharSet {
  const holes: CharSet = [[0, 0x1f], [0x22, 0x22], [0x5c, 0x5c], [0xd800, 0xdfff]];
  let pieces: CharSet = [[low, high]];
  for (const [holeLow, holeHigh] of holes) {
    pieces = pieces.flatMap(([from, to]): CharSet => {
      if (to < holeLow || from > holeHigh) return [[from, to]];
      const kept: CharSet = [];
      if (from < holeLow) kept.push([from, holeLow - 1]);
      if (to > holeHigh) kept.push([holeHigh + 1, to]);
      return kept;
    });
  }
  return pieces;
}

/**
 * The UTF-8 encodings of `low..high` (no surrogates in it) as sequences of
 * byte ranges, each sequence a product of its ranges: the splitting that
 * RE2 and Rust's regex crate do.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(utf8Sequences(0x41, 0x5a), [[[0x41, 0x5a]]]);
 * assert.deepEqual(utf8Sequences(0xe9, 0xe9), [[[0xc3, 0xc3], [0xa9, 0xa9]]]);
 * ```
 */
export function utf8Sequences(low: number, high: number): [number, number][][] {
  const limits = [0x7f, 0x7ff, 0xffff, 0x10ffff];
  for (const limit of limits.slice(0, 3)) {
    if (low <= limit && high > limit) {
      return [...utf8Sequences(low, limit), ...utf8Sequences(limit + 1, high)];
    }
  }
  const length = limits.findIndex((limit) => high <= limit) + 1;
  for (let index = 1; index < length; index++) {
    const mask = (1 << (6 * index)) - 1;
    if ((low & ~mask) !== (high & ~mask)) {
      if ((low & mask) !== 0) {
        return [...utf8Sequences(low, low | mask), ...utf8Sequences((low | mask) + 1, high)];
      }
      if ((high & mask) !== mask) {
        return [...utf8Sequences(low, (high & ~mask) - 1), ...utf8Sequences(high & ~mask, high)];
      }
    }
  }
  const encode = (code: number) => new TextEncoder().encode(String.fromCodePoint(code));
  const lowBytes = encode(low);
  const highBytes = encode(high);
  return [Array.from(lowBytes, (byte, index): [number, number] => [byte, highBytes[index]])];
}

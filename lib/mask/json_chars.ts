/**
 * One character of a JSON string, from a set of code points, as the bytes
 * `JSON.stringify` writes for it: the short escapes (`\"`, `\\`, `\n`...),
 * `\u00XX` for other control characters, `\udXXX` (lower case) for a lone
 * surrogate, UTF-8 for everything else. A lone surrogate is one character,
 * as ajv counts it and as a pattern's `u` flag reads it; an escaped high
 * surrogate is never followed by an escaped low one (`canonicalContent`),
 * since JSON.parse would join the two into one character.
 *
 * @module
 */

import { ByteDfa } from "./byte_dfa.ts";
import { ByteNfa, type Fragment } from "./byte_nfa.ts";
import type { CharSet } from "./char_set.ts";

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
    const surrogates: [number, number] = [Math.max(low, 0xd800), Math.min(high, 0xdfff)];
    if (surrogates[0] <= surrogates[1]) escapedSurrogates(nfa, start, end, surrogates);
  }
  return { start, end };
}

/** `\udXXX` for each surrogate in `low..high`, lower-case hex as JSON.stringify writes it. */
function escapedSurrogates(
  nfa: ByteNfa,
  start: number,
  end: number,
  [low, high]: [number, number],
): void {
  const prefix = nfa.literal(new TextEncoder().encode("\\ud"));
  nfa.link(start, prefix.start);
  for (const digits of hexSequences(low - 0xd000, high - 0xd000, 3)) {
    let state = prefix.end;
    digits.forEach(([from, to], index) => {
      const next = index === digits.length - 1 ? end : nfa.state();
      // 0-9 are 0x30..0x39, a-f are 0x61..0x66
      if (from <= 9) nfa.move(state, 0x30 + from, 0x30 + Math.min(to, 9), next);
      if (to >= 10) nfa.move(state, 0x61 + Math.max(from, 10) - 10, 0x61 + to - 10, next);
      state = next;
    });
  }
}

/** The `digits`-digit hex numbers `low..high` as sequences of ranges of digit values, one per place. */
function hexSequences(low: number, high: number, digits: number): [number, number][][] {
  if (digits === 1) return [[[low, high]]];
  const unit = 16 ** (digits - 1);
  const [lowHead, lowRest] = [Math.floor(low / unit), low % unit];
  const [highHead, highRest] = [Math.floor(high / unit), high % unit];
  const under = (head: number, from: number, to: number) =>
    hexSequences(from, to, digits - 1).map((rest): [number, number][] => [[head, head], ...rest]);
  if (lowHead === highHead) return under(lowHead, lowRest, highRest);
  const middle: [number, number][][] = lowHead + 1 <= highHead - 1
    ? [[
      [lowHead + 1, highHead - 1],
      ...Array.from({ length: digits - 1 }, (): [number, number] => [0, 15]),
    ]]
    : [];
  return [...under(lowHead, lowRest, unit - 1), ...middle, ...under(highHead, 0, highRest)];
}

let canonical: ByteDfa | undefined;

/**
 * The content of a JSON string as JSON.stringify writes it (no quotes): any
 * characters, an escaped high surrogate never followed by an escaped low one.
 * Its accepting states are exactly those between two characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const bytes = (text: string) => new TextEncoder().encode(JSON.stringify(text).slice(1, -1));
 * assert.ok(canonicalContent().accepts(bytes("a\ud83d")));
 * assert.ok(canonicalContent().accepts(bytes("\ude00\ud83d")));
 * assert.ok(!canonicalContent().accepts(new TextEncoder().encode("\\ud83d\\ude00")));
 * ```
 */
export function canonicalContent(): ByteDfa {
  if (canonical !== undefined) return canonical;
  const nfa = new ByteNfa();
  const free = nfa.state();
  const afterHigh = nfa.state();
  const read = (from: number, set: CharSet, to: number) => {
    const char = jsonChar(nfa, set);
    nfa.link(from, char.start);
    nfa.link(char.end, to);
  };
  const other: CharSet = [[0, 0xd7ff], [0xe000, 0x10ffff]];
  for (const from of [free, afterHigh]) {
    read(from, other, free);
    read(from, [[0xd800, 0xdbff]], afterHigh);
  }
  read(free, [[0xdc00, 0xdfff]], free);
  const end = nfa.state();
  nfa.link(free, end);
  nfa.link(afterHigh, end);
  return canonical = ByteDfa.fromNfa(nfa, { start: free, end });
}

/** The parts of `low..high` written as themselves (UTF-8): not control, quote, backslash or surrogate. */
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

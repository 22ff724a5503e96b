// A model for the mask's tests: seeded random scores that favour tokens
// which close things (a quote, a brace, a bracket) and the stop token, so
// that random instances end within the token budget.

import { type Model, o200kVocabulary, type Vocabulary } from "../lib/mask/mod.ts";

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

let small: Vocabulary | undefined;

/**
 * A vocabulary cut from o200k_base for fast differential runs: every byte,
 * every token holding JSON's punctuation (quotes, braces, brackets, commas,
 * colons, backslashes: the ones that cross a value's edges), and a seeded
 * sample of the rest; texts are split greedily, longest token first.
 */
export function smallVocabulary(): Vocabulary {
  if (small !== undefined) return small;
  const o200k = o200kVocabulary();
  let state = 41;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const punctuation = new Set([0x22, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x5c]);
  const tokens: Uint8Array[] = [];
  for (let id = 0; id < o200k.size; id++) {
    const bytes = o200k.tokenBytes(id);
    if (bytes === undefined) continue;
    if (bytes.length === 1 || bytes.some((byte) => punctuation.has(byte)) || random() < 0.01) {
      tokens.push(bytes);
    }
  }
  const ids = new Map(tokens.map((bytes, id) => [String.fromCharCode(...bytes), id]));
  const longest = Math.max(...tokens.map((bytes) => bytes.length));
  const utf8 = new TextEncoder();
  small = {
    name: "o200k_base, cut",
    size: tokens.length + 1,
    stopToken: tokens.length,
    tokenBytes: (id) => tokens[id],
    encode: (text) => {
      const bytes = utf8.encode(text);
      const found: number[] = [];
      for (let at = 0; at < bytes.length;) {
        for (let length = Math.min(longest, bytes.length - at); length > 0; length--) {
          const id = ids.get(String.fromCharCode(...bytes.subarray(at, at + length)));
          if (id !== undefined) {
            found.push(id);
            at += length;
            break;
          }
        }
      }
      return found;
    },
    decode: (list) => {
      const parts = list.map((id) => tokens[id]);
      const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
      let at = 0;
      for (const part of parts) joined.set(part, (at += part.length) - part.length);
      return new TextDecoder().decode(joined);
    },
  };
  return small;
}

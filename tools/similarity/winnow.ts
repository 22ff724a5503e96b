/**
 * Winnowing (Schleimer, Wilkerson and Aiken, 2003), the algorithm of MOSS
 * and Dolos, over the course's tokens (`tools/grading/code_form.ts`): code is
 * made a stream of tokens in which every name is the same, and every string
 * (so renaming or rewording changes nothing), each run of `k` tokens is hashed, and of every window of
 * `w` consecutive hashes the smallest is kept as a fingerprint. Two pieces
 * of code that share a run of at least `k + w - 1` tokens share a
 * fingerprint, wherever the run is in each: reordered, reformatted or padded
 * code keeps the fingerprints of what it kept.
 *
 * @module
 */

import { tokens as tokensOf } from "../grading/code_form.ts";
import type { Token } from "../grading/code_form.ts";

/** One fingerprint: the hash kept, and the lines of the tokens it covers. */
export interface Fingerprint {
  hash: number;
  from: number;
  to: number;
}

/** Options for {@linkcode fingerprints}. */
export interface WinnowOptions {
  /** How many tokens are hashed together. @default {8} */
  k?: number;
  /** How many consecutive hashes one fingerprint is chosen from. @default {6} */
  w?: number;
}

/** Words of the language, kept as they are (every other name is the same name). */
const KEYWORDS = new Set(
  ("break case catch class const continue default delete do else extends false finally for " +
    "function if in instanceof new null return super switch this throw true try typeof var " +
    "void while yield let async await of undefined").split(" "),
);

/**
 * The fingerprints of `code` (source text, or tokens of it), in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const a = fingerprints("function f(x) { const total = x.a + x.b; return [total, total * 2, 'x']; }");
 * const b = fingerprints("function g(y) {\n  const sum = y.a + y.b\n  return [sum, sum * 2, \"x\"]\n}");
 * assert.ok(a.length > 0);
 * assert.deepEqual(a.map((f) => f.hash), b.map((f) => f.hash));
 * ```
 */
export function fingerprints(
  code: string | readonly Token[],
  options: WinnowOptions = {},
): Fingerprint[] {
  const k = options.k ?? 8;
  const w = options.w ?? 6;
  const list = (typeof code === "string" ? tokensOf(code) : code).filter((token, index, all) =>
    token.kind !== "punct" ||
    !(token.text === ";" || (token.text === "," && /^[)\]}]$/.test(all[index + 1]?.text ?? "")))
  );
  const words = list.map((token, index) => {
    // A string's words (an error's message) are as easy to change as a name.
    if (token.kind === "literal") return /^["`]/.test(token.text) ? "S" : token.text;
    return token.kind !== "name" || KEYWORDS.has(token.text) ||
        list[index - 1]?.text === "." || list[index - 1]?.text === "?."
      ? token.text
      : "N";
  });
  const hashes: number[] = [];
  for (let start = 0; start + k <= words.length; start++) {
    hashes.push(fnv1a(words.slice(start, start + k).join(" ")));
  }
  const kept: Fingerprint[] = [];
  let last = -1;
  for (let start = 0; start + w <= hashes.length || (start === 0 && hashes.length > 0); start++) {
    const end = Math.min(start + w, hashes.length);
    // The smallest hash of the window, the rightmost of equals, is kept once.
    let at = start;
    for (let index = start; index < end; index++) if (hashes[index] <= hashes[at]) at = index;
    if (at !== last) {
      kept.push({
        hash: hashes[at],
        from: list[at].line ?? 0,
        to: list[at + k - 1].line ?? 0,
      });
      last = at;
    }
  }
  return kept;
}

/**
 * How much of two sets of fingerprints is shared, from 0 to 1: twice the
 * hashes both hold, over the hashes each holds (Dolos's similarity).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const f = (hash: number) => ({ hash, from: 1, to: 1 });
 * assert.equal(similarity([f(1), f(2)], [f(2), f(3)]), 0.5);
 * assert.equal(similarity([], []), 0);
 * ```
 */
export function similarity(a: readonly Fingerprint[], b: readonly Fingerprint[]): number {
  return hashSimilarity(new Set(a.map((f) => f.hash)), new Set(b.map((f) => f.hash)));
}

/**
 * {@linkcode similarity} of the fingerprints' hashes, each a set: for a set
 * compared many times, made once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(hashSimilarity(new Set([1, 2]), new Set([2, 3])), 0.5);
 * ```
 */
export function hashSimilarity(a: ReadonlySet<number>, b: ReadonlySet<number>): number {
  if (a.size + b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const hash of small) if (large.has(hash)) shared++;
  return (2 * shared) / (a.size + b.size);
}

/** The 32-bit FNV-1a hash of `text`. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

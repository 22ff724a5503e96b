/**
 * A model's vocabulary as the mask sees it: every token id and the bytes it
 * stands for. The o200k_base vocabulary is gpt-tokenizer's, ids and all.
 *
 * @module
 */

import bpe from "gpt-tokenizer/bpeRanks/o200k_base";
import { decode, encode } from "gpt-tokenizer/encoding/o200k_base";

/** A vocabulary: token ids, their bytes, the token that ends generation, and the tokenizer. */
export interface Vocabulary {
  /** Its name, for messages. */
  readonly name: string;
  /** The number of ids, special ones included: a mask has `ceil(size / 32)` words. */
  readonly size: number;
  /** The token a model emits to say it is done (allowed only once the text is complete). */
  readonly stopToken: number;
  /** The bytes of token `id`, or `undefined` for a special or unused id. */
  tokenBytes(id: number): Uint8Array | undefined;
  /** The text as this vocabulary's tokenizer splits it. */
  encode(text: string): number[];
  /** The text that `ids` stand for. */
  decode(ids: number[]): string;
}

/** o200k_base's `<|endoftext|>`. */
const O200K_STOP = 199999;
/** Ids 0..200006: 199,998 ranked byte strings, one unused id, then eight special tokens. */
const O200K_SIZE = 200007;

let o200k: Vocabulary | undefined;

/**
 * The o200k_base vocabulary of npm `gpt-tokenizer` (GPT-4o's): 200,007 ids,
 * exactly gpt-tokenizer's, with `<|endoftext|>` (199999) as the stop token.
 * Loaded once, then shared.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const vocabulary = o200kVocabulary();
 * assert.equal(vocabulary.size, 200007);
 * const ids = vocabulary.encode('{"verb":"eat"}');
 * assert.equal(vocabulary.decode(ids), '{"verb":"eat"}');
 * assert.equal(new TextDecoder().decode(vocabulary.tokenBytes(ids[0])), "{\"");
 * ```
 */
export function o200kVocabulary(): Vocabulary {
  if (o200k !== undefined) return o200k;
  const utf8 = new TextEncoder();
  const bytes: Uint8Array[] = bpe.map((entry) =>
    typeof entry === "string" ? utf8.encode(entry) : Uint8Array.from(entry)
  );
  o200k = {
    name: "o200k_base",
    size: O200K_SIZE,
    stopToken: O200K_STOP,
    tokenBytes: (id) => bytes[id],
    encode: (text) => encode(text),
    decode: (ids) => decode(ids),
  };
  return o200k;
}

// The vocabulary is gpt-tokenizer's o200k_base, id for id, and the prefix
// tree holds every token once.

import assert from "node:assert/strict";
import bpe from "gpt-tokenizer/bpeRanks/o200k_base";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { o200kVocabulary, TokenTrie } from "../lib/mask/mod.ts";

Deno.test("o200kVocabulary has gpt-tokenizer's 200,007 ids and its stop token", () => {
  const vocabulary = o200kVocabulary();
  assert.equal(vocabulary.size, 200007);
  assert.equal(vocabulary.stopToken, 199999);
  assert.equal(vocabulary.tokenBytes(199998), undefined, "the unused id has no bytes");
  for (let id = 199999; id < vocabulary.size; id++) {
    assert.equal(vocabulary.tokenBytes(id), undefined);
  }
  const text = '{"verb":"eat","tense":"past_simple","note":"comió, 2024-02-29"}';
  const ids = encode(text);
  assert.deepEqual(vocabulary.encode(text), ids);
  const bytes = ids.flatMap((id) => [...vocabulary.tokenBytes(id)!]);
  assert.equal(new TextDecoder().decode(Uint8Array.from(bytes)), text);
});

Deno.test("o200kVocabulary keeps the 1,571 ranks gpt-tokenizer stores as bytes, byte for byte", () => {
  const vocabulary = o200kVocabulary();
  let asBytes = 0;
  bpe.forEach((entry, id) => {
    if (typeof entry === "string") return;
    asBytes++;
    assert.deepEqual([...vocabulary.tokenBytes(id)!], entry);
  });
  assert.equal(asBytes, 1571);
});

Deno.test("TokenTrie walks each token of the vocabulary exactly once", () => {
  const vocabulary = o200kVocabulary();
  const trie = TokenTrie.forVocabulary(vocabulary);
  const seen = new Uint8Array(vocabulary.size);
  trie.walk(0, () => 0, (id) => seen[id]++);
  let count = 0;
  for (let id = 0; id < vocabulary.size; id++) {
    const expected = vocabulary.tokenBytes(id) === undefined ? 0 : 1;
    assert.equal(seen[id], expected, `token ${id}`);
    count += seen[id];
  }
  assert.equal(count, 199998);
});

Deno.test("TokenTrie keeps tokens with the same bytes at one node", () => {
  const utf8 = new TextEncoder();
  const trie = TokenTrie.fromTokens([
    { id: 5, bytes: utf8.encode('"') },
    { id: 2, bytes: utf8.encode('"') },
    { id: 7, bytes: utf8.encode('",') },
  ]);
  const found: number[] = [];
  trie.walk(0, () => 0, (id) => found.push(id));
  assert.deepEqual(found, [2, 5, 7]);
  assert.equal(trie.length, 2);
});

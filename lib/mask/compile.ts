/**
 * `compileJsonSchema`: a tool's input schema made into what a mask is filled
 * from: one automaton over the bytes of compact JSON, and, for each of its
 * states, the set of tokens that may come next, computed at compile time
 * (or, for a very large automaton, on first use) and kept, so that a mask is
 * filled by copying it.
 *
 * @module
 */

import type { ByteDfa } from "./byte_dfa.ts";
import { UnsupportedSchemaError } from "./errors.ts";
import { type GrammarOptions, JsonSchemaGrammar } from "./json_schema_grammar.ts";
import { loopsOnPlain, type TokenIndex, tokenIndex } from "./token_index.ts";
import type { TokenTrie } from "./token_trie.ts";
import type { Vocabulary } from "./vocabulary.ts";

/** Above this many states, masks are computed when first needed rather than all at compile time. */
export const MAX_PRECOMPUTED = 4096;

/** Options for {@linkcode compileJsonSchema}. */
export interface CompileOptions extends GrammarOptions {
  /**
   * Compute every state's mask at compile time (so that filling one is a
   * copy) rather than on first use. @default {true up to MAX_PRECOMPUTED states}
   */
  precompute?: boolean;
}

/** A schema compiled for a vocabulary. Many matchers may share it. *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * import { o200kVocabulary } from "./vocabulary.ts";
 *
 * const compiled = compileJsonSchema({ type: "boolean" }, o200kVocabulary());
 * const [t] = o200kVocabulary().encode("t");
 * assert.ok(compiled.tokensAfter(0)[t >>> 5] & (1 << (t & 31)));
 * ```
 */
export class CompiledGrammar {
  /** The schema it was compiled from. */
  readonly schema: unknown;
  /** The vocabulary whose tokens the masks are over. */
  readonly vocabulary: Vocabulary;
  /** The automaton over the bytes of the schema's instances in compact JSON. */
  readonly automaton: ByteDfa;
  /** Formats the schema names that the mask reads as plain strings, since ajv-formats does not check them either. */
  readonly ignoredFormats: readonly string[];
  private readonly index: TokenIndex;
  private readonly masks = new Map<number, Uint32Array>();

  /** Keep the automaton; `precompute` as in {@linkcode CompileOptions}. */
  constructor(
    schema: unknown,
    vocabulary: Vocabulary,
    automaton: ByteDfa,
    ignoredFormats: string[],
    precompute?: boolean,
  ) {
    this.schema = schema;
    this.vocabulary = vocabulary;
    this.automaton = automaton;
    this.ignoredFormats = ignoredFormats;
    this.index = tokenIndex(vocabulary);
    if (precompute ?? automaton.stateCount <= MAX_PRECOMPUTED) this.precompute();
  }

  /** Compute every state's mask now, sharing identical ones, so that filling a mask is a copy. */
  private precompute(): void {
    const shared = new Map<string, Uint32Array[]>();
    for (let state = 0; state < this.automaton.stateCount; state++) {
      const mask = this.computeMask(state);
      const key = fingerprint(mask);
      const same = shared.get(key) ?? [];
      const found = same.find((other) => other.every((word, index) => word === mask[index]));
      if (found === undefined) {
        same.push(mask);
        shared.set(key, same);
      }
      this.masks.set(state, found ?? mask);
    }
  }

  /** The number of 32-bit words in a mask: `ceil(vocabulary.size / 32)`. */
  get maskWords(): number {
    return Math.ceil(this.vocabulary.size / 32);
  }

  /** The tokens that may come next in `state` (the stop token where it accepts); shared, not to be changed. */
  tokensAfter(state: number): Uint32Array {
    let mask = this.masks.get(state);
    if (mask === undefined) {
      mask = this.computeMask(state);
      this.masks.set(state, mask);
    }
    return mask;
  }

  private computeMask(state: number): Uint32Array {
    const { table, accepting } = this.automaton;
    let mask: Uint32Array;
    if (loopsOnPlain(table, state)) {
      mask = this.index.plain.slice();
      walkInto(mask, this.index.rest, table, state);
    } else {
      mask = new Uint32Array(this.maskWords);
      walkInto(mask, this.index.trie, table, state);
    }
    if (accepting[state] === 1) {
      const stop = this.vocabulary.stopToken;
      mask[stop >>> 5] |= 1 << (stop & 31);
    }
    return mask;
  }
}

/** A short digest of a mask, to find identical ones. */
function fingerprint(mask: Uint32Array): string {
  let hash = 0x811c9dc5;
  let count = 0;
  for (let index = 0; index < mask.length; index++) {
    if (mask[index] === 0) continue;
    hash = Math.imul(hash ^ mask[index] ^ index, 0x01000193);
    count++;
  }
  return `${hash >>> 0}/${count}`;
}

/**
 * Set the bit of every token of `trie` the table can read from `start`:
 * `TokenTrie.walk` with the automaton's table read in place, since a call
 * per byte would cost more than the walk itself.
 */
function walkInto(mask: Uint32Array, trie: TokenTrie, table: Int32Array, start: number): void {
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
      mask[id >>> 5] |= 1 << (id & 31);
    }
    node++;
  }
}

/**
 * Compile a JSON Schema for a vocabulary, as XGrammar's `compileJsonSchema`
 * does: instances are compact JSON with properties in the schema's order,
 * optional ones omissible. Throws {@linkcode UnsupportedSchemaError} for a
 * keyword it cannot enforce exactly (never a wrong mask), and
 * `SchemaTooLargeError` past its limits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { o200kVocabulary } from "./vocabulary.ts";
 *
 * const schema = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
 * const compiled = compileJsonSchema(schema, o200kVocabulary());
 * assert.equal(compiled.maskWords, 6251);
 * assert.throws(() => compileJsonSchema({ type: "array", uniqueItems: true }, o200kVocabulary()), {
 *   name: "UnsupportedSchemaError",
 * });
 * ```
 */
export function compileJsonSchema(
  schema: unknown,
  vocabulary: Vocabulary,
  options: CompileOptions = {},
): CompiledGrammar {
  const grammar = new JsonSchemaGrammar(schema, options);
  const automaton = grammar.automaton();
  if (automaton.isEmpty) throw new UnsupportedSchemaError("a schema no value satisfies");
  return new CompiledGrammar(
    schema,
    vocabulary,
    automaton,
    [...grammar.ignoredFormats],
    options.precompute,
  );
}

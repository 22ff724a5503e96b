/**
 * `compileJsonSchema`: a tool's input schema made into what a mask is filled
 * from: one automaton over the bytes of compact JSON, and, for each of its
 * states, the set of tokens that may come next, computed at compile time
 * (or, for a very large automaton, on first use) and kept: a shared base
 * (every plain token, or what a string's content allows, computed once per
 * process) with the ids walked for that state on top, made whole on first
 * use, so that a mask is filled by a copy. Where lengths or items are
 * counted beside the automaton, a state's kept mask is the one far from
 * every bound; near one, the tokens that no longer fit are cleared from it
 * (`count_masks.ts`).
 *
 * @module
 */

import type { ByteDfa } from "./byte_dfa.ts";
import { NearBounds, type Sensitive, SensitiveTokens, walkCounted } from "./count_masks.ts";
import { UnsupportedSchemaError } from "./errors.ts";
import { type GrammarOptions, JsonSchemaGrammar } from "./json_schema_grammar.ts";
import { CounterConflict, type RegionInfo } from "./regions.ts";
import { plainTarget, type TokenIndex, tokenIndex } from "./token_index.ts";
import { insideMask, walkIds } from "./token_walk.ts";
import type { TokenTrie } from "./token_trie.ts";
import type { Vocabulary } from "./vocabulary.ts";

/** Above this many states, masks are computed when first needed rather than all at compile time. */
export const MAX_PRECOMPUTED = 4096;

/** Up to this many tokens, a mask with no shared base is set token by token when filled. */
const SPARSE = 2048;

/**
 * A state's mask as kept: a shared base (plain tokens, a string's inside)
 * or none, the ids set on top of it, and the whole mask once made.
 */
interface Kept {
  base?: Uint32Array;
  ids: Int32Array;
  whole?: Uint32Array;
}

/** The whole mask of a kept one. */
function whole(kept: Kept, words: number): Uint32Array {
  const mask = kept.base === undefined ? new Uint32Array(words) : kept.base.slice();
  for (const id of kept.ids) mask[id >>> 5] |= 1 << (id & 31);
  return mask;
}

/** Options for {@linkcode compileJsonSchema}. */
export interface CompileOptions extends GrammarOptions {
  /**
   * Compute every state's mask at compile time rather than on first use.
   * @default {true up to MAX_PRECOMPUTED states}
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
  private readonly masks = new Map<number, Kept>();
  private readonly regions: RegionInfo | undefined;
  private readonly sensitive = new Map<number, Sensitive>();
  private readonly nearBounds = new NearBounds();

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
    this.regions = automaton.regionInfo;
    if (precompute ?? automaton.stateCount <= MAX_PRECOMPUTED) {
      for (let state = 0; state < automaton.stateCount; state++) this.kept(state);
    }
  }

  /** The number of 32-bit words in a mask: `ceil(vocabulary.size / 32)`. */
  get maskWords(): number {
    return Math.ceil(this.vocabulary.size / 32);
  }

  /**
   * The tokens that may come next in `state` (the stop token where it
   * accepts), no count being near its bound; shared, not to be changed.
   */
  tokensAfter(state: number): Uint32Array {
    const kept = this.kept(state);
    return kept.whole ??= whole(kept, this.maskWords);
  }

  /** Fill `out` with the tokens that may come next in `state` with these counts (one per level). */
  fill(state: number, counts: Float64Array, out: Uint32Array): void {
    const kept = this.kept(state);
    const sensitive = this.sensitive.get(state);
    if (sensitive !== undefined) {
      this.nearBounds.fill(
        out,
        this.tokensAfter(state),
        sensitive,
        this.regions!,
        state,
        counts,
        this.index,
      );
    } else if (kept.whole !== undefined) out.set(kept.whole);
    else if (kept.base === undefined && kept.ids.length <= SPARSE) {
      // a few tokens: set them on nothing rather than keep a whole mask for them
      out.fill(0);
      for (const id of kept.ids) out[id >>> 5] |= 1 << (id & 31);
    } else out.set(this.tokensAfter(state));
  }

  /** `state`'s mask as kept, computed on first use. */
  private kept(state: number): Kept {
    let kept = this.masks.get(state);
    if (kept === undefined) {
      kept = this.regions === undefined
        ? this.walked(state)
        : { ids: new Int32Array(0), whole: this.counted(state) };
      this.masks.set(state, kept);
    }
    return kept;
  }

  /**
   * A state's mask in parts: inside a string, what its content reads without a
   * quote (shared) and the tokens with one; where plain characters lead to a
   * state that loops on them, every plain token and the walked rest; else the
   * tokens walked one by one from the vocabulary's prefix tree.
   */
  private walked(state: number): Kept {
    const { table, accepting } = this.automaton;
    const { index } = this;
    const ids: number[] = [];
    let base: Uint32Array | undefined;
    const origin = this.automaton.origins?.of[state] ?? -1;
    if (origin >= 0) {
      const source = this.automaton.origins!.sources[origin >> 16];
      base = insideMask(this.vocabulary, index, source, origin & 0xffff);
      walkIds(ids, index.quoted, table, state);
    } else {
      const target = plainTarget(table, state);
      if (target === undefined) walkIds(ids, index.trie, table, state);
      else {
        base = index.plain;
        walkIds(ids, index.rest, table, target, target === state ? undefined : index.prefixChars);
        if (target !== state) walkIds(ids, index.bare, table, state);
      }
    }
    if (accepting[state] === 1) ids.push(this.vocabulary.stopToken);
    return { base, ids: Int32Array.from(ids) };
  }

  /** A state's whole mask in an automaton with counted regions, what counts can take away kept beside it. */
  private counted(state: number): Uint32Array {
    const { table, accepting } = this.automaton;
    const { index } = this;
    const info = this.regions!;
    const origin = this.automaton.origins?.of[state] ?? -1;
    if (origin >= 0 && info.counting.regionOf[state] < 0) {
      // inside a string that is not counted: its content's inside, and the tokens with a quote
      const source = this.automaton.origins!.sources[origin >> 16];
      const mask = insideMask(this.vocabulary, index, source, origin & 0xffff).slice();
      const sensitive = new SensitiveTokens(info, state);
      walkCounted(mask, sensitive, index, index.quoted, this.automaton, info, state);
      return mask;
    }
    // where plain characters lead to a state that loops on them, plain tokens are copied whole
    let target = plainTarget(table, state);
    const plainLevel = target === undefined ? -1 : plainTicks(this.automaton, info, state, target);
    if (plainLevel === undefined) target = undefined;
    const mask = target === undefined ? new Uint32Array(this.maskWords) : index.plain.slice();
    const walks: [TokenTrie, number, boolean][] = target === undefined
      ? [[index.trie, state, false]]
      : target === state
      ? [[index.rest, state, false]]
      : [[index.rest, target, true], [index.bare, state, false]];
    const sensitive = new SensitiveTokens(info, state);
    for (const [trie, from, skipBare] of walks) {
      walkCounted(
        mask,
        sensitive,
        index,
        trie,
        this.automaton,
        info,
        from,
        trie === index.rest ? plainLevel! : -1,
        skipBare,
      );
    }
    const found = sensitive.finish(
      index,
      target === undefined ? -1 : plainLevel!,
      target === undefined || plainLevel! < 0 ? 0 : info.needed(target, plainLevel!),
    );
    if (found !== undefined) this.sensitive.set(state, found);
    if (accepting[state] === 1) {
      const stop = this.vocabulary.stopToken;
      mask[stop >>> 5] |= 1 << (stop & 31);
    }
    return mask;
  }
}

/**
 * The level whose region each plain character ticks, read from `state` (the
 * first) and from `target` (the others), -1 for none; `undefined` when they do
 * not all tick alike, or tick inside a character (the state's mask is then
 * walked token by token).
 */
function plainTicks(
  dfa: ByteDfa,
  info: RegionInfo,
  state: number,
  target: number,
): number | undefined {
  const { table } = dfa;
  const { ticks, regionOf } = info.counting;
  if (regionOf[state] !== regionOf[target]) return undefined;
  const leads = [];
  for (let byte = 0x20; byte < 0x80; byte++) if (byte !== 0x22 && byte !== 0x5c) leads.push(byte);
  for (let byte = 0xc2; byte <= 0xf4; byte++) leads.push(byte);
  const tick = ticks[target * 256 + leads[0]];
  for (const from of [state, target]) {
    if (leads.some((byte) => ticks[from * 256 + byte] !== tick)) return undefined;
  }
  // no tick inside a character: after a lead byte, continuation bytes only, back to `target`
  const seen = new Set<number>();
  const stack = leads.map((byte) => table[target * 256 + byte]);
  while (stack.length > 0) {
    const middle = stack.pop()!;
    if (middle === target || middle < 0 || seen.has(middle)) continue;
    seen.add(middle);
    for (let byte = 0x80; byte <= 0xbf; byte++) {
      if (ticks[middle * 256 + byte] >= 0) return undefined;
      stack.push(table[middle * 256 + byte]);
    }
  }
  return tick < 0 ? -1 : info.level[tick];
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
  let grammar = new JsonSchemaGrammar(schema, options);
  let automaton: ByteDfa;
  try {
    automaton = grammar.automaton();
    if (automaton.regionInfo?.sound() === false) throw new CounterConflict();
  } catch (error) {
    if (!(error instanceof CounterConflict)) throw error;
    // a count that cannot be kept beside the automaton (two readings of the same bytes): unrolled
    grammar = new JsonSchemaGrammar(schema, { ...options, counters: false });
    automaton = grammar.automaton();
  }
  if (automaton.isEmpty) throw new UnsupportedSchemaError("a schema no value satisfies");
  return new CompiledGrammar(
    schema,
    vocabulary,
    automaton,
    [...grammar.ignoredFormats],
    options.precompute,
  );
}

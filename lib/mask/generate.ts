/**
 * Decoding a tool's arguments, token by token, with a model: under the mask
 * (`generateArguments`, which can only end in valid arguments) and without
 * it (`generateUnmasked`, for contrast).
 *
 * A model is a function from the tokens so far to one score (a logit) per
 * vocabulary id: the stand-in `BigramModel` is one, and a real local model
 * plugs in the same way. Give the function its logits for the next token
 * and the mask does the rest; if its tokenizer is not o200k_base, describe
 * its vocabulary (a {@linkcode Vocabulary}: each id's bytes, its stop token,
 * its encode and decode) and pass it as `vocabulary`:
 *
 * ```ts ignore
 * const model: Model = (tokens) => runtime.nextTokenLogits(tokens); // Float32Array, one per id
 * const call = generateArguments(tool, model, { vocabulary, temperature: 0.7, seed: 1 });
 * ```
 *
 * @module
 */

import { type CompiledGrammar, compileJsonSchema } from "./compile.ts";
import { MaxTokensError } from "./errors.ts";
import { GrammarMatcher } from "./grammar_matcher.ts";
import { schemaProblems } from "./validate.ts";
import { o200kVocabulary, type Vocabulary } from "./vocabulary.ts";

/** The most tokens one call's arguments may take. */
export const DEFAULT_MAX_TOKENS = 256;

/** A model: the scores (logits) of every vocabulary id after `tokens`; higher is likelier. */
export type Model = (tokens: readonly number[]) => ArrayLike<number>;

/** A tool as MCP lists it: what matters here is its input schema. */
export interface ToolLike {
  name?: string;
  inputSchema: unknown;
}

/** Options for {@linkcode generateArguments} and {@linkcode generateUnmasked}. */
export interface GenerateOptions {
  /** The vocabulary the model's scores are over. @default {o200kVocabulary()} */
  vocabulary?: Vocabulary;
  /** The schema already compiled for that vocabulary (saves compiling it again). @default {undefined} */
  compiled?: CompiledGrammar;
  /** Tokens the model sees before the arguments (a prompt). @default {[]} */
  context?: readonly number[];
  /** The most tokens to generate. @default {DEFAULT_MAX_TOKENS} */
  maxTokens?: number;
  /** 0 picks the best-scored token; above 0, tokens are sampled from the softmax of scores / temperature. @default {0} */
  temperature?: number;
  /** The seed of the sampler. @default {1} */
  seed?: number;
}

/** What a generation produced. */
export interface Generation {
  /** The text generated (without the stop token). */
  text: string;
  /** The tokens generated, the stop token included when there was one. */
  tokens: number[];
  /** The arguments, parsed (`undefined` when the text is not JSON). */
  arguments: unknown;
  /** What ajv finds wrong with them (`[]` for valid arguments). */
  problems: string[];
}

/**
 * Generate a tool's arguments under the mask: at each step only tokens that
 * keep the text a prefix of a valid instance can be chosen, and the stop
 * token only once it is whole. The result is checked with ajv all the same.
 * Throws `MaxTokensError` when `maxTokens` run out first.
 *
 * @example A model that wants to write "run" in an enum that lacks it
 * ```ts
 * import assert from "node:assert/strict";
 * import { o200kVocabulary } from "./vocabulary.ts";
 *
 * const vocabulary = o200kVocabulary();
 * const wanted = vocabulary.encode('{"verb":"run"}');
 * const model = (tokens: readonly number[]) => {
 *   const scores = new Float32Array(vocabulary.size);
 *   scores[wanted[tokens.length] ?? vocabulary.stopToken] = 1;
 *   return scores;
 * };
 * const tool = { inputSchema: { type: "object", properties: { verb: { enum: ["eat", "go"] } }, required: ["verb"] } };
 * const generated = generateArguments(tool, model);
 * assert.deepEqual(generated.problems, []);
 * assert.match(generated.text, /^\{"verb":"(eat|go)"\}$/);
 * ```
 */
export function generateArguments(
  tool: ToolLike,
  model: Model,
  options: GenerateOptions = {},
): Generation {
  const vocabulary = options.vocabulary ?? options.compiled?.vocabulary ?? o200kVocabulary();
  const compiled = options.compiled ?? compileJsonSchema(tool.inputSchema, vocabulary);
  const matcher = new GrammarMatcher(compiled);
  const bitmask = new Uint32Array(compiled.maskWords);
  const generation = decode(tool, model, vocabulary, options, () => {
    matcher.fillNextTokenBitmask(bitmask);
    return bitmask;
  }, (id) => {
    if (!matcher.acceptToken(id)) {
      throw new Error(`The matcher refused token ${id} that its own mask allowed`);
    }
  });
  if (!matcher.isTerminated()) {
    throw new MaxTokensError(options.maxTokens ?? DEFAULT_MAX_TOKENS, generation.text);
  }
  if (generation.problems.length > 0) {
    throw new Error(
      `The mask let through arguments ajv refuses: ${generation.problems.join("; ")}`,
    );
  }
  return generation;
}

/**
 * The same decoding without the mask: the model's own choices, stopped at
 * its stop token or after `maxTokens`. Never throws for bad arguments: it
 * reports them in `problems`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { o200kVocabulary } from "./vocabulary.ts";
 *
 * const vocabulary = o200kVocabulary();
 * const wanted = vocabulary.encode('{"verb":"run"}');
 * const model = (tokens: readonly number[]) => {
 *   const scores = new Float32Array(vocabulary.size);
 *   scores[wanted[tokens.length] ?? vocabulary.stopToken] = 1;
 *   return scores;
 * };
 * const tool = { inputSchema: { type: "object", properties: { verb: { enum: ["eat", "go"] } } } };
 * const generated = generateUnmasked(tool, model);
 * assert.equal(generated.text, '{"verb":"run"}');
 * assert.equal(generated.problems.length, 1);
 * ```
 */
export function generateUnmasked(
  tool: ToolLike,
  model: Model,
  options: GenerateOptions = {},
): Generation {
  const vocabulary = options.vocabulary ?? options.compiled?.vocabulary ?? o200kVocabulary();
  return decode(tool, model, vocabulary, options, () => undefined, () => {});
}

/** The decoding loop: choose (among the allowed, when there is a mask), accept, until the stop token. */
function decode(
  tool: ToolLike,
  model: Model,
  vocabulary: Vocabulary,
  options: GenerateOptions,
  allowed: () => Uint32Array | undefined,
  accept: (id: number) => void,
): Generation {
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const context = [...(options.context ?? [])];
  const random = seeded(options.seed ?? 1);
  const tokens: number[] = [];
  while (tokens.length < maxTokens) {
    const mask = allowed();
    const id = choose(model([...context, ...tokens]), mask, options.temperature ?? 0, random);
    accept(id);
    tokens.push(id);
    if (id === vocabulary.stopToken) break;
  }
  const text = vocabulary.decode(tokens.filter((id) => id !== vocabulary.stopToken));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { text, tokens, arguments: undefined, problems: ["the text is not JSON"] };
  }
  return { text, tokens, arguments: parsed, problems: schemaProblems(tool.inputSchema, parsed) };
}

/** The best-scored allowed id (temperature 0), or one sampled from the softmax; a mask with no finite score picks its first id. */
function choose(
  scores: ArrayLike<number>,
  mask: Uint32Array | undefined,
  temperature: number,
  random: () => number,
): number {
  const allowed = (id: number) => mask === undefined || (mask[id >>> 5] & (1 << (id & 31))) !== 0;
  let best = -1;
  let bestScore = -Infinity;
  for (let id = 0; id < scores.length; id++) {
    if (allowed(id) && (scores[id] > bestScore || best < 0)) {
      best = id;
      bestScore = scores[id];
    }
  }
  if (best < 0) throw new Error("No token is allowed: the mask is empty");
  if (temperature <= 0 || bestScore === -Infinity) return best;
  let total = 0;
  const weights = new Float64Array(scores.length);
  for (let id = 0; id < scores.length; id++) {
    if (allowed(id)) total += weights[id] = Math.exp((scores[id] - bestScore) / temperature);
  }
  let target = random() * total;
  for (let id = 0; id < scores.length; id++) {
    target -= weights[id];
    if (target <= 0 && weights[id] > 0) return id;
  }
  return best;
}

/**
 * A small seeded generator (mulberry32): the same seed, the same numbers in [0, 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const [a, b] = [seeded(7), seeded(7)];
 * assert.equal(a(), b());
 * assert.ok(a() < 1);
 * ```
 */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

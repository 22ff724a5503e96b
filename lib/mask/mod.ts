/**
 * The token mask: a tool's input schema compiled for a vocabulary, so that a
 * model can only write arguments that validate. Named as XGrammar names its
 * parts. This layer imports nothing of the course or of MCP.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileJsonSchema, GrammarMatcher, o200kVocabulary } from "./mod.ts";
 *
 * const vocabulary = o200kVocabulary();
 * const matcher = new GrammarMatcher(compileJsonSchema({ type: "boolean" }, vocabulary));
 * assert.ok(matcher.acceptString("true"));
 * assert.ok(matcher.isComplete());
 * ```
 *
 * @module
 */

export { BigramModel, type BigramOptions } from "./bigram_model.ts";
export {
  CompiledGrammar,
  compileJsonSchema,
  type CompileOptions,
  MAX_PRECOMPUTED,
} from "./compile.ts";
export { MaxTokensError, SchemaTooLargeError, UnsupportedSchemaError } from "./errors.ts";
export { ENFORCED_FORMATS } from "./formats.ts";
export {
  DEFAULT_MAX_TOKENS,
  generateArguments,
  type GenerateOptions,
  generateUnmasked,
  type Generation,
  type Model,
  type ToolLike,
} from "./generate.ts";
export { GrammarMatcher } from "./grammar_matcher.ts";
export type { GrammarOptions } from "./json_schema_grammar.ts";
export { canonicalText, inSchemaOrder } from "./schema_order.ts";
export { TokenTrie } from "./token_trie.ts";
export { schemaProblems } from "./validate.ts";
export { o200kVocabulary, type Vocabulary } from "./vocabulary.ts";

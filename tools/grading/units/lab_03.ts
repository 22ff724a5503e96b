// Lab 03: the mask-driven tool call. The character step of the mask (graded
// through prefixStatus), the mask over a vocabulary token by token and by a
// prefix tree, the decoding loop (driven, its model a function), the
// agent's next move, and the retry of a multi round-trip request.

import { asSent, CASES, type Lab03Function } from "../../../cases/lab_03.ts";
import { tableClaims, type UnitSpec } from "../spec.ts";

/** The cell each graded function is written in. */
const CELLS: Readonly<Record<Lab03Function, string>> = {
  prefixStatus: "char-step",
  tokenMask: "token-mask",
  buildTrie: "build-trie",
  trieMask: "trie-mask",
  decode: "decode",
  nextMove: "next-move",
  retryRequest: "retry-request",
};

/** `lib/mask/`'s modules, by name. */
const mask = (...names: string[]) => names.map((name) => `lib/mask/${name}.ts`);

/**
 * The mask's own code, readable in the learners' release, for the idea each
 * graded function is: a copy of it (a bundle of the grammar under a wrapper
 * of twenty lines earned every prefixStatus mark) earns that function nothing.
 * The schema compiler and the matcher that steps its automaton (every module
 * they import but the errors and the two sealed ones, {@linkcode SEALED}),
 * and the format expressions they build automata from (`lib/formats/`).
 */
const GRAMMAR = mask(
  "_digits",
  "_partition",
  "_schema_parts",
  "array_grammar",
  "byte_dfa",
  "byte_nfa",
  "char_set",
  "compile",
  "count_step",
  "dfa_product",
  "exact_tests",
  "formats",
  "free_value",
  "grammar_matcher",
  "json_schema_grammar",
  "minimize",
  "number_grammar",
  "object_branches",
  "object_compiler",
  "presence",
  "regex_grammar",
  "regions",
  "schema_frame",
  "schema_order",
  "string_grammar",
  "subset",
).concat("lib/formats/format_patterns.ts");
/** The masks over a vocabulary: its index, its prefix tree, and the walks that fill a mask. */
const MASKS = mask("count_masks", "token_index", "token_trie", "token_walk");
const LIBRARY: Readonly<Record<Lab03Function, readonly string[]>> = {
  prefixStatus: GRAMMAR,
  tokenMask: [...GRAMMAR, ...MASKS],
  buildTrie: mask("token_trie"),
  trieMask: [...GRAMMAR, ...MASKS],
  decode: [...GRAMMAR, ...MASKS, ...mask("generate")],
  nextMove: [],
  // The library's client builds the same retry (retryParams), readable in the release.
  retryRequest: ["lib/mcp/client/input_responses.ts"],
};

/**
 * The mask's two modules that shipped sealed in releases handed out before
 * they were withheld (a release built now holds no runnable form of them),
 * one function of each marked by `deno task seal`: the object grammar writes a property the probe names as
 * the token, and one character, picked by the token, may be written in a
 * JSON string as its `\u` escape. Every copy of the mask (bundled, obfuscated,
 * encoded) compiles objects and strings through them, so it answers the
 * watermark's probes as no right answer does, and the function it answers
 * for earns nothing.
 */
const SEALED = [
  { file: "lib/mask/object_grammar.ts", name: "objectDfa" },
  { file: "lib/mask/json_chars.ts", name: "jsonChar" },
];
/** The graded functions whose work the sealed modules do: every one that steps the mask. */
const STEPPING: readonly Lab03Function[] = ["prefixStatus", "tokenMask", "trieMask", "decode"];

/** Lab 03's graded functions. */
export const LAB_03: UnitSpec = {
  unit: "lab-03",
  imports: { "grading/not_implemented.ts": ["NotImplementedError"] },
  functions: (Object.keys(CELLS) as Lab03Function[]).map((name) => ({
    name,
    cell: CELLS[name],
    cases: CASES[name],
    libraryModules: LIBRARY[name],
    ...(STEPPING.includes(name) ? { library: SEALED } : {}),
    ...(name === "decode" ? { driver: "tools/grading/drivers/lab_03_decode.ts" } : {}),
    // A retry is judged as it goes on the wire: a key that holds undefined is not sent.
    ...(name === "retryRequest" ? { normalize: asSent } : {}),
  })),
  // The submission records each grade table's rows: { case, status }.
  claims: (submission) => tableClaims(submission.cases, Object.keys(CELLS)),
};

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
 */
const GRAMMAR = mask(
  "_digits",
  "_schema_parts",
  "byte_dfa",
  "byte_nfa",
  "compile",
  "formats",
  "grammar_matcher",
  "json_chars",
  "json_schema_grammar",
  "number_grammar",
  "object_branches",
  "object_grammar",
  "presence",
  "regex_grammar",
  "string_grammar",
);
const LIBRARY: Readonly<Record<Lab03Function, readonly string[]>> = {
  prefixStatus: GRAMMAR,
  tokenMask: [...GRAMMAR, ...mask("token_index")],
  buildTrie: mask("token_trie"),
  trieMask: [...GRAMMAR, ...mask("token_index", "token_trie")],
  decode: [...GRAMMAR, ...mask("generate", "token_index", "token_trie")],
  nextMove: [],
  // The library's client builds the same retry (retryParams), readable in the release.
  retryRequest: ["lib/mcp/client/input_responses.ts"],
};

/** Lab 03's graded functions. */
export const LAB_03: UnitSpec = {
  unit: "lab-03",
  imports: { "grading/not_implemented.ts": ["NotImplementedError"] },
  functions: (Object.keys(CELLS) as Lab03Function[]).map((name) => ({
    name,
    cell: CELLS[name],
    cases: CASES[name],
    libraryModules: LIBRARY[name],
    ...(name === "decode" ? { driver: "tools/grading/drivers/lab_03_decode.ts" } : {}),
    // A retry is judged as it goes on the wire: a key that holds undefined is not sent.
    ...(name === "retryRequest" ? { normalize: asSent } : {}),
  })),
  // The submission records each grade table's rows: { case, status }.
  claims: (submission) => tableClaims(submission.cases, Object.keys(CELLS)),
};

// XGrammar's WebAssembly build (npm @mlc-ai/web-xgrammar, pinned in deno.json)
// loaded under Deno, over the same vocabulary as lib/mask/. The package is a
// UMD bundle labelled as an ES module: as a module it finds no `require`, so
// its lib/index.js is copied to a .cjs file and loaded with createRequire.

import manifest from "@mlc-ai/web-xgrammar/package.json" with { type: "json" };
import { createRequire } from "node:module";
import type { Vocabulary } from "../lib/mask/mod.ts";

/** The parts of XGrammar's API the benchmark uses. */
export interface XGrammar {
  version: string;
  /** The vocabulary's tokenizer info, as byte-level strings (GPT-2's byte-to-character map). */
  tokenizerInfo(vocabulary: Vocabulary): Promise<unknown>;
  /** A compiler over that tokenizer info. */
  compiler(tokenizerInfo: unknown): Promise<XGrammarCompiler>;
}

/** XGrammar's compiler. */
export interface XGrammarCompiler {
  compileJSONSchema(
    schema: string,
    anyWhitespace?: boolean,
    indent?: number,
    separators?: [string, string],
    strictMode?: boolean,
  ): Promise<unknown>;
}

/** XGrammar's matcher. */
export interface XGrammarMatcher {
  acceptToken(id: number): boolean;
  getNextTokenBitmask(): Promise<Int32Array>;
  isTerminated(): boolean;
  reset(): void;
  dispose(): void;
}

interface Module {
  TokenizerInfo: { createTokenizerInfo(...args: unknown[]): Promise<unknown> };
  GrammarCompiler: {
    createGrammarCompiler(info: unknown, cache?: boolean): Promise<XGrammarCompiler>;
  };
  GrammarMatcher: {
    createGrammarMatcher(compiled: unknown, stop?: number[]): Promise<XGrammarMatcher>;
  };
}

/** XGrammar, loaded once. */
export async function loadXGrammar(): Promise<
  XGrammar & { matcher(compiled: unknown, stop: number): Promise<XGrammarMatcher> }
> {
  const { npmCache } = JSON.parse(
    new TextDecoder().decode(
      (await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
        .output()).stdout,
    ),
  );
  const source =
    `${npmCache}/registry.npmjs.org/@mlc-ai/web-xgrammar/${manifest.version}/lib/index.js`;
  const folder = await Deno.makeTempDir({ prefix: "web-xgrammar-" });
  const copy = `${folder}/index.cjs`;
  await Deno.copyFile(source, copy);
  const module = createRequire(copy)(copy) as Module;
  await Deno.remove(folder, { recursive: true });
  return {
    version: manifest.version,
    tokenizerInfo: (vocabulary) => {
      const encoded: string[] = [];
      for (let id = 0; id < vocabulary.size; id++) {
        const bytes = vocabulary.tokenBytes(id);
        // special and unused ids: empty, which XGrammar takes as special (never allowed)
        encoded.push(
          bytes === undefined ? "" : Array.from(bytes, (byte) => BYTE_TO_CHAR[byte]).join(""),
        );
      }
      return module.TokenizerInfo.createTokenizerInfo(
        encoded,
        "byte_level",
        false,
        vocabulary.size,
        [
          vocabulary.stopToken,
        ],
      );
    },
    compiler: (info) => module.GrammarCompiler.createGrammarCompiler(info, false),
    matcher: (compiled, stop) => module.GrammarMatcher.createGrammarMatcher(compiled, [stop]),
  };
}

/** GPT-2's map from bytes to printable characters, which byte-level vocabularies are written in. */
const BYTE_TO_CHAR: string[] = (() => {
  const printable: number[] = [];
  for (let code = 0x21; code <= 0x7e; code++) printable.push(code);
  for (let code = 0xa1; code <= 0xac; code++) printable.push(code);
  for (let code = 0xae; code <= 0xff; code++) printable.push(code);
  const map: string[] = [];
  let extra = 0;
  for (let byte = 0; byte < 256; byte++) {
    map[byte] = String.fromCharCode(printable.includes(byte) ? byte : 256 + extra++);
  }
  return map;
})();

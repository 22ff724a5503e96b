// Lab 03's mask as a learner holds it in a release handed out before the
// mask's two sealed modules were withheld (`lib/mask/`, those two as stubs
// over their seals; a release built now holds no runnable form of them),
// bundled and obfuscated as a learner could, and Lab 03's graded functions as
// a learner who copies it would write them: shared by the watermark's tests,
// the grader's hostile ones and the autograder's, which keep judging copies
// of those releases' seals.

import assert from "node:assert/strict";
import JavaScriptObfuscator from "javascript-obfuscator";
import { fileURLToPath } from "node:url";
import { releaseStub, sealedModules } from "../tools/release/sealed.ts";
import { UNITS } from "../tools/grading/units/mod.ts";
import { LAB_03 } from "./catalogue/lab_03.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

let released: Promise<string> | undefined;

/**
 * A folder holding `lib/mask/` as a release handed out before held it (each
 * sealed module a stub exporting its seal, the rest as they are), and the
 * format expressions it builds automata from (`lib/formats/`), with the
 * project's `deno.json` and `deno.lock` so that it bundles: made once a
 * process, removed when it ends.
 */
export function releasedMask(): Promise<string> {
  return released ??= (async () => {
    const folder = await Deno.makeTempDir({ prefix: "released-mask-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(folder, { recursive: true }));
    for (const file of ["deno.json", "deno.lock"]) {
      await Deno.copyFile(`${ROOT}${file}`, `${folder}/${file}`);
    }
    const sealed = sealedModules(UNITS);
    for (const lib of ["lib/formats", "lib/mask"]) {
      await Deno.mkdir(`${folder}/${lib}`, { recursive: true });
      for await (const entry of Deno.readDir(`${ROOT}${lib}`)) {
        const file = `${lib}/${entry.name}`;
        if (entry.name.endsWith("_test.ts")) continue;
        if (sealed.includes(file)) await Deno.writeTextFile(`${folder}/${file}`, releaseStub(file));
        else await Deno.copyFile(`${ROOT}${file}`, `${folder}/${file}`);
      }
    }
    return folder;
  })();
}

/** `folder`'s `lib/mask/` bundled from its schema compiler, its exports left out: what a learner can paste. */
export async function maskBundle(folder: string): Promise<string> {
  const output = await Deno.makeTempFile({ suffix: ".js" });
  try {
    const bundled = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--platform=deno",
        "--format=esm",
        `--output=${output}`,
        "lib/mask/json_schema_grammar.ts",
      ],
      cwd: folder,
    }).output();
    assert.equal(bundled.code, 0, new TextDecoder().decode(bundled.stderr));
    return (await Deno.readTextFile(output)).replace(/^export \{[^}]*\};?\s*$/m, "");
  } finally {
    await Deno.remove(output);
  }
}

/** The release's mask, bundled from its schema compiler. */
export const releasedMaskBundle = async (): Promise<string> => maskBundle(await releasedMask());

/** `code` obfuscated as a learner could, exports kept: the course's obfuscator, `seed` its own. */
export function obfuscated(
  code: string,
  seed: number,
  encoding: "base64" | "rc4" = "base64",
): string {
  return JavaScriptObfuscator.obfuscate(code, {
    seed,
    target: "node",
    sourceType: "module",
    compact: true,
    identifierNamesGenerator: "mangled",
    stringArray: true,
    stringArrayEncoding: [encoding],
    controlFlowFlattening: true,
    controlFlowFlatteningThreshold: 0.3,
  }).getObfuscatedCode();
}

/** The catalogue's worked character step, which the library's automaton takes the place of. */
const STEP_FIRST = "\nconst encoded = ";
const STEP_LAST = "function isComplete(state) {\n  return state.done;\n}\n";

/** The character step over the library's automaton: a character's UTF-8 bytes at a time. */
const LIBRARY_STEP = `
const automata = new WeakMap();
function start(schema) {
  let dfa = automata.get(schema);
  if (dfa === undefined) {
    automata.set(schema, dfa = new JsonSchemaGrammar(schema, { counters: false }).automaton());
  }
  return { dfa, at: 0 };
}
function step(state, char) {
  let at = state.at;
  for (const byte of new TextEncoder().encode(char)) {
    at = state.dfa.table[at * 256 + byte];
    if (at === undefined || at < 0) return null;
  }
  return { dfa: state.dfa, at };
}
function isComplete(state) {
  return state.dfa.accepting[state.at] === 1;
}
`;

/**
 * Lab 03's prefixStatus, tokenMask, buildTrie, trieMask and decode, each
 * exported, as the catalogue's worked answers write them over a character
 * step that is the library's: `grammar` brings `JsonSchemaGrammar` in (an
 * import, or a bundle of the mask). Before the mask was sealed and marked,
 * this over an obfuscated bundle earned every mark of the five.
 */
export function maskAnswers(grammar: string): string {
  const worked = LAB_03.find((c) => c.fn === "decode")!.right["the worked solution's way"];
  const first = worked.indexOf(STEP_FIRST);
  const last = worked.indexOf(STEP_LAST);
  if (first < 0 || last < 0) {
    throw new Error("the catalogue's worked decode holds no step to replace");
  }
  return `${grammar}\n${worked.slice(0, first)}${LIBRARY_STEP}${
    worked.slice(last + STEP_LAST.length)
  }\nexport { buildTrie, prefixStatus, tokenMask, trieMask };\n`;
}

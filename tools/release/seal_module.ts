/**
 * One library module sealed: bundled on its own (its imports left imports,
 * so that its classes are the library's), the watermark and the refusal
 * where work is graded put in each graded function's copy
 * (`watermarked.ts`), and obfuscated with a fixed seed, so that a seal is
 * made again the same. `deno task seal` (`seal.ts`) writes each beside its
 * module.
 *
 * @module
 */

import JavaScriptObfuscator, { type ObfuscatorOptions } from "javascript-obfuscator";
import { fileURLToPath } from "node:url";
import { UNITS } from "../grading/units/mod.ts";
import { libraryNames } from "./sealed.ts";
import { type SealSecrets, watermarked, type WatermarkOptions } from "./watermarked.ts";

const root = new URL("../../", import.meta.url);

/** How the obfuscator runs: fixed, so that a seal is made again the same. */
const OBFUSCATION: ObfuscatorOptions = {
  seed: 20,
  target: "node",
  sourceType: "module",
  compact: true,
  identifierNamesGenerator: "hexadecimal",
  renameGlobals: false,
  stringArray: true,
  stringArrayThreshold: 1,
  stringArrayEncoding: ["base64"],
  controlFlowFlattening: true,
  controlFlowFlatteningThreshold: 1,
  splitStrings: true,
  splitStringsChunkLength: 8,
  selfDefending: false,
  debugProtection: false,
  log: false,
};

/**
 * `code` (obfuscated) reading the globals its strings' decoder reads (and
 * with it the refusal where work is graded, which finds the mark by a
 * decoded name) as bindings of its own, bound first to the realm's, through
 * the Function constructor, whose functions read the global scope; and
 * `undefined` as itself. A seal run as a script in a learner's `with`, whose
 * object would give its own `decodeURIComponent` that spells the mark's name
 * another way, finds the mark all the same
 * (`tests/attacks_round18/realm_test.ts`); the realm fixes the globals and
 * the constructor (`tools/grading/realm/graded_realm.ts`). The bindings have
 * names of their own, not the globals': a seal obfuscated again, whose new
 * decoder runs first and reads the globals, still runs.
 */
function ownGlobals(code: string): string {
  const own = (name: string) => `$own_${name}`;
  const bound = ["decodeURIComponent", "parseInt", "String"]
    .map((name) => `${own(name)}=(()=>{}).constructor('return ${name}')()`);
  return `const ${[...bound, `${own("undefined")}=void 0`].join(",")};${
    code.replace(/(?<![\w$.'"])(decodeURIComponent|parseInt|String|undefined)(?![\w$'":])/g, own)
  }`;
}

/**
 * `code` (obfuscated) with its string array, which its decoder reads and its
 * rotation shifts and pushes, made an object of no prototype that holds the
 * strings as the array did, with an array's push and shift of its own (read
 * from an array, where the realm fixes them). An array's push writes the
 * index past its last through Array.prototype, where a learner's accessor for
 * that index was handed the array and respelled the mark's name's pieces in
 * it, so that the seal looked for a name no realm has
 * (`tests/graded_realm_overrides_test.ts`). Throws `Error` when the code has
 * no string array of the obfuscator's form.
 */
function ownStrings(code: string): string {
  const found = /(function _0x[0-9a-f]+\(\)\{const _0x[0-9a-f]+=)\[([^\]]*)\];/.exec(code);
  const strings = found?.[2].match(/'[^'\\]*'/g) ?? [];
  if (found === null || strings.join(",") !== found[2]) {
    throw new Error("the obfuscated code has no string array of the obfuscator's form");
  }
  const held = strings.map((text, at) => `${at}:${text}`).join(",");
  return code.replace(
    found[0],
    `${
      found[1]
    }{__proto__:null,push:[]['push'],shift:[]['shift'],length:${strings.length},${held}};`,
  );
}

/** `file` bundled on its own: TypeScript gone, every import it makes left an import. */
async function bundled(file: string, text: string): Promise<string> {
  const specifiers = [...text.matchAll(/^(?:import|export)\b[^;]*?from\s+"([^"]+)"/gms)]
    .map(([, specifier]) => specifier);
  const output = await Deno.makeTempFile({ suffix: ".js" });
  try {
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--platform=deno",
        "--format=esm",
        ...[...new Set(specifiers)].map((specifier) => `--external=${specifier}`),
        `--output=${output}`,
        file,
      ],
      cwd: fileURLToPath(root),
      stdout: "null",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    if (code !== 0) {
      throw new Error(`deno bundle ${file} failed: ${new TextDecoder().decode(stderr).trim()}`);
    }
    return await Deno.readTextFile(output);
  } finally {
    await Deno.remove(output);
  }
}

/**
 * The seal of the library module `file` (from the repository's root), as
 * `deno task seal` writes it but for its header line, with the watermark of
 * `secrets` in each graded function it holds a copy of.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const secrets = { probe: "pearl_basil_ivory", token: "flint_lemon_kiosk" };
 * const code = await sealModule("lib/mcp/client/allowlist.ts", secrets);
 * assert.match(code, /export\{/);
 * assert.ok(!code.includes("flint_lemon_kiosk"));
 * ```
 */
export async function sealModule(
  file: string,
  secrets: SealSecrets,
  options: WatermarkOptions = {},
): Promise<string> {
  const text = await Deno.readTextFile(new URL(file, root));
  const marked = watermarked(
    await bundled(file, text),
    libraryNames(UNITS, file),
    secrets,
    options,
  );
  return ownGlobals(
    ownStrings(JavaScriptObfuscator.obfuscate(marked, OBFUSCATION).getObfuscatedCode()),
  );
}

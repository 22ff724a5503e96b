// `deno task seal [--check]`: seal each library module that holds the
// library's own implementation of a graded function (see `sealed.ts`):
// bundle it alone (its imports kept as imports, so that its classes are the
// library's), put the watermark in each graded function's copy
// (`watermarked.ts`, with the secrets kept with the hidden cases), obfuscate
// it with a fixed seed, and write it beside the module as `NAME.sealed.js`,
// headed by the hash of the module and the watermark (`sealHash`). With
// `--check`, write nothing and fail when a seal is missing or stale.

import JavaScriptObfuscator, { type ObfuscatorOptions } from "javascript-obfuscator";
import { fileURLToPath } from "node:url";
import { sealedPath } from "../grading/library_copies.ts";
import { UNITS } from "../grading/units/mod.ts";
import { loadWatermark } from "../grading/watermark.ts";
import { watermarked } from "./watermarked.ts";
import { libraryNames, sealedModules, sealHash, sealHeader, staleSeals } from "./sealed.ts";

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

const files = sealedModules(UNITS);
try {
  if (Deno.args.includes("--check")) {
    const problems = await staleSeals(root, files);
    if (problems.length > 0) throw new Error(problems.join("\n"));
    console.log(`seal: ${files.length} seals fresh`);
  } else {
    const watermark = await loadWatermark();
    if (watermark === undefined) {
      throw new Error("holdouts/watermark.ts is missing: the seals' watermark is kept there");
    }
    for (const file of files) {
      const text = await Deno.readTextFile(new URL(file, root));
      const marked = watermarked(await bundled(file, text), libraryNames(UNITS, file), watermark);
      const code = JavaScriptObfuscator.obfuscate(marked, OBFUSCATION).getObfuscatedCode();
      await Deno.writeTextFile(
        new URL(sealedPath(file), root),
        `${sealHeader(file, await sealHash(root, file))}\n${code}\n`,
      );
      console.log(`seal: ${sealedPath(file)}`);
    }
  }
} catch (error) {
  console.error(`seal: ${(error as Error).message}`);
  Deno.exit(1);
}

/**
 * The library modules that ship sealed: each one that holds the library's
 * own implementation of a graded function. The learners' release holds, in
 * its place, a one-line module exporting everything from its seal
 * (`NAME.sealed.js` beside it, bundled and obfuscated by `deno task seal`),
 * so the course runs as before and no graded function's body can be read;
 * but for the modules `withheld.ts` names, which it holds withheld, with no
 * seal.
 * A seal names the hash of the module it seals: a seal whose module has
 * changed since is stale, and neither `deno task check` nor the release
 * takes it.
 *
 * @module
 */

import { fileURLToPath as fromFileUrl } from "node:url";
import { SEAL_STUB, sealedPath } from "../grading/library_copies.ts";
import type { UnitSpec } from "../grading/spec.ts";
import { sha256Hex } from "../../lib/course/manifest.ts";

/**
 * The library files to seal: every file a graded function of `units` names
 * as its library copy, sorted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "../grading/units/mod.ts";
 *
 * assert.ok(sealedModules(UNITS).includes("lib/mcp/client/answer.ts"));
 * ```
 */
export function sealedModules(units: ReadonlyMap<string, UnitSpec>): string[] {
  return [
    ...new Set(
      [...units.values()].flatMap((spec) =>
        spec.functions.flatMap((fn) => (fn.library ?? []).map(({ file }) => file))
      ),
    ),
  ].sort();
}

/**
 * The graded functions' library copies that `file` declares, by name,
 * sorted: the functions of its seal that carry the watermark.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "../grading/units/mod.ts";
 *
 * assert.deepEqual(libraryNames(UNITS, "lib/mcp/server/dispatch.ts"), ["handleLine", "negotiateVersion", "respond"]);
 * ```
 */
export function libraryNames(units: ReadonlyMap<string, UnitSpec>, file: string): string[] {
  return [
    ...new Set(
      [...units.values()].flatMap((spec) =>
        spec.functions.flatMap((fn) =>
          (fn.library ?? []).filter((copy) => copy.file === file).map(({ name }) => name)
        )
      ),
    ),
  ].sort();
}

/**
 * What a seal is made of besides its module: how it is made, the watermark's marker, the
 * character it picks by the token (the grader's `secretCharacter`), and its
 * secrets.
 */
const MARKING = [
  "tools/release/seal_module.ts",
  "tools/release/watermarked.ts",
  "tools/grading/watermark.ts",
  "tools/grading/realm/graded_mark.ts",
  "holdouts/watermark.ts",
];

/**
 * The SHA-256, in hex, of what the seal of `file` (under `root`) is made
 * from: the module, and the watermark put in it (its marker and its secrets,
 * where `root` holds them). A seal records it: when either changes, the seal
 * is stale.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const root = new URL("../../", import.meta.url);
 * assert.match(await sealHash(root, "lib/mcp/client/answer.ts"), /^[0-9a-f]{64}$/);
 * assert.notEqual(await sealHash(root, "lib/mcp/client/answer.ts"), await sealHash(root, "lib/mcp/client/allowlist.ts"));
 * ```
 */
export async function sealHash(root: URL, file: string): Promise<string> {
  const texts = [];
  for (const path of [file, ...MARKING]) {
    try {
      texts.push(await Deno.readTextFile(new URL(path, root)));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound) || path === file) throw error;
      texts.push("");
    }
  }
  return await sha256Hex(new TextEncoder().encode(texts.join("\0")));
}

/**
 * The first line of the seal of `file`, whose source hashes to `hash`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(sealedHash(sealHeader("lib/a.ts", "ab12")), "ab12");
 * ```
 */
export function sealHeader(file: string, hash: string): string {
  return `// Sealed from ${file} (sha256 ${hash}) by \`deno task seal\`: do not edit.`;
}

/**
 * The source hash a seal's first line records, or undefined when it has none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(sealedHash("export const a = 1;\n"), undefined);
 * ```
 */
export function sealedHash(sealed: string): string | undefined {
  return /^\/\/ Sealed from \S+ \(sha256 ([0-9a-f]+)\)/.exec(sealed)?.[1];
}

/**
 * What the release holds at `file`'s path: a module exporting everything its
 * seal exports, and, in its comments, `documentation`: what the module
 * exports, with each name's documentation and examples, as `deno doc` shows
 * it ({@linkcode moduleDocumentation}), so that a lesson that names one can
 * be followed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const stub = releaseStub("lib/mcp/client/answer.ts", "function answerFor(...)\n  The answer.");
 * assert.match(stub, /export \* from "\.\/answer\.sealed\.js";/);
 * assert.match(stub, /^\/\/   The answer\.$/m);
 * assert.match(releaseStub("lib/mask/json_chars.ts"), /Lab 03 has you rebuild in small/);
 * ```
 */
export function releaseStub(file: string, documentation = ""): string {
  const seal = sealedPath(file).slice(file.lastIndexOf("/") + 1);
  return [
    SEAL_STUB,
    file.startsWith("lib/mask/")
      ? "// since the mask is what Lab 03 has you rebuild in small: read the rest of lib/mask/."
      : "// so that the course can run it before you have written it: write your own in the notebook.",
    ...documentationLines(documentation),
    `export * from "./${seal}";`,
    "",
  ].join("\n");
}

/**
 * `documentation`, what a module exports as `deno doc` shows it, as comment
 * lines under a heading; none when it is empty.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(documentationLines(""), []);
 * assert.equal(documentationLines("function a()\n  A.").at(-1), "//   A.");
 * ```
 */
export function documentationLines(documentation: string): string[] {
  return documentation.trim() === "" ? [] : [
    "//",
    "// What it exports, as `deno doc` shows it:",
    "//",
    ...documentation.trimEnd().split("\n").map((line) => `// ${line}`.trimEnd()),
  ];
}

/**
 * What the module at `file` (under `root`) exports, with each name's
 * documentation and examples, as `deno doc` shows it, without the paths of
 * the folder it was read in.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const shown = await moduleDocumentation(new URL("../../", import.meta.url), "lib/mcp/shared/framing.ts");
 * assert.match(shown, /function\* readFrames\(/);
 * assert.ok(!shown.includes("file://"));
 * ```
 */
export async function moduleDocumentation(root: URL, file: string): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", file],
    cwd: fromFileUrl(root),
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new Error(`deno doc ${file} failed: ${new TextDecoder().decode(stderr).trim()}`);
  }
  return new TextDecoder().decode(stdout).split("\n")
    .filter((line) => !line.startsWith("Defined in file://")).join("\n")
    .replace(/\n{3,}/g, "\n\n");
}

/**
 * A line for each of `files` (under `root`) whose seal is missing or stale
 * (records another hash than {@linkcode sealHash}'s: the module or the
 * watermark changed since); empty when every seal is fresh.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "../grading/units/mod.ts";
 *
 * assert.deepEqual(await staleSeals(new URL("../../", import.meta.url), sealedModules(UNITS)), []);
 *
 * // A seal of the module as it was before it changed is stale.
 * const folder = await Deno.makeTempDir();
 * const root = new URL(`file://${folder}/`);
 * await Deno.mkdir(`${folder}/lib`);
 * await Deno.writeTextFile(`${folder}/lib/a.ts`, "export const a = 1;\n");
 * await Deno.writeTextFile(`${folder}/lib/a.sealed.js`, `${sealHeader("lib/a.ts", await sealHash(root, "lib/a.ts"))}\n`);
 * assert.deepEqual(await staleSeals(root, ["lib/a.ts"]), []);
 * await Deno.writeTextFile(`${folder}/lib/a.ts`, "export const a = 2;\n");
 * const [problem] = await staleSeals(root, ["lib/a.ts"]);
 * assert.match(problem, /lib\/a\.sealed\.js is stale/);
 * await Deno.remove(folder, { recursive: true });
 * ```
 */
export async function staleSeals(root: URL, files: readonly string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const file of files) {
    const hash = await sealHash(root, file);
    let sealed: string;
    try {
      sealed = await Deno.readTextFile(new URL(sealedPath(file), root));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      problems.push(`${sealedPath(file)} is missing: run \`deno task seal\``);
      continue;
    }
    if (sealedHash(sealed) !== hash) {
      problems.push(
        `${sealedPath(file)} is stale (${file} or the watermark changed): run \`deno task seal\``,
      );
    }
  }
  return problems;
}

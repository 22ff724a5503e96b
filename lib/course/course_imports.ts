/**
 * The npm packages the course imports, by the name its modules import them by.
 *
 * @module
 */

/**
 * The imports of the course at `root`: `deno.json`'s own, or, in the
 * learners' release, those of the import map it names (there, imports of its
 * own, like a `deno.lock` beside it before set-up, would have `deno task`
 * fetch every package before it ran any task).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const imports = await courseImports(new URL("../../", import.meta.url));
 * assert.match(imports.ajv, /^npm:ajv@/);
 * ```
 */
export async function courseImports(root: URL): Promise<Record<string, string>> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  if (typeof config.importMap === "string") {
    return JSON.parse(await Deno.readTextFile(new URL(config.importMap, root))).imports ?? {};
  }
  return config.imports ?? {};
}

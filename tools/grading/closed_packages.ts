/**
 * Which npm packages graded code may name by an `npm:` specifier: only those
 * with an `"exports"` map. Deno resolves the path after a package's version
 * inside that package's folder of its npm cache, and a package without an
 * exports map takes any path, `..` included:
 * `npm:ajv@8.20.0/../../eventsource-parser/3.1.1/dist/index.js` loaded a
 * package the sandbox's lock does not name (the SSE parser Lab 04 has the
 * learner write), and a realm's module loading reads the cache with no
 * permission asked (round 20). A package with an exports map refuses any
 * path it does not export.
 *
 * @module
 */

/**
 * The entries of `specifiers` (a lock file's, `"npm:NAME@RANGE"` to the
 * version it resolved to, as `"8.20.0"` or `"2.4.0_zod@4.6.7"`) whose
 * package, as the npm cache at `npmCache` holds it, has an `"exports"` map.
 * A package the cache does not hold, or whose `package.json` does not parse,
 * is left out: nothing shows it closed. Entries that are not `npm:` are kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const cache = await Deno.makeTempDir();
 * for (const [name, manifest] of [["open", {}], ["closed", { exports: "./index.js" }]] as const) {
 *   await Deno.mkdir(`${cache}/registry.npmjs.org/${name}/1.0.0`, { recursive: true });
 *   await Deno.writeTextFile(`${cache}/registry.npmjs.org/${name}/1.0.0/package.json`, JSON.stringify(manifest));
 * }
 * const kept = await closedPackages({ "npm:open@1": "1.0.0", "npm:closed@1": "1.0.0" }, cache);
 * assert.deepEqual(kept, { "npm:closed@1": "1.0.0" });
 * await Deno.remove(cache, { recursive: true });
 * ```
 */
export async function closedPackages(
  specifiers: Record<string, string>,
  npmCache: string,
): Promise<Record<string, string>> {
  const kept: Record<string, string> = {};
  for (const [specifier, resolved] of Object.entries(specifiers)) {
    const name = /^npm:\/?(@[^/@]+\/[^/@]+|[^/@]+)@/.exec(specifier)?.[1];
    if (!specifier.startsWith("npm:")) kept[specifier] = resolved;
    else if (name !== undefined && await hasExports(name, resolved.split("_")[0], npmCache)) {
      kept[specifier] = resolved;
    }
  }
  return kept;
}

/** Whether the package `name` at `version` in the npm cache `npmCache` has an `"exports"` map. */
async function hasExports(name: string, version: string, npmCache: string): Promise<boolean> {
  try {
    const manifest = JSON.parse(
      await Deno.readTextFile(`${npmCache}/registry.npmjs.org/${name}/${version}/package.json`),
    );
    return manifest !== null && typeof manifest === "object" && manifest.exports != null;
  } catch {
    return false;
  }
}

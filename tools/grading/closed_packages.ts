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
    const manifest = await manifestOf(specifier, resolved, npmCache);
    if (!specifier.startsWith("npm:") || manifest?.exports != null) kept[specifier] = resolved;
  }
  return kept;
}

/**
 * The names of the npm packages of `specifiers` (as {@linkcode closedPackages}
 * takes them) whose modules are CommonJS (a `package.json` with no `"type":
 * "module"`): Deno gives each such module a default export, its
 * `module.exports`, so a bundle standing in for one must give it too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const cache = await Deno.makeTempDir();
 * for (const [name, manifest] of [["old", {}], ["new", { type: "module" }]] as const) {
 *   await Deno.mkdir(`${cache}/registry.npmjs.org/${name}/1.0.0`, { recursive: true });
 *   await Deno.writeTextFile(`${cache}/registry.npmjs.org/${name}/1.0.0/package.json`, JSON.stringify(manifest));
 * }
 * const names = await commonJsPackages({ "npm:old@1": "1.0.0", "npm:new@1": "1.0.0" }, cache);
 * assert.deepEqual([...names], ["old"]);
 * await Deno.remove(cache, { recursive: true });
 * ```
 */
export async function commonJsPackages(
  specifiers: Record<string, string>,
  npmCache: string,
): Promise<Set<string>> {
  const names = new Set<string>();
  for (const [specifier, resolved] of Object.entries(specifiers)) {
    const manifest = await manifestOf(specifier, resolved, npmCache);
    if (manifest !== undefined && manifest.type !== "module") names.add(manifest.name);
  }
  return names;
}

/**
 * The `package.json` of the package an `npm:` lock specifier resolved to
 * `resolved`, as the npm cache at `npmCache` holds it, with its name; none
 * for another specifier, or a package the cache lacks or whose manifest does
 * not parse to an object.
 */
async function manifestOf(
  specifier: string,
  resolved: string,
  npmCache: string,
): Promise<{ name: string; exports?: unknown; type?: unknown } | undefined> {
  const name = /^npm:\/?(@[^/@]+\/[^/@]+|[^/@]+)@/.exec(specifier)?.[1];
  if (name === undefined) return undefined;
  const version = resolved.split("_")[0];
  try {
    const manifest = JSON.parse(
      await Deno.readTextFile(`${npmCache}/registry.npmjs.org/${name}/${version}/package.json`),
    );
    return manifest !== null && typeof manifest === "object" ? { ...manifest, name } : undefined;
  } catch {
    return undefined;
  }
}

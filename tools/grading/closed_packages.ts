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

/** A lock file's entry for one npm package: what it depends on, by the lock's names for them. */
export interface LockedPackage {
  dependencies?: string[];
  optionalDependencies?: string[];
  optionalPeers?: string[];
  [key: string]: unknown;
}

/**
 * The entries of `npm` (a lock file's packages, by id: `"NAME@VERSION"`,
 * with its peers after an underscore) that `specifiers` (its specifiers, as
 * {@linkcode closedPackages} keeps them) reach, themselves or through the
 * dependencies, optional ones and optional peers of what they reach; all of
 * `npm` where a specifier or a dependency names no single entry, so that
 * nothing reachable is ever left out. The sandbox's lock names no more
 * packages than its specifiers can load: Deno reads every package a lock
 * names in each process it starts, and the course's lock names 309, of
 * which the sandbox's specifiers reach 81 (3 to 5 ms of every learner's
 * process, BENCHMARKS.md, row 6).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const npm = {
 *   "a@1.0.0": { dependencies: ["b@2.0.0"] },
 *   "b@1.0.0": {},
 *   "b@2.0.0": { optionalPeers: ["c"] },
 *   "c@1.0.0_b@2.0.0": {},
 *   "d@1.0.0": {},
 * };
 * assert.deepEqual(Object.keys(lockedClosure(npm, { "npm:a@1": "1.0.0" })), [
 *   "a@1.0.0",
 *   "b@2.0.0",
 *   "c@1.0.0_b@2.0.0",
 * ]);
 * // A name the lock does not resolve to one package: nothing is left out.
 * assert.equal(Object.keys(lockedClosure(npm, { "npm:b@2": "3.0.0" })).length, 5);
 * ```
 */
export function lockedClosure<T extends LockedPackage>(
  npm: Record<string, T>,
  specifiers: Record<string, string>,
): Record<string, T> {
  const ids = Object.keys(npm);
  const nameOf = (id: string) => id.slice(0, id.indexOf("@", 1));
  /** The one package `dependency` (`NAME`, or `NAME@VERSION`, maybe with peers) names, if one. */
  const resolve = (dependency: string): string | undefined => {
    if (Object.hasOwn(npm, dependency)) return dependency;
    const found = dependency.indexOf("@", 1) > 0
      ? ids.filter((id) => id.startsWith(`${dependency}_`))
      : ids.filter((id) => nameOf(id) === dependency);
    return found.length === 1 ? found[0] : undefined;
  };
  const pending: string[] = [];
  for (const [specifier, resolved] of Object.entries(specifiers)) {
    const name = /^npm:\/?(@[^/@]+\/[^/@]+|[^/@]+)@/.exec(specifier)?.[1];
    if (name === undefined) continue;
    const id = resolve(`${name}@${resolved}`);
    if (id === undefined) return npm;
    pending.push(id);
  }
  const reached = new Set<string>();
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (reached.has(id)) continue;
    reached.add(id);
    const { dependencies = [], optionalDependencies = [], optionalPeers = [] } = npm[id];
    for (const dependency of [...dependencies, ...optionalDependencies, ...optionalPeers]) {
      const found = resolve(dependency);
      if (found === undefined) return npm;
      pending.push(found);
    }
  }
  return Object.fromEntries(ids.filter((id) => reached.has(id)).map((id) => [id, npm[id]]));
}

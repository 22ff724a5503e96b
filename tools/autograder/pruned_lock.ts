/**
 * A `deno.lock` (version 5) cut down to some of its npm specifiers and what
 * they depend on, so that a package that caches its lock file's packages
 * caches only those.
 *
 * @module
 */

/** The parts of a version 5 lock file this reads. */
export interface DenoLock {
  version: string;
  specifiers: Record<string, string>;
  npm?: Record<string, { integrity?: string; dependencies?: string[] } & Record<string, unknown>>;
  workspace?: { dependencies?: string[] };
  [key: string]: unknown;
}

/**
 * `lock` with only the specifiers in `keep` (such as `npm:ajv@8.20.0`), the
 * npm packages they need, and a workspace that depends on them alone.
 * Throws when a specifier to keep is not in the lock.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const lock = {
 *   version: "5",
 *   specifiers: { "npm:a@1.0.0": "1.0.0", "npm:b@2.0.0": "2.0.0" },
 *   npm: { "a@1.0.0": { dependencies: ["c"] }, "b@2.0.0": {}, "c@3.0.0": {} },
 *   workspace: { dependencies: ["npm:a@1.0.0", "npm:b@2.0.0"] },
 * };
 * const pruned = prunedLock(lock, ["npm:a@1.0.0"]);
 * assert.deepEqual(Object.keys(pruned.npm!), ["a@1.0.0", "c@3.0.0"]);
 * assert.deepEqual(pruned.workspace, { dependencies: ["npm:a@1.0.0"] });
 * ```
 */
export function prunedLock(lock: DenoLock, keep: readonly string[]): DenoLock {
  const npm = lock.npm ?? {};
  const specifiers: Record<string, string> = {};
  const pending: string[] = [];
  for (const specifier of keep) {
    const resolved = lock.specifiers[specifier];
    if (resolved === undefined) throw new Error(`deno.lock has no ${specifier}`);
    specifiers[specifier] = resolved;
    pending.push(`${specifier.slice("npm:".length).replace(/@[^@]*$/, "")}@${resolved}`);
  }
  const kept = new Set<string>();
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (kept.has(id)) continue;
    if (npm[id] === undefined) throw new Error(`deno.lock has no npm package ${id}`);
    kept.add(id);
    for (const dependency of npm[id].dependencies ?? []) pending.push(packageId(npm, dependency));
  }
  return {
    ...lock,
    specifiers,
    npm: Object.fromEntries(Object.entries(npm).filter(([id]) => kept.has(id))),
    workspace: { ...lock.workspace, dependencies: [...keep].sort() },
  };
}

/**
 * The package an npm specifier is of, as the lock's workspace names it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(packageOf("npm:/ajv@8.20.0/dist/2020.js"), "npm:ajv@8.20.0");
 * assert.equal(packageOf("npm:/@modelcontextprotocol/sdk@1.32.2/"), "npm:@modelcontextprotocol/sdk@1.32.2");
 * assert.equal(packageOf("npm:ajv@8.20.0"), "npm:ajv@8.20.0");
 * ```
 */
export function packageOf(specifier: string): string {
  const bare = specifier.slice("npm:".length).replace(/^\//, "");
  const [, name] = bare.match(/^((?:@[^/]+\/)?[^/]+)/) ?? [];
  return `npm:${name}`;
}

/** The lock's id for a dependency written as a bare name (one version in the lock) or `name@version`. */
function packageId(npm: NonNullable<DenoLock["npm"]>, dependency: string): string {
  if (npm[dependency] !== undefined) return dependency;
  const versions = Object.keys(npm).filter((id) => id.startsWith(`${dependency}@`));
  if (versions.length !== 1) {
    throw new Error(
      `deno.lock names ${dependency} as a dependency, and has ${versions.length} of it`,
    );
  }
  return versions[0];
}

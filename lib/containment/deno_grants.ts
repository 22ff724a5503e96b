/**
 * What a list of `deno run` permission flags grants, in a form where two
 * lists that grant the same are equal, whatever their order or style: for
 * each kind of permission, the paths (or names, or hosts) allowed, and the
 * exceptions carved out of them. Chapter 15's grade tables and the
 * autograder read a learner's flags with it. It follows Deno 2.9's rules as
 * measured (its tests check them against a real `deno run`): no flag grants nothing; a flag without a value grants or
 * denies everything of its kind; for a path, the most specific rule that
 * names it or a folder above it decides, and a deny wins a tie.
 *
 * @module
 */

import { posix } from "node:path";

/** The kinds of permission, as the flags name them. */
export const PERMISSION_KINDS = ["read", "write", "net", "env", "run", "sys", "ffi"] as const;

/** One of {@linkcode PERMISSION_KINDS}. */
export type PermissionKind = typeof PERMISSION_KINDS[number];

/**
 * What flags grant: for each kind, the sorted entries allowed (`"everything"`
 * for all) and the exceptions within them (`"except ENTRY"`); for `import`,
 * the hosts a program may import code from.
 */
export type DenoGrants = Record<PermissionKind | "import", string[]>;

/** How Deno 2.9 names the hosts it lets a program import from when no flag says otherwise. */
export const DEFAULT_IMPORT_HOSTS = "Deno's default hosts (deno.land, jsr.io, esm.sh, ...)";

const SHORT: Record<string, PermissionKind> = {
  "-R": "read",
  "-W": "write",
  "-N": "net",
  "-E": "env",
  "-S": "sys",
};
const PATH_KINDS = new Set<PermissionKind>(["read", "write", "ffi"]);
/** Flags that change nothing a program may do. */
const HARMLESS = new Set([
  "--no-prompt",
  "--quiet",
  "-q",
  "--no-config",
  "--no-lock",
  "--frozen",
  "--cached-only",
  "--no-npm",
  "--no-check",
  "--v8-flags",
  // Measured: neither form stops an import from Deno's default hosts; --no-remote does.
  "--deny-import",
]);
/** The rule for everything of a kind: the folder above every path, the parent of every name. */
const ALL = "*";

/**
 * What `flags` grant. Throws `TypeError` naming the flag when something in
 * it is not a permission flag Deno would accept and this can judge: a script
 * or argument, an unknown flag, an empty entry (Deno refuses those, and a
 * path with a comma splits into them), a path that is not absolute, or
 * `--allow-all` beside another allow flag (Deno refuses that too).
 *
 * @example Two styles, one grant
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const a = denoGrants(["--allow-read=/data", "--deny-read=/data/link", "--no-remote"]);
 * const b = denoGrants(["--no-remote", "--deny-read=/data/link,/home", "--allow-read=/data/"]);
 * assert.deepEqual(a, b);
 * assert.deepEqual(a.read, ["/data", "except /data/link"]);
 * assert.deepEqual(a.net, []);
 * ```
 *
 * @example The most specific rule decides
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(denoGrants(["--deny-read", "--allow-read=/data"]).read, ["/data"]);
 * assert.deepEqual(denoGrants(["--allow-read=/data", "--deny-read=/"]).read, ["/data"]);
 * assert.deepEqual(denoGrants(["--allow-read"]).read, ["everything"]);
 * assert.deepEqual(denoGrants([]).import, [DEFAULT_IMPORT_HOSTS]);
 * assert.throws(() => denoGrants(["--allow-read=/a,b"]), TypeError);
 * ```
 */
export function denoGrants(flags: unknown): DenoGrants {
  if (!Array.isArray(flags)) {
    throw new TypeError(`Expected an array of flags, got ${describe(flags)}`);
  }
  const rules = new Map<PermissionKind, Map<string, "allow" | "deny">>(
    PERMISSION_KINDS.map((kind) => [kind, new Map()]),
  );
  const imports = { all: false, hosts: undefined as string[] | undefined, none: false };
  let allowAll = false;
  let allowFlag = "";
  for (const flag of flags) {
    if (typeof flag !== "string") throw new TypeError(`A flag must be a string: ${describe(flag)}`);
    if (!flag.startsWith("-")) {
      throw new TypeError(
        `${JSON.stringify(flag)} is not a flag: return the permission flags only, ` +
          "not the program, the script or its arguments",
      );
    }
    const equals = flag.indexOf("=");
    const name = equals === -1 ? flag : flag.slice(0, equals);
    const value = equals === -1 ? undefined : flag.slice(equals + 1);
    const kind = SHORT[name] ?? PERMISSION_KINDS.find((k) => name === `--allow-${k}`);
    const denied = PERMISSION_KINDS.find((k) => name === `--deny-${k}`);
    if (name === "-A" || name === "--allow-all") {
      if (value !== undefined) throw new TypeError(`${flag}: --allow-all takes no value`);
      allowAll = true;
    } else if (kind !== undefined || denied !== undefined) {
      const which = (kind ?? denied)!;
      if (kind !== undefined) allowFlag ||= name;
      for (const entry of entries(flag, which, value)) {
        const verdicts = rules.get(which)!;
        // A deny wins a tie.
        if (verdicts.get(entry) !== "deny") {
          verdicts.set(entry, kind !== undefined ? "allow" : "deny");
        }
      }
    } else if (name === "--allow-import" || name === "-I") {
      if (value === undefined) imports.all = true;
      else imports.hosts = [...(imports.hosts ?? []), ...entries(flag, "net", value)];
    } else if (name === "--no-remote") {
      imports.none = true;
    } else if (!HARMLESS.has(name)) {
      throw new TypeError(`${flag}: not a permission flag this can judge`);
    }
  }
  if (allowAll && allowFlag !== "") {
    throw new TypeError(`Deno refuses --allow-all beside ${allowFlag}: it would not start`);
  }
  const grants = {} as DenoGrants;
  for (const kind of PERMISSION_KINDS) {
    const verdicts = rules.get(kind)!;
    if (allowAll && verdicts.get(ALL) !== "deny") verdicts.set(ALL, "allow");
    grants[kind] = effective(verdicts, PATH_KINDS.has(kind) ? insidePath : insideName(kind));
  }
  grants.import = imports.none
    ? []
    : allowAll || imports.all
    ? ["everything"]
    : imports.hosts !== undefined
    ? [...new Set(imports.hosts)].sort()
    : [DEFAULT_IMPORT_HOSTS];
  return grants;
}

/** The entries of one flag: everything, or its comma-separated values, each checked. */
function entries(flag: string, kind: PermissionKind, value: string | undefined): string[] {
  if (value === undefined) return [ALL];
  return value.split(",").map((entry) => {
    if (entry === "") {
      throw new TypeError(
        `${flag} has an empty entry, which Deno refuses`,
      );
    }
    if (!PATH_KINDS.has(kind)) return entry;
    if (!entry.startsWith("/")) {
      throw new TypeError(
        `${flag}: ${JSON.stringify(entry)} is not an absolute path (Deno would take it from the ` +
          "folder the program starts in)",
      );
    }
    const normal = posix.normalize(entry);
    return normal.length > 1 ? normal.replace(/\/+$/, "") : normal;
  });
}

/**
 * The rules that matter, as sorted entries: each rule whose verdict differs
 * from the rule above it (or from deny, when none is above it).
 */
function effective(
  verdicts: Map<string, "allow" | "deny">,
  inside: (entry: string, above: string) => boolean,
): string[] {
  const depth = (entry: string) => entry === ALL ? -1 : entry.split("/").length;
  const kept = new Map<string, "allow" | "deny">();
  for (
    const entry of [...verdicts.keys()].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1))
  ) {
    let above: string | undefined;
    for (const candidate of kept.keys()) {
      if (candidate !== entry && (candidate === ALL || inside(entry, candidate))) {
        if (above === undefined || depth(candidate) > depth(above)) above = candidate;
      }
    }
    const parent = above === undefined ? "deny" : kept.get(above);
    if (verdicts.get(entry) !== parent) kept.set(entry, verdicts.get(entry)!);
  }
  return [...kept].map(([entry, verdict]) => {
    const shown = entry === ALL ? "everything" : entry;
    return verdict === "allow" ? shown : `except ${shown}`;
  }).sort();
}

function insidePath(entry: string, above: string): boolean {
  return above === "/" || entry.startsWith(`${above}/`);
}

/** For hosts, `HOST:PORT` is inside `HOST`; other names are inside nothing but everything. */
function insideName(kind: PermissionKind) {
  return (entry: string, above: string) => kind === "net" && entry.startsWith(`${above}:`);
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 80) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

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

import { denoEntry, type EntryKind } from "./_deno_entries.ts";
import { pathParts, PrefixTree } from "./_prefix_tree.ts";

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

const SHORT: Record<string, EntryKind> = {
  "-R": "read",
  "-W": "write",
  "-N": "net",
  "-E": "env",
  "-S": "sys",
  "-I": "import",
};
const KINDS: readonly EntryKind[] = [...PERMISSION_KINDS, "import"];
const PATH_KINDS = new Set<EntryKind>(["read", "write", "ffi"]);
/** Flags that change nothing a program may do, given without a value. */
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
]);
/**
 * The most entries the flags may list together (25,000 once took 2.3 s, when
 * each rule was weighed against every other; now each is found in a tree of
 * the rules above it, at the cost of its length).
 */
const MAX_ENTRIES = 1000;
/** The rule for everything of a kind (a flag without a value): no entry is empty. */
const ALL = "";

/**
 * What `flags` grant. Throws `TypeError` naming the flag when something in
 * it is not a permission flag Deno would accept and this can judge (or
 * when the flags list more than 1000 entries together): a script
 * or argument, an unknown flag, short flags run together, an empty entry
 * (Deno refuses those, and a path with a comma splits into them), a path
 * that is not absolute, a program named without its path (Deno finds it on
 * PATH), a host this cannot read exactly (wildcards, ranges), or
 * `--allow-all` beside another allow flag (Deno refuses that too).
 *
 * As Deno reads them, the values of one flag given several times are one
 * list, and an occurrence without a value counts only when none has one;
 * `--allow-env=A*` is every name starting with `A`, and the longer such
 * prefix, then a whole name, is the more specific.
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
 * assert.deepEqual(denoGrants(["--allow-read", "--allow-read=/data"]).read, ["/data"]);
 * assert.deepEqual(denoGrants(["--allow-env=A*", "--deny-env=AB*"]).env, ["A*", "except AB*"]);
 * assert.deepEqual(denoGrants([]).import, [DEFAULT_IMPORT_HOSTS]);
 * assert.throws(() => denoGrants(["--allow-read=/a,b"]), TypeError);
 * ```
 */
export function denoGrants(flags: unknown): DenoGrants {
  if (!Array.isArray(flags)) {
    throw new TypeError(`Expected an array of flags, got ${describe(flags)}`);
  }
  /** Each flag's entries, keyed by verdict and kind; `undefined` while no occurrence has a value. */
  const given = new Map<`${"allow" | "deny"} ${EntryKind}`, string[] | undefined>();
  /** The entries of every flag so far. */
  let count = 0;
  let allowAll = false;
  let noRemote = false;
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
    const allowed = SHORT[name] ?? KINDS.find((k) => name === `--allow-${k}`);
    const denied = KINDS.find((k) => name === `--deny-${k}`);
    if (/^-[^-]./.test(name)) {
      throw new TypeError(
        `${flag}: Deno reads short flags run together, or a value joined without "=", in ` +
          "ways this does not judge: write each flag apart (-R -W, -R=/data)",
      );
    } else if (name === "-A" || name === "-q") {
      if (value !== undefined) throw new TypeError(`${flag}: Deno refuses a value for ${name}`);
      allowAll ||= name === "-A";
    } else if (name === "--allow-all") {
      // Measured: Deno takes any value here (even "false") as --allow-all.
      allowAll = true;
    } else if (allowed !== undefined || denied !== undefined) {
      const key = allowed !== undefined ? `allow ${allowed}` as const : `deny ${denied!}` as const;
      const kind = (allowed ?? denied)!;
      // Measured: --deny-run skips empty entries (so --deny-run= denies nothing); others refuse them.
      const entries = value?.split(",").filter((raw) => raw !== "" || key !== "deny run")
        .map((raw) => denoEntry(flag, kind, raw));
      count += entries?.length ?? 0;
      if (count > MAX_ENTRIES) {
        throw new TypeError(
          `${flag.length > 80 ? `${flag.slice(0, 80)}…` : flag}: ${count} entries: more than ` +
            `the ${MAX_ENTRIES} this judges`,
        );
      }
      if (entries !== undefined) given.set(key, [...given.get(key) ?? [], ...entries]);
      else if (!given.has(key)) given.set(key, undefined);
    } else if (name === "--no-remote" && value === undefined) {
      noRemote = true;
    } else if (HARMLESS.has(name) && value === undefined) {
      // Nothing granted or taken.
    } else {
      throw new TypeError(`${flag}: not a permission flag this can judge`);
    }
  }
  const allowFlag = KINDS.find((kind) => given.has(`allow ${kind}`));
  if (allowAll && allowFlag !== undefined) {
    throw new TypeError(
      `Deno refuses --allow-all beside --allow-${allowFlag}: it would not start`,
    );
  }
  const grants = {} as DenoGrants;
  for (const kind of KINDS) {
    const verdicts = new Map<string, "allow" | "deny">();
    // A deny wins a tie: set last.
    for (const verdict of ["allow", "deny"] as const) {
      const entries = given.has(`${verdict} ${kind}`)
        ? given.get(`${verdict} ${kind}`) ?? [ALL]
        : [];
      for (const entry of entries) verdicts.set(entry, verdict);
    }
    if (allowAll && verdicts.get(ALL) !== "deny") verdicts.set(ALL, "allow");
    grants[kind] = effective(verdicts, kind);
  }
  if (noRemote) grants.import = [];
  else if (!allowAll && !given.has("allow import")) {
    // Measured: neither form of --deny-import stops an import from Deno's default hosts.
    grants.import = [DEFAULT_IMPORT_HOSTS];
  }
  return grants;
}

/**
 * The rules that matter, as sorted entries: each rule whose verdict differs
 * from the most specific rule above it (or from deny, when none is above it).
 * Measured exceptions to "the most specific wins": `--deny-net` without a
 * value stops every connection; a denied address (net, import) is denied
 * however specific the allow, and under every name that resolves to it, so
 * it is kept wherever a name is allowed; a denied program (run) is denied
 * with every program in it as a folder, however specific the allow.
 */
function effective(verdicts: Map<string, "allow" | "deny">, kind: EntryKind): string[] {
  const hosts = kind === "net" || kind === "import";
  const prefix = (entry: string) => kind === "env" && entry.endsWith("*");
  if (kind === "env" && verdicts.has("*")) {
    // Measured: --allow-env=* is every name, and more specific than --allow-env or --deny-env.
    verdicts.set(ALL, verdicts.get("*")!);
    verdicts.delete("*");
  }
  if (kind === "net" && verdicts.get(ALL) === "deny") return [];
  /** How specific a rule is: a path by its depth (the root least); a name's prefix by its length, the name itself past it. */
  const depth = (entry: string) =>
    entry === ALL
      ? -1
      : PATH_KINDS.has(kind) || kind === "run"
      ? entry === "/" ? 0 : entry.split("/").length
      : kind === "env"
      ? 2 * entry.length - (prefix(entry) ? 2 : -1)
      : entry.split(/:(?=\d+$)/).length;
  /**
   * The rules a rule may be inside, kept by their parts: a path's folders, a
   * name prefix's characters, a host's name before its port; `holds` says
   * which rules hold others: every path and host, a denied program, a name's
   * prefix (and no system name).
   */
  const inTree = () =>
    new PrefixTree((entry: string) =>
      PATH_KINDS.has(kind) || kind === "run"
        ? pathParts(entry)
        : kind === "env"
        ? (prefix(entry) ? entry.slice(0, -1) : entry).split("")
        : entry.split(":")
    );
  const holds = (above: string) =>
    above !== ALL && (PATH_KINDS.has(kind) || hosts ||
      (kind === "env" ? prefix(above) : kind === "run" && verdicts.get(above) === "deny"));
  const absolute = inTree();
  for (const [entry, verdict] of verdicts) {
    if (verdict === "deny" && entry !== ALL && (kind === "run" || (hosts && isAddress(entry)))) {
      absolute.add(entry);
    }
  }
  for (const [entry, verdict] of verdicts) {
    if (verdict === "allow" && absolute.deepest(entry) !== undefined) verdicts.delete(entry);
  }
  const kept = new Map<string, "allow" | "deny">();
  const above = inTree();
  for (
    const entry of [...verdicts.keys()].map((entry) => ({ entry, depth: depth(entry) }))
      .sort((a, b) => a.depth - b.depth || (a.entry < b.entry ? -1 : 1))
      .map(({ entry }) => entry)
  ) {
    const holder = above.deepest(entry) ?? (kept.has(ALL) ? ALL : undefined);
    const parent = holder === undefined ? "deny" : kept.get(holder);
    const verdict = verdicts.get(entry)!;
    if (verdict === parent) continue;
    kept.set(entry, verdict);
    if (holds(entry)) above.add(entry);
  }
  if (hosts && [...kept].some(([entry, verdict]) => verdict === "allow" && !isAddress(entry))) {
    for (const [address, verdict] of verdicts) {
      if (verdict === "deny" && address !== ALL && isAddress(address)) kept.set(address, "deny");
    }
  }
  return [...kept].map(([entry, verdict]) => {
    const shown = entry === ALL ? "everything" : entry;
    return verdict === "allow" ? shown : `except ${shown}`;
  }).sort();
}

/** An IPv4 or IPv6 address, with a port or without (not a name, nor everything). */
function isAddress(host: string): boolean {
  return host.startsWith("[") || /^[\d.]+(:\d+)?$/.test(host);
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 80) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

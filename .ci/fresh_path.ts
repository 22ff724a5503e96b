/**
 * `deno run --allow-all .ci/fresh_path.ts DIR`: fill the new folder DIR with
 * links to the programs a fresh machine has on its PATH once `sh tools/setup.sh
 * test` has run, and nothing else: those of the image's own Debian packages
 * (`.ci/image_packages.txt`), the image's Python (pyenv's `python3` and
 * `pip`), and what `tools/setup.sh` installs (Deno, and Debian's bubblewrap
 * and Chromium, and Debian's nbconvert where PyPI is out of reach). CI runs
 * the tests with `PATH=DIR`, so a test that finds a program that was
 * installed on this machine by hand (Debian's `jupyter`, say) fails here as it
 * would on a fresh machine, instead of passing because of it.
 *
 * It prints how many programs it linked, and which programs on this PATH it
 * left out, to stderr.
 *
 * @module
 */

import { basename, join } from "node:path";

/** Debian packages `tools/setup.sh` installs, when they are missing. */
export const SETUP_PACKAGES = [
  "bubblewrap",
  "chromium",
  // Where PyPI is out of reach: Debian's executor, and the `jupyter` command it brings.
  "jupyter-nbconvert",
  "python3-nbclient",
  "jupyter-core",
];
/** Programs `tools/setup.sh` installs otherwise (Deno, from the npm registry). */
export const SETUP_PROGRAMS = ["deno"];
/** The image's own Python is pyenv's, whose shims folder also gains whatever is pip-installed by hand. */
const IMAGE_PYTHON = new Set(["python", "python3", "pip", "pip3", "pyenv"]);

/** What {@linkcode freshPrograms} was given. */
export interface FreshPathOptions {
  /** The folders of the machine's PATH, in order. */
  path: readonly string[];
  /** Every file the image's and set-up's Debian packages hold (as `dpkg-query -L` lists them). */
  packaged: readonly string[];
}

/**
 * The programs a fresh machine would find on `path`, each name with the path
 * it is found at (the first on the PATH, as a shell finds it), and the names
 * left out. A program is the image's or set-up's when the file it leads to
 * (through symbolic links, such as Debian's alternatives) is one a listed
 * package holds, or when it is Deno or the image's Python.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const { kept, left } = await freshPrograms({ path: ["/usr/bin"], packaged: ["/usr/bin/sh"] });
 * assert.equal(kept.get("sh"), "/usr/bin/sh");
 * assert.ok(!kept.has("env") && left.includes("env"));
 * ```
 */
export async function freshPrograms(
  { path, packaged }: FreshPathOptions,
): Promise<{ kept: Map<string, string>; left: string[] }> {
  const owned = new Set<string>();
  for (const file of packaged) {
    owned.add(await Deno.realPath(file).catch(() => file));
  }
  const kept = new Map<string, string>();
  const seen = new Set<string>();
  const left: string[] = [];
  for (const folder of path) {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(folder));
    } catch {
      continue;
    }
    const pyenv = folder.endsWith("/.pyenv/shims") || folder.endsWith("/.pyenv/bin");
    for (const { name } of entries.sort((a, b) => a.name < b.name ? -1 : 1)) {
      const file = join(folder, name);
      if (seen.has(name) || !await executable(file)) continue;
      seen.add(name);
      const real = await Deno.realPath(file).catch(() => file);
      if (owned.has(real) || SETUP_PROGRAMS.includes(name) || (pyenv && IMAGE_PYTHON.has(name))) {
        kept.set(name, file);
      } else left.push(name);
    }
  }
  return { kept, left };
}

async function executable(file: string): Promise<boolean> {
  try {
    const info = await Deno.stat(file);
    return info.isFile && ((info.mode ?? 0) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** Every file the installed ones among `packages` hold. */
async function packagedFiles(packages: readonly string[]): Promise<string[]> {
  const { stdout } = await new Deno.Command("dpkg-query", {
    args: ["-L", ...packages],
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(stdout).split("\n").filter((line) => line.startsWith("/"));
}

if (import.meta.main) {
  const [target] = Deno.args;
  if (target === undefined) {
    console.error("usage: deno run --allow-all .ci/fresh_path.ts DIR");
    Deno.exit(2);
  }
  const list = await Deno.readTextFile(new URL("image_packages.txt", import.meta.url));
  const image = list.split("\n").filter((line) => line !== "" && !line.startsWith("#"));
  const { kept, left } = await freshPrograms({
    path: (Deno.env.get("PATH") ?? "").split(":").filter((folder) => folder !== ""),
    packaged: await packagedFiles([...image, ...SETUP_PACKAGES]),
  });
  await Deno.mkdir(target, { recursive: true });
  for (const [name, file] of kept) await Deno.symlink(file, join(target, name));
  const missing = SETUP_PROGRAMS.filter((name) => !kept.has(name));
  if (missing.length > 0) {
    console.error(`fresh PATH: tools/setup.sh has not installed ${missing.join(", ")}`);
    Deno.exit(1);
  }
  console.error(
    `fresh PATH: ${kept.size} programs of the image and of tools/setup.sh in ${
      basename(target)
    }/; ` +
      `left out ${left.length} others on this machine's PATH` +
      (left.length > 0
        ? ` (${left.slice(0, 12).join(", ")}${left.length > 12 ? ", ..." : ""})`
        : ""),
  );
}

/**
 * A tool's policy: what it needs (a data folder to read, and here nothing
 * else), what must stay out of its reach, and the resources it may use; and
 * what the program that serves it needs to start at all (its runtime), which
 * a sandbox must show it and Deno's flags need not grant. The learner's
 * functions turn a policy into `deno run` flags and a bubblewrap command
 * line; {@linkcode intruderPolicy} and {@linkcode nodePolicy} make the
 * policies Chapter 15 runs its servers under.
 *
 * @module
 */

import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The most a program may use. */
export interface Limits {
  /** Memory it may allocate (the data segment, `prlimit --data`), in bytes. */
  memoryBytes: number;
  /** CPU time, in seconds: past it the kernel ends the program (`prlimit --cpu`). */
  cpuSeconds: number;
}

/** What a tool needs, what it must never reach, and what its program needs to start. */
export interface Policy {
  /** What the program needs to start: read-only paths (its runtime, libraries, own code) and variables. */
  runtime: { paths: string[]; env: Record<string, string> };
  /** Folders the tool reads. */
  read: string[];
  /** Folders the tool writes. */
  write: string[];
  /** Where the tool connects, as `HOST:PORT`. */
  net: string[];
  /** Environment variables the tool reads, with their values. */
  env: Record<string, string>;
  /** Programs the tool starts. */
  run: string[];
  /**
   * Paths that must stay out of reach even where they are inside what the
   * tool reads or writes: the home folder, and the symbolic links in its data
   * folder that lead out of it.
   */
  deny: string[];
  /** The resources it may use. */
  limits: Limits;
}

/** The limits Chapter 15 puts on its servers: 1 GiB of memory, one second of CPU. */
export const LIMITS: Limits = { memoryBytes: 1 << 30, cpuSeconds: 1 };

/** The system folders a program on Debian needs, read-only, where they exist. */
const SYSTEM = ["/usr", "/bin", "/lib", "/lib64"];

/**
 * Deno's cache inside a sandbox of the lesson: a folder of the private,
 * empty `/tmp` every such sandbox makes, where the intruder (a local script
 * run with `--no-config`, which needs no module of the machine's cache)
 * writes its own compiled code, and which goes with the sandbox. The
 * machine's cache (the compiled code of every module the machine has run)
 * stays out of its sight.
 */
export const SANDBOX_DENO_DIR = "/tmp/deno";

/** The intruder server's script. */
export const INTRUDER = fileURLToPath(new URL("../../servers/intruder.ts", import.meta.url));

/** Where a playground keeps the tool's data and the home folder it must not reach. */
export interface Places {
  data: string;
  home: string;
}

/**
 * The policy of the intruder's `word_count`: read the data folder, nothing
 * else; never the home folder, nor a link out of the data folder; the
 * limits of {@linkcode LIMITS}. Its runtime is Deno's executable and the
 * server's own code (each local module it imports, file by file), and a cache
 * of Deno's own in the sandbox ({@linkcode SANDBOX_DENO_DIR}), empty: nothing
 * of the machine's cache.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const data = await Deno.makeTempDir();
 * const policy = await intruderPolicy({ data, home: "/home/nobody" });
 * assert.deepEqual(policy.read, [data]);
 * assert.deepEqual(policy.deny, ["/home/nobody"]);
 * assert.ok(policy.runtime.paths.includes("/usr"));
 * assert.equal(policy.runtime.env.DENO_DIR, SANDBOX_DENO_DIR);
 * await Deno.remove(data);
 * ```
 */
export async function intruderPolicy(places: Places): Promise<Policy> {
  return intruderPolicyOf(places, await linksOut(places.data));
}

/**
 * {@linkcode intruderPolicy} for a data folder whose links out of it are
 * `links`, without reading the folder: the policy of a playground not made yet.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const policy = intruderPolicyOf({ data: "/tmp/p/data", home: "/tmp/p/home" }, []);
 * assert.deepEqual(policy.deny, ["/tmp/p/home"]);
 * assert.equal(policy.runtime.env.NO_COLOR, "1");
 * ```
 */
export function intruderPolicyOf(places: Places, links: readonly string[]): Policy {
  return toolPolicy(
    places,
    {
      paths: runtimePaths([dirname(Deno.execPath()), ...localModules(INTRUDER)]),
      env: { DENO_DIR: SANDBOX_DENO_DIR, NO_COLOR: "1" },
    },
    LIMITS,
    links,
  );
}

/**
 * The policy of a Node server reading the data folder: its runtime is Node
 * and the installed packages in `nodeModules`; ten seconds of CPU.
 */
export async function nodePolicy(
  places: Places,
  node: string,
  nodeModules: string,
): Promise<Policy> {
  return toolPolicy(
    places,
    {
      paths: runtimePaths([dirname(node), nodeModules]),
      env: { NO_COLOR: "1" },
    },
    { ...LIMITS, cpuSeconds: 10 },
    await linksOut(places.data),
  );
}

function toolPolicy(
  places: Places,
  runtime: Policy["runtime"],
  limits: Limits,
  links: readonly string[],
): Policy {
  return {
    runtime,
    read: [places.data],
    write: [],
    net: [],
    env: {},
    run: [],
    deny: [places.home, ...links],
    limits,
  };
}

/**
 * The system folders a program on Debian needs, read-only, that this machine has.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(systemFolders().includes("/usr"));
 * ```
 */
export function systemFolders(): string[] {
  return SYSTEM.filter((path) => exists(path));
}

/** The system folders that exist, and each of `extra` not already inside one of them. */
function runtimePaths(extra: string[]): string[] {
  const paths = systemFolders();
  for (const path of extra) {
    if (!paths.some((kept) => !relative(kept, path).startsWith(".."))) paths.push(path);
  }
  return paths;
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The symbolic links under `folder` that lead out of it (or nowhere): each
 * is a second name for something outside, which Deno's flags, checking names,
 * would let through.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const folder = await Deno.makeTempDir();
 * await Deno.symlink("/etc/hostname", `${folder}/out`);
 * await Deno.symlink(".", `${folder}/in`);
 * assert.deepEqual(await linksOut(folder), [`${folder}/out`]);
 * await Deno.remove(folder, { recursive: true });
 * ```
 */
export async function linksOut(folder: string): Promise<string[]> {
  const found: string[] = [];
  const root = await Deno.realPath(folder);
  const visit = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isSymlink) {
        const target = await Deno.realPath(path).catch(() => undefined);
        if (target === undefined || relative(root, target).startsWith("..")) found.push(path);
      } else if (entry.isDirectory) await visit(path);
    }
  };
  await visit(resolve(folder));
  return found.sort();
}

/**
 * The local files of `script`'s module graph, as `deno info` reports them:
 * all the code a sandbox must show for the script to start.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const files = localModules(INTRUDER);
 * assert.ok(files.includes(INTRUDER));
 * assert.ok(files.some((file) => file.endsWith("_mcp_server.ts")));
 * ```
 */
export function localModules(script: string): string[] {
  // Named by its file URL: deno info reads a path's "#" as the start of a fragment.
  const graph = denoInfo(["--no-config", pathToFileURL(script).href]);
  const modules = graph.modules as { specifier: string; local?: string }[];
  return modules.filter((module) => module.specifier.startsWith("file:"))
    .map((module) => module.local ?? fileURLToPath(module.specifier)).sort();
}

/** What `deno info --json ARGS` reports. */
function denoInfo(args: string[]): Record<string, unknown> {
  const { stdout, stderr, success } = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", ...args],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (!success) {
    throw new Error(
      `deno info --json ${args.join(" ")} failed: ${new TextDecoder().decode(stderr)}`,
    );
  }
  return JSON.parse(new TextDecoder().decode(stdout));
}

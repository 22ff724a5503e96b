/**
 * Scratch folders removed when the process ends if they are still there: at
 * the end of a run, and at Ctrl-C, a stop or a closed terminal where the
 * program turns those into an ordinary end (`tools/grade.ts` does).
 *
 * A folder is made and listed for removal in one step, with nothing between
 * them that waits: a signal handled while `Deno.makeTempDir`'s promise was
 * still to be resolved ended the process with the folder made and not yet
 * listed, left in TMPDIR.
 *
 * A process that cannot remove its folders (killed, or a Deno kernel that
 * Jupyter shut down, whose `unload` never runs) leaves them: each folder's
 * name holds the pid of the process that made it and its pid namespace, and
 * the next process to make a folder in that namespace removes those of every
 * kind the course makes ({@linkcode COURSE_PREFIXES}) whose process has gone:
 * a kind made rarely (a notebook's cells checked, names not UTF-8) does not
 * wait for the next process of its own kind. (A pid says nothing outside its namespace: a
 * grader in a container or a sandbox sharing TMPDIR, its pid 12 a process
 * that was gone here, had its folder removed while it used it.)
 *
 * @module
 */

import { isRunning } from "../mcp/client/process_group.ts";
import { plainTemp } from "./plain_temp.ts";

/** The folders this process removes when it ends. */
const made = new Set<string>();
/**
 * The prefixes of the folders the course's programs make: the grader's
 * (scratch, shared folder, Deno's cache, a notebook's cells, names not
 * UTF-8) and the course's logs.
 */
const COURSE_PREFIXES: readonly string[] = [
  "grade-",
  "grade-base-",
  "grade-deno-",
  "grade-cells-",
  "grade-names-",
  "course-logs-",
];
/** The prefixes whose leftovers this process has removed. */
const swept = new Set<string>();
/** What must end before the folders go: what may still write to them. */
const first: (() => void)[] = [];
globalThis.addEventListener("unload", () => {
  for (const end of first) end();
  for (const folder of made) {
    try {
      Deno.removeSync(folder, { recursive: true });
    } catch {
      // Already gone.
    }
  }
});

/**
 * A new folder in the machine's temporary folder, its name starting with
 * `prefix`, this process's pid and its pid namespace, removed when the
 * process ends unless {@linkcode removeTempFolder} removed it first. The
 * first call removes the folders of `prefix` and of every one of
 * {@linkcode COURSE_PREFIXES} whose process has gone (a later call, those of
 * a prefix not yet swept).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const folder = tempFolder("example-");
 * assert.ok(Deno.statSync(folder).isDirectory);
 * await removeTempFolder(folder);
 * ```
 */
export function tempFolder(prefix: string): string {
  const dir = plainTemp();
  const unswept = [prefix, ...COURSE_PREFIXES].filter((one) => !swept.has(one));
  if (unswept.length > 0) {
    for (const one of unswept) swept.add(one);
    removeLeftovers(dir, unswept);
  }
  const namespace = pidNamespace();
  const folder = Deno.makeTempDirSync({
    dir,
    // Without a namespace to name, a name no sweep takes.
    prefix: `${prefix}${Deno.pid}-${namespace === undefined ? "" : `${namespace}-`}`,
  });
  made.add(folder);
  return folder;
}

/**
 * Remove `folder`, made by {@linkcode tempFolder}, now (and no longer at
 * the process's end). A folder already gone is not an error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const folder = tempFolder("example-");
 * await removeTempFolder(folder);
 * assert.throws(() => Deno.statSync(folder), Deno.errors.NotFound);
 * ```
 */
export async function removeTempFolder(folder: string): Promise<void> {
  made.delete(folder);
  await Deno.remove(folder, { recursive: true }).catch(() => {});
}

/**
 * This process's pid namespace (the number `/proc/self/ns/pid` names), or
 * undefined where `/proc` cannot say: none, no leave to read it, or one of
 * another namespace (its `self` is not this process's pid). Read once, the
 * first time it is asked for: a process does not change namespace.
 */
function pidNamespace(): string | undefined {
  ownNamespace ??= { read: readNamespace() };
  return ownNamespace.read;
}

/** This process's pid namespace, once read ({@linkcode pidNamespace}). */
let ownNamespace: { read: string | undefined } | undefined;

function readNamespace(): string | undefined {
  try {
    if (Deno.readLinkSync("/proc/self") !== String(Deno.pid)) return undefined;
    return /^pid:\[(\d+)\]$/.exec(Deno.readLinkSync("/proc/self/ns/pid"))?.[1];
  } catch {
    return undefined;
  }
}

/**
 * Remove the folders in `dir` that a process of this pid namespace, now
 * gone, made with one of `prefixes` (their names say which), where this user
 * owns them. A folder stays whose process may still run: a live process of that
 * pid (perhaps another, which took the number), one of another namespace, or
 * no `/proc` to ask. A link is never followed.
 */
function removeLeftovers(dir: string, prefixes: readonly string[]): void {
  const namespace = pidNamespace();
  if (namespace === undefined) return;
  const escaped = prefixes.map((prefix) => prefix.replace(/[^\w-]/g, "\\$&"));
  // A pid as Deno.pid writes it: "0" or "012" is no process's, and /proc would call it gone.
  const named = new RegExp(`^(?:${escaped.join("|")})([1-9]\\d*)-${namespace}-`);
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = named.exec(entry.name)?.[1];
    if (pid === undefined || !entry.isDirectory) continue;
    if (isRunning(pid)) continue;
    const path = `${dir}/${entry.name}`;
    try {
      if (Deno.lstatSync(path).uid === Deno.uid()) Deno.removeSync(path, { recursive: true });
    } catch {
      // Gone already, or not this user's to remove.
    }
  }
}

/**
 * Call `end` when the process ends, before its temporary folders are
 * removed: for what may still write to them (a process it started, writing
 * Deno's cache into one, would make it again).
 *
 * @example
 * ```ts
 * const sessions = new Set<Deno.ChildProcess>();
 * beforeTempFoldersGo(() => sessions.forEach((child) => child.kill("SIGKILL")));
 * ```
 */
export function beforeTempFoldersGo(end: () => void): void {
  first.push(end);
}

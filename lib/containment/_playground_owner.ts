/**
 * Which process a playground belongs to, so that none outlives it: its
 * folder names the process that made it (its pid and start time, so that a
 * pid used again is not taken for it). A playground made in a notebook's
 * kernel is removed when that kernel ends, however it ends (a restart, a
 * shutdown, a crash), by a small watcher of its own; and every new
 * playground first sweeps away those whose process has ended.
 *
 * @module
 */

import { join } from "node:path";
import { runningStat } from "../mcp/client/process_group.ts";

/** The file in a playground's folder that names its process. */
const OWNER = ".owner";
/** The name every playground's folder starts with. */
export const PLAYGROUND_PREFIX = "ch15-playground-";

/** `PID START`: the process's id and its start time (in clock ticks since boot), or undefined. */
function processMark(pid: number): string | undefined {
  const stat = runningStat(pid);
  return stat === undefined ? undefined : `${pid} ${stat.startTicks}`;
}

/** Write into `root` that this process owns it. */
export async function claim(root: string): Promise<void> {
  await Deno.writeTextFile(join(root, OWNER), `${processMark(Deno.pid) ?? Deno.pid}\n`);
}

/**
 * Remove every playground in `folder` whose process has ended (or that names
 * none); returns the folders removed. Folders it cannot read are left alone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const folder = await Deno.makeTempDir();
 * await Deno.mkdir(`${folder}/${PLAYGROUND_PREFIX}old`);
 * await Deno.writeTextFile(`${folder}/${PLAYGROUND_PREFIX}old/.owner`, "2147483647 1\n");
 * await Deno.mkdir(`${folder}/${PLAYGROUND_PREFIX}mine`);
 * await claim(`${folder}/${PLAYGROUND_PREFIX}mine`);
 * assert.deepEqual(await sweep(folder), [`${folder}/${PLAYGROUND_PREFIX}old`]);
 * await Deno.remove(folder, { recursive: true });
 * ```
 */
export async function sweep(folder: string): Promise<string[]> {
  const removed: string[] = [];
  for await (const entry of Deno.readDir(folder)) {
    if (!entry.isDirectory || !entry.name.startsWith(PLAYGROUND_PREFIX)) continue;
    const root = join(folder, entry.name);
    let owner: string;
    try {
      owner = (await Deno.readTextFile(join(root, OWNER))).trim();
    } catch (error) {
      // A playground still being made names its owner a moment later.
      if (!(error instanceof Deno.errors.NotFound)) continue;
      const { mtime } = await Deno.stat(root);
      if (mtime === null || Date.now() - mtime.getTime() < 60_000) continue;
      owner = "";
    }
    const [pid] = owner.split(" ");
    if (owner !== "" && processMark(Number(pid)) === owner) continue;
    await Deno.remove(root, { recursive: true }).then(() => removed.push(root), () => {});
  }
  return removed;
}

/**
 * Where this code runs in a notebook's Deno kernel, start a watcher that
 * removes `root` once this kernel has ended, or once `root` is gone. It runs
 * in a session of its own, so a kernel's restart, which ends the kernel's
 * process group, does not end it.
 */
export async function removeWithKernel(root: string): Promise<void> {
  if (!("jupyter" in Deno)) return;
  const owner = processMark(Deno.pid);
  if (owner === undefined) return;
  const [pid, start] = owner.split(" ");
  // The folder comes on stdin, not in the command line: what looks for processes by the
  // playground's path (Chapter 15's check that nothing it started is left) never finds this one.
  const script = 'IFS= read -r root; set -- "$root" "$1" "$2"; while [ -d "$1" ]; do ' +
    'set -- "$1" "$2" "$3" $(sed "s/^.*) //" "/proc/$2/stat" 2>/dev/null); ' +
    '[ "$4" = "" ] || [ "$4" = Z ] || [ "${23}" != "$3" ] && break; ' +
    'set -- "$1" "$2" "$3"; sleep 1; done; rm -rf -- "$1"';
  const watcher = new Deno.Command("sh", {
    args: ["-c", script, "ch15-playground-watcher", pid, start],
    stdin: "piped",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  const writer = watcher.stdin.getWriter();
  await writer.write(new TextEncoder().encode(`${root}\n`));
  await writer.close();
  watcher.unref();
}

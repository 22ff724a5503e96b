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
 * @module
 */

import { plainTemp } from "./plain_temp.ts";

/** The folders this process removes when it ends. */
const made = new Set<string>();
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
 * `prefix`, removed when the process ends unless {@linkcode removeTempFolder}
 * removed it first.
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
  const folder = Deno.makeTempDirSync({ dir: plainTemp(), prefix });
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

/**
 * The grader's scratch folders, each removed when the process ends if it is
 * still there: at the end of a run, and at Ctrl-C, a stop or a closed
 * terminal, which `tools/grade.ts` turns into an ordinary end.
 *
 * A folder is made and listed for removal in one step, with nothing between
 * them that waits: a signal handled while `Deno.makeTempDir`'s promise was
 * still to be resolved ended the process with the folder made and not yet
 * listed, left in TMPDIR.
 *
 * @module
 */

import { plainTemp } from "../../lib/course/plain_temp.ts";
import { endOwnSessions } from "./own_session.ts";

/** The folders this process removes when it ends. */
const made = new Set<string>();
globalThis.addEventListener("unload", () => {
  // First what may still write to them: a sandbox still loading writes Deno's cache.
  endOwnSessions();
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

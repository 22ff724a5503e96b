// Finding, waiting for and ending the processes a test server started, by the
// mark it put in their environment (`MCP_COURSE_GRANDCHILD=MARK`), whatever
// process group or session they ended up in. Zombies do not count: PID 1 here
// may never reap them.

import { readStat } from "../lib/process_group.ts";

/** A mark no other test uses: `label`, this test run's pid, and a counter. */
export function newMark(label: string): string {
  return `${label}-${Deno.pid}-${++marks}`;
}
let marks = 0;

/** The live processes whose environment holds `MCP_COURSE_GRANDCHILD=mark`. */
export function markedProcesses(mark: string): number[] {
  const wanted = `MCP_COURSE_GRANDCHILD=${mark}`;
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const state = readStat(entry.name)?.state;
    if (state === undefined || state === "Z" || state === "X") continue;
    let environ: string;
    try {
      environ = Deno.readTextFileSync(`/proc/${entry.name}/environ`);
    } catch {
      continue; // gone meanwhile
    }
    if (environ.split("\0").includes(wanted)) found.push(Number(entry.name));
  }
  return found;
}

/**
 * Wait until `ready()` is true, checking every 20 ms; throw naming `what` if
 * it is not within `deadlineMs` (long: this waits for a fact, it times nothing).
 */
export async function until(ready: () => boolean, what: string, deadlineMs = 60_000) {
  const deadline = Date.now() + deadlineMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`Still not true after ${deadlineMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** SIGKILL every live process marked `mark`, and wait until none is left. */
export async function endMarked(mark: string): Promise<void> {
  for (const pid of markedProcesses(mark)) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // It went by itself.
    }
  }
  await until(() => markedProcesses(mark).length === 0, `processes marked ${mark} have ended`);
}

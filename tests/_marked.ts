// Finding, waiting for and ending the processes a test server started, by the
// mark it put in their environment (`MCP_COURSE_GRANDCHILD=MARK`), whatever
// process group or session they ended up in. Zombies do not count: PID 1 here
// may never reap them.

export { endMarked, markedProcesses } from "../lib/containment/process_table.ts";

/** A mark no other test uses: `label`, this test run's pid, and a counter. */
export function newMark(label: string): string {
  return `${label}-${Deno.pid}-${++marks}`;
}
let marks = 0;

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

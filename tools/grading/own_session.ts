/**
 * A process of the grader's own, started in a session of its own (through
 * util-linux's `setsid`, which runs the program in its own place, so that its
 * process id is its session's and its process group's). Two things follow,
 * both the kernel's: the scheduler shares the machine between sessions (its
 * autogroups), so a process with many busy threads takes no more of it from
 * another session than one with a single thread; and the process, with
 * anything it may have started, can be killed as one group. On a machine
 * without `setsid`, a process starts as it would have, and is killed alone.
 *
 * @module
 */

/** The machine's own setsid, where Debian and its kin put it (never one found on PATH). */
const SETSID = ["/usr/bin/setsid", "/bin/setsid"].find((path) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
});

/**
 * `command` (program and arguments) as it starts in a session of its own,
 * or as it is where the machine has no setsid.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const command = inOwnSession(["sleep", "1"]);
 * assert.deepEqual(command.slice(-2), ["sleep", "1"]);
 * assert.ok(command.length === 2 || command[0].endsWith("/setsid"));
 * ```
 */
export function inOwnSession(command: readonly string[]): string[] {
  return SETSID === undefined ? [...command] : [SETSID, ...command];
}

/**
 * Kill `child` at once: its whole process group, when it leads one (as a
 * process started {@linkcode inOwnSession} does), or itself. A process that
 * has gone already is no error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const [program, ...args] = inOwnSession(["sleep", "30"]);
 * const child = new Deno.Command(program, { args }).spawn();
 * killGroup(child);
 * assert.equal((await child.status).signal, "SIGKILL");
 * killGroup(child);
 * ```
 */
export function killGroup(child: Deno.ChildProcess): void {
  try {
    Deno.kill(-child.pid, "SIGKILL");
    return;
  } catch {
    // It leads no group (or no longer exists): kill the process alone.
  }
  try {
    child.kill("SIGKILL");
  } catch {
    // It has already gone.
  }
}

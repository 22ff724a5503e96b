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

import { beforeTempFoldersGo } from "../../lib/course/temp_folders.ts";
import { groupAlive, readStat } from "../../lib/mcp/client/process_group.ts";

/**
 * The machine's own program `name` of util-linux, where Debian and its kin
 * put it (never one found on PATH), or undefined where it has none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(utilLinux("no-such-program"), undefined);
 * ```
 */
export function utilLinux(name: string): string | undefined {
  return [`/usr/bin/${name}`, `/bin/${name}`].find((path) => {
    try {
      return Deno.statSync(path).isFile;
    } catch {
      return false;
    }
  });
}

/** The machine's own setsid. */
const SETSID = utilLinux("setsid");

/** The processes started here that are still running (until their status is in). */
const running = new Set<Deno.ChildProcess>();
/** The processes started here that have exited and been reaped: their numbers are free. */
const reaped = new WeakSet<Deno.ChildProcess>();
// A sandbox still loading writes Deno's cache into a scratch folder: it ends before they go.
beforeTempFoldersGo(endOwnSessions);

/**
 * Start `command` (program and arguments) in a session of its own, or as it
 * is where the machine has no setsid, with `options` as `Deno.Command`
 * takes them. It is ended with the rest by {@linkcode endOwnSessions}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const child = spawnInOwnSession(["true"], { stdout: "null" });
 * assert.equal((await child.status).code, 0);
 * ```
 */
export function spawnInOwnSession(
  command: readonly string[],
  options: Omit<Deno.CommandOptions, "args">,
): Deno.ChildProcess {
  const [program, ...args] = SETSID === undefined ? command : [SETSID, ...command];
  const child = new Deno.Command(program, { ...options, args }).spawn();
  running.add(child);
  // Forgotten once reaped: its number may then be another process's, and so its group's.
  child.status.finally(() => {
    running.delete(child);
    reaped.add(child);
  });
  return child;
}

/**
 * Kill every process {@linkcode spawnInOwnSession} started that is still
 * running, with its group, and wait (up to `ms`) for the kernel to have
 * ended them: for the end of the grader's own process, before it removes
 * the folders they write to (a sandbox still loading wrote Deno's cache
 * into a scratch folder the grader had just removed, and so made it again).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const child = spawnInOwnSession(["sleep", "30"], {});
 * endOwnSessions();
 * assert.equal((await child.status).signal, "SIGKILL");
 * ```
 */
export function endOwnSessions(ms = 2_000): void {
  const groups = [...running].map((child) => {
    killGroup(child);
    return child.pid;
  });
  const deadline = performance.now() + ms;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (groups.some(groupAlive) && performance.now() < deadline) Atomics.wait(pause, 0, 0, 10);
}

/**
 * Kill `child` at once: its whole process group, when it leads one (as a
 * process started {@linkcode spawnInOwnSession} does), or itself. A process that
 * has gone already is no error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const child = spawnInOwnSession(["sleep", "30"], {});
 * killGroup(child);
 * assert.equal((await child.status).signal, "SIGKILL");
 * killGroup(child);
 * ```
 */
export function killGroup(child: Deno.ChildProcess): void {
  // Once it has been reaped, its number may be a new process's, leading a group of its own. Not
  // while a member of its group lives: the kernel gives out no number that is still a group's. So
  // no process of that number means that the group, if anything is left of it, is still its own.
  // (A walk of /proc for the group's members cost 1 to 2 ms a sandbox, on a machine of 100
  // processes.)
  if (reaped.has(child) && readStat(child.pid) !== undefined) return;
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

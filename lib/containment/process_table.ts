/**
 * The process table as a witness: which processes descend from a server,
 * how much memory and CPU one has used, and which processes carry a mark in
 * their environment (`MCP_COURSE_GRANDCHILD=MARK`), wherever they ended up:
 * another process group, another session, another PID namespace. Read from
 * Linux's `/proc` (Deno allows that only with `--allow-all`); zombies count
 * as gone, since PID 1 here may never reap them.
 *
 * @module
 */

import { runningStat } from "../mcp/client/process_group.ts";

/** Linux's clock ticks per second in `/proc/PID/stat` (`USER_HZ`, 100 on every architecture Deno runs on). */
const TICKS_PER_SECOND = 100;

/** The live processes on this machine, by pid, each with its parent's pid. */
function liveProcesses(): Map<number, number> {
  const found = new Map<number, number>();
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = runningStat(entry.name);
    if (stat !== undefined) found.set(Number(entry.name), stat.ppid);
  }
  return found;
}

/**
 * `pid` and every live process descended from it, parents first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const child = new Deno.Command("sleep", { args: ["5"] }).spawn();
 * assert.ok(family(Deno.pid).includes(child.pid));
 * child.kill();
 * await child.status;
 * ```
 */
export function family(pid: number): number[] {
  const processes = liveProcesses();
  const found = [pid];
  for (let i = 0; i < found.length; i++) {
    for (const [child, parent] of processes) if (parent === found[i]) found.push(child);
  }
  return found.filter((member) => member !== pid || processes.has(pid));
}

/**
 * The arguments process `pid` was started with, or `[]` once it has gone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(commandLine(Deno.pid).includes("test"));
 * assert.deepEqual(commandLine(2 ** 22 + 1), []);
 * ```
 */
export function commandLine(pid: number): string[] {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0").slice(0, -1);
  } catch {
    return [];
  }
}

/**
 * The most resident memory process `pid` has held, in bytes (`VmHWM`);
 * `undefined` once it has gone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(peakMemoryBytes(Deno.pid)! > 1 << 20);
 * ```
 */
export function peakMemoryBytes(pid: number): number | undefined {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    const kilobytes = status.match(/^VmHWM:\s+(\d+) kB$/m)?.[1];
    return kilobytes === undefined ? undefined : Number(kilobytes) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * The CPU time process `pid` has used, user and system, in seconds;
 * `undefined` once it has gone (or is a zombie).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(cpuSeconds(Deno.pid)! >= 0);
 * ```
 */
export function cpuSeconds(pid: number): number | undefined {
  const stat = runningStat(pid);
  return stat === undefined ? undefined : stat.cpuTicks / TICKS_PER_SECOND;
}

/**
 * The live processes whose environment holds `MCP_COURSE_GRANDCHILD=mark`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(markedProcesses(crypto.randomUUID()), []);
 * ```
 */
export function markedProcesses(mark: string): number[] {
  const wanted = `MCP_COURSE_GRANDCHILD=${mark}`;
  return [...liveProcesses().keys()].filter((pid) => {
    try {
      return Deno.readTextFileSync(`/proc/${pid}/environ`).split("\0").includes(wanted);
    } catch {
      return false; // gone meanwhile
    }
  });
}

/**
 * The live processes whose command line or environment holds any of `texts`:
 * what a playground's servers may have left running.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(processesMentioning([crypto.randomUUID()]), []);
 * ```
 */
export function processesMentioning(texts: readonly string[]): number[] {
  return [...liveProcesses().keys()].filter((pid) => {
    if (pid === Deno.pid) return false;
    for (const file of ["cmdline", "environ"]) {
      try {
        const text = Deno.readTextFileSync(`/proc/${pid}/${file}`);
        if (texts.some((wanted) => text.includes(wanted))) return true;
      } catch {
        return false; // gone meanwhile
      }
    }
    return false;
  });
}

/**
 * SIGKILL every live process marked `mark`, and wait until none is left (at
 * most `deadlineMs`). Resolves with the pids it ended.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const mark = crypto.randomUUID();
 * const child = new Deno.Command("setsid", { args: ["sleep", "30"], env: { MCP_COURSE_GRANDCHILD: mark } }).spawn();
 * await new Promise((resolve) => setTimeout(resolve, 200));
 * assert.equal((await endMarked(mark)).length, 1);
 * assert.deepEqual(markedProcesses(mark), []);
 * await child.status;
 * ```
 */
export async function endMarked(mark: string, deadlineMs = 10_000): Promise<number[]> {
  const ended = markedProcesses(mark);
  for (const pid of ended) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // It went by itself.
    }
  }
  const deadline = Date.now() + deadlineMs;
  while (markedProcesses(mark).length > 0) {
    if (Date.now() > deadline) throw new Error(`Processes marked ${mark} outlived SIGKILL`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return ended;
}

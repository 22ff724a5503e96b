/**
 * What a process holds and has used, as the kernel counts it (`/proc`), for
 * all of its threads together: its own, its workers', and the runtime's
 * (Deno's blocking pool included). Code inside the process can neither hide
 * from this count nor charge it to anyone else, which is why the grader reads
 * it from outside, for each learner's process. One small read of
 * `/proc/PID/stat` gives it all (`status` costs ten times as much), so the
 * grader can read it every few milliseconds.
 *
 * @module
 */

import { hasEnded, parseStat, type ProcessStat } from "../../lib/mcp/client/process_group.ts";

/** A process's resident memory in bytes, CPU time in milliseconds, and threads, all 0 once it has gone. */
export interface ProcessUsage {
  resident: number;
  cpuMs: number;
  threads: number;
}

/**
 * What process `pid` holds and has used; one that has ended
 * ({@linkcode hasEnded}) has gone. Deno lets a program read `/proc` only with
 * `--allow-all`: without it, this throws `Deno.errors.NotCapable`, rather
 * than let a process run unwatched.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const mine = processUsage(Deno.pid);
 * assert.ok(mine.resident > 0 && mine.threads > 0 && mine.cpuMs >= 0);
 * assert.deepEqual(processUsage(2 ** 22 + 1), { resident: 0, cpuMs: 0, threads: 0 });
 * ```
 */
export function processUsage(pid: number): ProcessUsage {
  const stat = statOf(pid);
  if (stat === undefined || hasEnded(stat)) return { resident: 0, cpuMs: 0, threads: 0 };
  return {
    resident: residentPages(pid, stat) * pageSize(),
    cpuMs: Number.isFinite(stat.cpuTicks) ? stat.cpuTicks * 10 : 0,
    threads: stat.threads,
  };
}

/**
 * The resident pages of running process `pid`, of which `stat` is its line.
 * A process whose first thread has ended, while others run on, has that
 * thread's line show none (it let go of the memory they share): a live
 * thread's line shows them.
 */
function residentPages(pid: number, stat: ProcessStat): number {
  if (stat.residentPages > 0) return stat.residentPages;
  let threads: Deno.DirEntry[];
  try {
    threads = [...Deno.readDirSync(`/proc/${pid}/task`)];
  } catch {
    return 0; // It ended meanwhile.
  }
  for (const { name } of threads) {
    try {
      const pages =
        parseStat(Deno.readTextFileSync(`/proc/${pid}/task/${name}/stat`)).residentPages;
      if (pages > 0) return pages;
    } catch {
      // That thread ended meanwhile.
    }
  }
  return 0;
}

/**
 * Whether `error`, thrown reading a process's file under `/proc`, says that
 * the process has gone: the file is no longer there (`NotFound`), or the
 * process was reaped between the file's opening and its reading ("No such
 * process", `ESRCH`, which Deno throws as a plain `Error`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(saysGone(new Deno.errors.NotFound("gone")), true);
 * assert.equal(saysGone(new Error("No such process (os error 3)")), true);
 * assert.equal(saysGone(new Deno.errors.NotCapable("Requires read access")), false);
 * ```
 */
export function saysGone(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound ||
    (error instanceof Error && error.message.endsWith("(os error 3)"));
}

/** What `/proc/PID/stat` says of `pid`, or undefined when the process has gone. */
function statOf(pid: number | "self"): ProcessStat | undefined {
  let line: string;
  try {
    line = Deno.readTextFileSync(`/proc/${pid}/stat`);
  } catch (error) {
    if (saysGone(error)) return undefined;
    throw new Deno.errors.NotCapable(
      `The grader cannot watch its processes (${
        (error as Error).message
      }): run it with --allow-all`,
    );
  }
  return parseStat(line);
}

let page: number | undefined;
/**
 * The size of a memory page, in which `stat` counts resident memory: this
 * process's resident memory as `status` gives it in kB, over `stat`'s pages,
 * to the nearest power of two (4096 on most machines, 65536 on some).
 */
function pageSize(): number {
  if (page === undefined) {
    const kilobytes = Number(
      Deno.readTextFileSync("/proc/self/status").match(/^VmRSS:\s+(\d+) kB$/m)?.[1],
    );
    const pages = Number(statOf("self")?.residentPages);
    page = 2 ** Math.round(Math.log2((kilobytes * 1024) / pages));
    if (!Number.isFinite(page) || page < 1024) page = 4096;
  }
  return page;
}

/**
 * What a process holds and has used, as the kernel counts it (`/proc`), for
 * all of its threads together: its own, its workers', and the runtime's
 * (Deno's blocking pool included). Code inside the process can neither hide
 * from this count nor charge it to anyone else, which is why the grader reads
 * it from outside, for each learner's process.
 *
 * @module
 */

/** A process's resident memory in bytes, CPU time in milliseconds, and threads, all 0 once it has gone. */
export interface ProcessUsage {
  resident: number;
  cpuMs: number;
  threads: number;
}

/**
 * What process `pid` holds and has used. Deno lets a program read `/proc`
 * only with `--allow-all`: without it, this throws `Deno.errors.NotCapable`,
 * rather than let a process run unwatched.
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
  let status: string;
  let stat: string;
  try {
    status = Deno.readTextFileSync(`/proc/${pid}/status`);
    stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { resident: 0, cpuMs: 0, threads: 0 };
    throw new Deno.errors.NotCapable(
      `The grader cannot watch its processes (${
        (error as Error).message
      }): run it with --allow-all`,
    );
  }
  const kilobytes = status.match(/^VmRSS:\s+(\d+) kB$/m)?.[1];
  const threads = status.match(/^Threads:\s+(\d+)$/m)?.[1];
  // Fields 14 and 15 (utime, stime) after the command's closing parenthesis, in clock ticks.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return {
    resident: kilobytes === undefined ? 0 : Number(kilobytes) * 1024,
    cpuMs: Number.isFinite(ticks) ? ticks * 10 : 0,
    threads: threads === undefined ? 0 : Number(threads),
  };
}

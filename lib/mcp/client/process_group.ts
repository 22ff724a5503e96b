/**
 * A server's process group: who is still alive in it, and signalling all of
 * it at once. Linux's `/proc` tells a live member from a zombie; where there
 * is no `/proc` (or Deno may not read it: that takes `--allow-all`), a signal
 * that finds no process is the only evidence. The course's one reader of
 * `/proc/PID/stat` ({@linkcode parseStat}) and its one rule for when a process
 * has ended ({@linkcode hasEnded}) live here.
 *
 * @module
 */

/**
 * The live members of process group `pgid`, read from `/proc`: processes of
 * that group that have not ended ({@linkcode hasEnded}). Returns `undefined`
 * where `/proc` cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const members = liveMembers(2 ** 22 + 1); // above Linux's largest pid
 * assert.ok(members === undefined || members.length === 0);
 * ```
 */
export function liveMembers(pgid: number): number[] | undefined {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync("/proc")];
  } catch {
    return undefined;
  }
  const members: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry.name)) continue;
    if (runningStat(entry.name)?.pgrp === pgid) members.push(Number(entry.name));
  }
  return members;
}

/**
 * What `/proc/PID/stat` says of a process at one moment: the fields the
 * course reads, from those after the command's name.
 */
export interface ProcessStat {
  /** Its state: `R` running, `S` sleeping, `D` waiting on a disk, `T` stopped, `Z` zombie, `X` dead. */
  state: string;
  /** Its parent's pid. */
  ppid: number;
  /** Its process group. */
  pgrp: number;
  /** The CPU time it has used, user and system, in clock ticks (`USER_HZ`, 100 a second). */
  cpuTicks: number;
  /** The CPU time of its children that have ended and been waited for (and of theirs), in clock ticks. */
  childrenCpuTicks: number;
  /** How many threads it has. */
  threads: number;
  /** When it started, in clock ticks since boot: with its pid, what tells it from a later process of that pid. */
  startTicks: number;
  /** Its resident memory, in pages. */
  residentPages: number;
}

/**
 * The fields of one `/proc/PID/stat` line, `PID (COMMAND) STATE PPID PGRP
 * ...`. The command is the process's to name, spaces and parentheses
 * included, so the fields start after the line's last `)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const line = "42 (a) b (c) S 1 42 42 0 -1 0 0 0 0 0 7 3 2 1 20 0 1 0 900 0 5 0";
 * const stat = parseStat(line);
 * assert.equal(stat.state, "S");
 * assert.equal(stat.ppid, 1);
 * assert.equal(stat.cpuTicks, 10);
 * assert.equal(stat.startTicks, 900);
 * ```
 */
export function parseStat(line: string): ProcessStat {
  const fields = line.slice(line.lastIndexOf(")") + 2).split(" ");
  return {
    state: fields[0],
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    cpuTicks: Number(fields[11]) + Number(fields[12]),
    childrenCpuTicks: Number(fields[13]) + Number(fields[14]),
    threads: Number(fields[17]),
    startTicks: Number(fields[19]),
    residentPages: Number(fields[21]),
  };
}

/**
 * Whether a process has ended: a zombie (`Z`; PID 1 here may never reap
 * it) or dead (`X`), with no thread left but that one. What is left of it
 * runs nothing. A process whose first thread alone has ended (it called
 * `pthread_exit`, or the `exit` system call) shows `Z` while its other
 * threads run on: it has not ended, and its line still counts their CPU time
 * and their number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(hasEnded({ ...readStat("self")!, state: "Z", threads: 1 }), true);
 * assert.equal(hasEnded({ ...readStat("self")!, state: "Z", threads: 3 }), false);
 * assert.equal(hasEnded(readStat("self")!), false);
 * ```
 */
export function hasEnded(stat: ProcessStat): boolean {
  return (stat.state === "Z" || stat.state === "X") && !(stat.threads > 1);
}

/**
 * What `/proc/PID/stat` says of process `pid` (or `"self"`), a zombie's
 * included, or `undefined` when it has gone (or there is no `/proc`, or no
 * leave to read it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(readStat(Deno.pid)?.ppid, Deno.ppid);
 * assert.equal(readStat(2 ** 22 + 1), undefined);
 * ```
 */
export function readStat(pid: string | number): ProcessStat | undefined {
  try {
    return parseStat(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return undefined;
  }
}

/**
 * What `/proc/PID/stat` says of process `pid` while it runs: `undefined`
 * once it has gone or ended ({@linkcode hasEnded}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const child = new Deno.Command("sleep", { args: ["5"] }).spawn();
 * assert.equal(runningStat(child.pid)?.ppid, Deno.pid);
 * child.kill();
 * await child.status;
 * assert.equal(runningStat(child.pid), undefined);
 * ```
 */
export function runningStat(pid: string | number): ProcessStat | undefined {
  const stat = readStat(pid);
  return stat === undefined || hasEnded(stat) ? undefined : stat;
}

/**
 * Whether process `pid` is still running (not gone, not ended).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(isRunning(Deno.pid), true);
 * assert.equal(isRunning(2 ** 22 + 1), false);
 * ```
 */
export function isRunning(pid: string | number): boolean {
  return runningStat(pid) !== undefined;
}

/**
 * Send `signal` to every process of group `pgid`. Returns `false` when the
 * group has no process left to receive it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(signalGroup(2 ** 22 + 1, "SIGTERM"), false);
 * ```
 */
export function signalGroup(pgid: number, signal: Deno.Signal): boolean {
  try {
    Deno.kill(-pgid, signal);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * Whether process group `pgid` still has a live member. Without `/proc`, a
 * harmless `SIGCONT` probes for any member at all (a zombie counts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(groupAlive(2 ** 22 + 1), false);
 * ```
 */
export function groupAlive(pgid: number): boolean {
  const members = liveMembers(pgid);
  return members === undefined ? signalGroup(pgid, "SIGCONT") : members.length > 0;
}

/**
 * Whether what is left of process group `pgid`, after its leader (the
 * process of pid `pgid`) was reaped, still lives and is still that group.
 * While a member lives, the group's number is no one else's; once none does,
 * the kernel may give the number to a new process, which may lead a group of
 * its own (a Jupyter kernel does): a live process of that pid is such a one,
 * and its group is not this one, to be left alone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const child = new Deno.Command("true").spawn();
 * await child.status;
 * assert.equal(leaderlessGroupAlive(child.pid), false);
 * ```
 */
export function leaderlessGroupAlive(pgid: number): boolean {
  return readStat(pgid) === undefined && groupAlive(pgid);
}

/**
 * A server's process group: who is still alive in it, and signalling all of
 * it at once. Linux's `/proc` tells a live member from a zombie; where there
 * is no `/proc` (or Deno may not read it: that takes `--allow-all`), a signal
 * that finds no process is the only evidence.
 *
 * @module
 */

/**
 * The live members of process group `pgid`, read from `/proc`: processes of
 * that group whose state is not zombie (`Z`) or dead (`X`). Returns
 * `undefined` where `/proc` cannot be read.
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
    const stat = readStat(entry.name);
    if (stat !== undefined && stat.pgrp === pgid && !ended(stat.state)) {
      members.push(Number(entry.name));
    }
  }
  return members;
}

/**
 * The state letter and process group of process `pid` from `/proc/PID/stat`,
 * or `undefined` when it has gone (or there is no `/proc`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const stat = readStat(String(Deno.pid));
 * assert.ok(stat === undefined || stat.state !== "Z");
 * ```
 */
export function readStat(pid: string | number): { state: string; pgrp: number } | undefined {
  let text: string;
  try {
    text = Deno.readTextFileSync(`/proc/${pid}/stat`);
  } catch {
    return undefined;
  }
  // "PID (COMMAND) STATE PPID PGRP ...": the command may hold spaces and parentheses.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0], pgrp: Number(fields[2]) };
}

/**
 * Whether process `pid` is still running (not gone, not a zombie).
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
  const state = readStat(pid)?.state;
  return state !== undefined && !ended(state);
}

/** Whether a process in `state` has ended: a zombie (PID 1 here may never reap it), or dead. */
const ended = (state: string) => state === "Z" || state === "X";

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

// A process whose first thread has ended (the `exit` system call, which ends one thread, not
// `exit_group`) while another runs on: `/proc/PID/stat` shows it a zombie, yet it runs, uses CPU
// time and holds memory. Its readers must neither take it for ended nor stop charging it.

import assert from "node:assert/strict";
import { hasEnded, isRunning, liveMembers, readStat } from "../lib/mcp/client/process_group.ts";
import { family } from "../lib/containment/process_table.ts";
import { processUsage } from "../tools/grading/process_usage.ts";
import { stateLetter } from "./_helpers.ts";

/** Linux's number for the `exit` system call on this machine. */
const EXIT = { x86_64: 60, aarch64: 93 }[Deno.build.arch as string];

/** Perl, its first thread ended and its second spinning; killed and reaped when disposed. */
async function firstThreadEnded(): Promise<AsyncDisposable & { pid: number }> {
  assert.ok(EXIT !== undefined, `no exit system call known for ${Deno.build.arch}`);
  const child = new Deno.Command("perl", {
    args: ["-Mthreads", "-e", `threads->create(sub { 1 while 1 }); syscall(${EXIT}, 0);`],
    stdin: "null",
    stdout: "null",
  }).spawn();
  const dispose = async () => {
    child.kill("SIGKILL");
    await child.status;
  };
  try {
    for (let state = stateLetter(child.pid); state !== "Z"; state = stateLetter(child.pid)) {
      assert.notEqual(state, undefined, "perl went before its first thread ended");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } catch (error) {
    await dispose();
    throw error;
  }
  return { pid: child.pid, [Symbol.asyncDispose]: dispose };
}

Deno.test("a process whose first thread has ended while another runs is running, not ended", async () => {
  let pid: number;
  {
    await using perl = await firstThreadEnded();
    pid = perl.pid;
    const stat = readStat(pid)!;
    assert.equal(stat.state, "Z");
    assert.equal(stat.threads, 2, "perl's second thread runs");
    assert.equal(hasEnded(stat), false);
    assert.equal(isRunning(pid), true);
    assert.ok(liveMembers(readStat("self")!.pgrp)?.includes(pid), "a live member of its group");
    assert.ok(family(Deno.pid).includes(pid), "a live child of this process");
  }
  assert.equal(isRunning(pid), false);
});

Deno.test("processUsage charges a process whose first thread has ended its CPU time, threads and memory", async () => {
  let pid: number;
  {
    await using perl = await firstThreadEnded();
    pid = perl.pid;
    while (readStat(pid)!.cpuTicks === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const usage = processUsage(pid);
    assert.ok(usage.cpuMs > 0, `its CPU time is charged (${usage.cpuMs} ms)`);
    assert.equal(usage.threads, 2);
    // The grader's watchers take no memory for a process gone: they would stop charging it.
    assert.ok(usage.resident > 0, "its memory is counted");
  }
  assert.deepEqual(processUsage(pid), { resident: 0, cpuMs: 0, threads: 0 });
});

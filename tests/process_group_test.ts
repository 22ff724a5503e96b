import assert from "node:assert/strict";
import { hasEnded, isRunning, readStat, runningStat } from "../lib/mcp/client/process_group.ts";
import { firstLine, stateLetter } from "./_helpers.ts";

/**
 * A folder holding `sleep` under each of `names` (a symlink: the kernel names a
 * process after the path it was started from), removed when disposed.
 */
function sleepsNamed(names: string[]): { folder: string; [Symbol.dispose](): void } {
  const folder = Deno.makeTempDirSync({ prefix: "process-group-test-" });
  for (const name of names) Deno.symlinkSync("/usr/bin/sleep", `${folder}/${name}`);
  return { folder, [Symbol.dispose]: () => Deno.removeSync(folder, { recursive: true }) };
}

/** The command's name as `/proc/PID/stat` shows it, between its first "(" and its last ")". */
function commandName(pid: number): string | undefined {
  try {
    const line = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return line.slice(line.indexOf("(") + 1, line.lastIndexOf(")"));
  } catch {
    return undefined;
  }
}

// The second name holds what a first-")" reader would take for a zombie of parent 1.
for (const name of ["a) b (c", "x) Z 1 1 (y"]) {
  Deno.test(`readStat reads a process named ${JSON.stringify(name)} while it runs and once it has gone`, async () => {
    using sleeps = sleepsNamed([name]);
    const child = new Deno.Command(`${sleeps.folder}/${name}`, { args: ["30"] }).spawn();
    try {
      assert.equal(commandName(child.pid), name);
      const stat = readStat(child.pid);
      assert.equal(stat?.ppid, Deno.pid);
      assert.equal(stat?.pgrp, readStat("self")?.pgrp);
      assert.equal(hasEnded(stat!), false);
      // The same process, read again: its state, memory and CPU time may have moved meanwhile
      // (a child just started may be read running with no page yet, then sleeping).
      const same = (read: ReturnType<typeof readStat>) =>
        read && [read.ppid, read.pgrp, read.startTicks];
      assert.deepEqual(same(runningStat(child.pid)), same(stat));
      assert.equal(isRunning(child.pid), true);
    } finally {
      child.kill("SIGKILL");
      await child.status;
    }
    assert.equal(readStat(child.pid), undefined);
    assert.equal(runningStat(child.pid), undefined);
    assert.equal(isRunning(child.pid), false);
  });
}

Deno.test("a zombie named with parentheses reads as ended, not running", async () => {
  const name = "a) b (c";
  using sleeps = sleepsNamed([name]);
  // Perl forks the zombie-to-be and reaps it only once its stdin closes.
  const parent = new Deno.Command("perl", {
    args: [
      "-e",
      '$| = 1; my $pid = fork(); if ($pid == 0) { exec { $ARGV[0] } $ARGV[0], "0"; exit 127 } ' +
      'print "$pid\\n"; <STDIN>; waitpid($pid, 0);',
      `${sleeps.folder}/${name}`,
    ],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  let zombie = 0;
  try {
    const printed = await firstLine(parent);
    zombie = Number(printed.trim());
    assert.ok(zombie > 0, `perl printed no pid (${JSON.stringify(printed)})`);
    // It ends a moment after it starts; its parent does not reap it yet. Waited for by
    // `/proc/PID/status`, which names no command before its state, not by the reader under test.
    for (let state = stateLetter(zombie); state !== "Z"; state = stateLetter(zombie)) {
      assert.notEqual(state, undefined, "the child went before it was seen a zombie");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(commandName(zombie), name);
    const stat = readStat(zombie)!;
    assert.equal(stat.ppid, parent.pid);
    assert.equal(hasEnded(stat), true);
    assert.equal(runningStat(zombie), undefined);
    assert.equal(isRunning(zombie), false);
  } finally {
    await parent.stdin.close();
    const { success } = await parent.status;
    assert.ok(success, "perl reaped its child and ended");
  }
  assert.equal(readStat(zombie), undefined);
});

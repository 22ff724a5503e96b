// Closing a server ends what is left of its process group, found by the group's number, after the
// server has exited. Once nothing of the group is left, the kernel may give that number to a new
// process, and a new session's leader (a Jupyter kernel, which jupyter_client starts so) has it as
// its group's: closing signalled that group, someone else's.

import assert from "node:assert/strict";
import { ServerProcess } from "../lib/mcp/client/server_process.ts";
import { isRunning, readStat } from "../lib/mcp/client/process_group.ts";
import { killGroup, spawnInOwnSession } from "../tools/grading/own_session.ts";

/** Start a new session's leader with pid `pid` (Linux hands out ns_last_pid + 1 next), or fail. */
async function leaderWithPid(pid: number): Promise<Deno.ChildProcess | undefined> {
  Deno.writeTextFileSync("/proc/sys/kernel/ns_last_pid", String(pid - 1));
  const child = new Deno.Command("setsid", { args: ["sleep", "60"], stdout: "null" }).spawn();
  if (child.pid === pid) {
    // setsid makes the new session once it runs, a moment after it started.
    while (readStat(pid)?.pgrp !== pid) await new Promise((resolve) => setTimeout(resolve, 5));
    return child;
  }
  child.kill("SIGKILL");
  await child.status;
  return undefined;
}

const writable = await Deno.open("/proc/sys/kernel/ns_last_pid", { write: true })
  .then((file) => (file.close(), true), () => false);

Deno.test({
  name: "closing a server whose number a new group has taken signals nothing of that group",
  ignore: !writable,
  async fn() {
    // Other tests start processes beside this one: a number they take first is tried again.
    for (let attempt = 0; attempt < 50; attempt++) {
      const server = new ServerProcess(["true"], { graceMs: 200 });
      await server.exited;
      const stranger = await leaderWithPid(server.pid);
      if (stranger === undefined) {
        await server.close();
        continue;
      }
      try {
        await server.close();
        const steps = server.closeSteps().map(({ what }) => what);
        assert.deepEqual(steps.filter((what) => what.startsWith("SIG")), []);
        assert.ok(isRunning(stranger.pid), "the stranger was killed");
        return;
      } finally {
        stranger.kill("SIGKILL");
        await stranger.status;
      }
    }
    assert.fail("no attempt gave a new process the server's number");
  },
});

Deno.test({
  name: "the grader's killGroup of a sandbox whose number a new group has taken kills nothing",
  ignore: !writable,
  async fn() {
    for (let attempt = 0; attempt < 50; attempt++) {
      const sandbox = spawnInOwnSession(["true"], {});
      await sandbox.status;
      const stranger = await leaderWithPid(sandbox.pid);
      if (stranger === undefined) continue;
      try {
        killGroup(sandbox);
        await new Promise((resolve) => setTimeout(resolve, 100));
        assert.ok(isRunning(stranger.pid), "the stranger was killed");
        return;
      } finally {
        stranger.kill("SIGKILL");
        await stranger.status;
      }
    }
    assert.fail("no attempt gave a new process the sandbox's number");
  },
});

Deno.test("the grader's killGroup of a reaped sandbox still kills what its group left running", async () => {
  // The number of a group a live process is in is given to no one else: killGroup need not look.
  const sandbox = spawnInOwnSession(["sh", "-c", "sleep 60 >/dev/null & echo $!"], {
    stdout: "piped",
  });
  const left = Number(new TextDecoder().decode((await sandbox.output()).stdout));
  assert.ok(isRunning(left), "the sleep did not outlive its shell");
  assert.equal(readStat(left)?.pgrp, sandbox.pid);
  killGroup(sandbox);
  for (let wait = 0; wait < 100 && isRunning(left); wait++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.ok(!isRunning(left), "what the sandbox left running outlived killGroup");
});

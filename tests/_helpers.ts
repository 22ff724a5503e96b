// Shared by the integration tests: starting the misbehaving fixtures, and
// proving that no process of a server's group is left alive.

import assert from "node:assert/strict";
import { grammarCommand } from "../lib/course/course.ts";
import { liveMembers, readStat } from "../lib/mcp/client/process_group.ts";
import { fileURLToPath } from "node:url";

/** The command that starts the misbehaving fixture server in `scenario`. */
export function fixtureCommand(scenario: string): string[] {
  const script = fileURLToPath(new URL("./fixtures/misbehaving.ts", import.meta.url));
  return [Deno.execPath(), "run", "--no-config", "--quiet", script, scenario];
}

/** Assert that process group `pgid` has no live member left. */
export function assertGroupGone(pgid: number): void {
  assert.deepEqual(liveMembers(pgid), [], `process group ${pgid} still has live members`);
}

/** Assert that process `pid` is gone or a zombie (PID 1 here may never reap it). */
export function assertProcessGone(pid: number): void {
  const state = readStat(pid)?.state;
  assert.ok(state === undefined || state === "Z", `process ${pid} is still running (${state})`);
}

/** The live processes running this checkout's grammar server (zombies do not count). */
export function grammarServersRunning(): number[] {
  const script = grammarCommand().at(-1)!;
  const running: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    const state = /^\d+$/.test(entry.name) ? readStat(entry.name)?.state : undefined;
    if (state === undefined || state === "Z" || state === "X") continue;
    try {
      const argv = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0");
      if (argv.includes(script)) running.push(Number(entry.name));
    } catch {
      // It ended while we looked.
    }
  }
  return running;
}

// Shared by the integration tests: starting the misbehaving fixtures, and
// proving that no process of a server's group is left alive.

import assert from "node:assert/strict";
import { isRunning, liveMembers, runningStat } from "../lib/mcp/client/process_group.ts";
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

/** Assert that process `pid` is gone or has ended (a zombie: PID 1 here may never reap it). */
export function assertProcessGone(pid: number): void {
  const state = runningStat(pid)?.state;
  assert.ok(state === undefined, `process ${pid} is still running (${state})`);
}

/** The running processes (zombies count as gone) whose command line holds `text`, each with that line. */
export function commandsHolding(text: string): { pid: number; cmdline: string }[] {
  return [...Deno.readDirSync("/proc")].flatMap(({ name }) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      const cmdline = Deno.readTextFileSync(`/proc/${name}/cmdline`);
      return cmdline.includes(text) && isRunning(name) ? [{ pid: Number(name), cmdline }] : [];
    } catch {
      return []; // It ended while we looked.
    }
  });
}

/** The first line `child` prints (the rest of its output is not read). */
export async function firstLine(child: Deno.ChildProcess): Promise<string> {
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  await reader.cancel();
  return text.split("\n")[0];
}

/**
 * The state letter of `/proc/PID/status`, which names no command before it
 * (`undefined` once the process has gone): a witness independent of the
 * stat line's reader under test.
 */
export function stateLetter(pid: number): string | undefined {
  try {
    return /^State:\s+(\S)/m.exec(Deno.readTextFileSync(`/proc/${pid}/status`))?.[1];
  } catch {
    return undefined;
  }
}

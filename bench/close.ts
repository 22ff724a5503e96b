// Row 4: how long `close()` takes, and what it leaves running, for a healthy
// server, one that ignores the end of its input, and one that ignores SIGTERM
// too; each has started a helper process of its own. The library's Client
// against the official SDK's StdioClientTransport, on the same servers.

import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client } from "../lib/mcp/client/client.ts";
import { isRunning } from "../lib/mcp/client/process_group.ts";
import { denoScript, median } from "./_measure.ts";

/** The servers, by how they behave. */
export const BEHAVIOURS = ["healthy", "ignore-stdin-end", "ignore-sigterm"] as const;

/** One of {@linkcode BEHAVIOURS}. */
export type Behaviour = typeof BEHAVIOURS[number];

/** The two clients compared. */
export const CLOSERS = ["client", "sdk"] as const;

/** One of {@linkcode CLOSERS}. */
export type Closer = typeof CLOSERS[number];

/** One client closing one kind of server. */
export interface CloseCase {
  behaviour: Behaviour;
  closer: Closer;
  /** Milliseconds for `close()` to return, median of the rounds. */
  medianMs: number;
  /** The most processes (server or helper) still running shortly after `close()` returned, over the rounds. */
  left: number;
  /** Each round's milliseconds and processes left. */
  rounds: { ms: number; left: number }[];
}

/** Options for {@linkcode measureClose}. */
export interface CloseOptions {
  /** Rounds of every case. @default {3} */
  rounds?: number;
  /** The library Client's grace before each harder step. @default {1000} */
  graceMs?: number;
  /** Which cases to run. @default {every behaviour with both clients} */
  cases?: readonly (readonly [Behaviour, Closer])[];
}

/** How long after `close()` returns the processes are counted. */
export const SETTLE_MS = 250;

/** Run every case `rounds` times; always end whatever a client left behind. */
export async function measureClose(options: CloseOptions = {}): Promise<CloseCase[]> {
  const { rounds = 3, graceMs = 1000 } = options;
  const cases = options.cases ??
    BEHAVIOURS.flatMap((behaviour) => CLOSERS.map((closer) => [behaviour, closer] as const));
  const results: CloseCase[] = [];
  for (const [behaviour, closer] of cases) {
    const each: { ms: number; left: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      const mark = `${behaviour}-${closer}-${round}-${crypto.randomUUID()}`;
      try {
        const ms = await (closer === "client"
          ? closeClient(behaviour, mark, graceMs)
          : closeSdk(behaviour, mark));
        await new Promise((resolve) =>
          setTimeout(resolve, SETTLE_MS)
        );
        each.push({ ms, left: marked(mark).length });
      } finally {
        await endMarked(mark);
      }
    }
    results.push({
      behaviour,
      closer,
      medianMs: median(each.map((round) => round.ms)),
      left: Math.max(...each.map((round) => round.left)),
      rounds: each,
    });
  }
  return results;
}

function serverCommand(behaviour: Behaviour): string[] {
  return denoScript("bench/servers/close.ts", ["--no-config", "--allow-run=sleep"]).concat(
    behaviour,
  );
}

/** The library's Client: start, call once, then time `close()`. */
async function closeClient(behaviour: Behaviour, mark: string, graceMs: number): Promise<number> {
  const client = new Client(serverCommand(behaviour), {
    allowed: ["echo"],
    env: { MCP_BENCH_RUN: mark },
    graceMs,
  });
  try {
    await client.initialize();
    await client.listTools();
    await client.callTool("echo", { text: "ready" });
  } catch (error) {
    await client.close();
    throw error;
  }
  const start = performance.now();
  await client.close();
  return performance.now() - start;
}

/** The SDK's Client over its StdioClientTransport: start, call once, then time `close()`. */
async function closeSdk(behaviour: Behaviour, mark: string): Promise<number> {
  const [command, ...args] = serverCommand(behaviour);
  const client = new SdkClient({ name: "bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command, args, env: { MCP_BENCH_RUN: mark }, stderr: "ignore" }),
  );
  await client.callTool({ name: "echo", arguments: { text: "ready" } });
  const start = performance.now();
  await client.close();
  return performance.now() - start;
}

/** The live processes (not zombies) whose environment carries `mark`. */
function marked(mark: string): number[] {
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    if (!isRunning(entry.name)) continue;
    try {
      const environ = Deno.readTextFileSync(`/proc/${entry.name}/environ`);
      if (environ.includes(`MCP_BENCH_RUN=${mark}\0`)) found.push(Number(entry.name));
    } catch {
      // It has gone, or it is not ours to read.
    }
  }
  return found;
}

/** SIGKILL every live process carrying `mark`, and wait until none is left. */
async function endMarked(mark: string): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    const live = marked(mark);
    if (live.length === 0) return;
    for (const pid of live) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`Processes marked ${mark} would not end`);
}

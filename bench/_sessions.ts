// Round trips, the way the benchmarks make them: a session is a server started
// and ready, and `measureSessions` times sequential calls through several
// kinds of session in the same rounds, in a rotated order, so that the
// machine's noise falls on all of them alike.

import { Client } from "../lib/mcp/client/client.ts";
import { cpuMs, denoScript, median } from "./_measure.ts";

/** A server started and ready: `call(i)` makes one round trip, `close()` ends it. */
export interface Session {
  call(i: number): Promise<void>;
  close(): Promise<void>;
}

/** Options for {@linkcode measureSessions}. */
export interface SessionOptions {
  /** Timed calls per session per round. @default {5000} */
  calls?: number;
  /** Untimed calls first, on the same server. @default {500} */
  warmup?: number;
  /** Rounds; each starts every kind of session once. @default {5} */
  rounds?: number;
}

/** What each kind of session did in each round. */
export interface SessionTimes<K extends string> {
  /** Calls per second. */
  rates: Record<K, number[]>;
  /** The client's own CPU time per call (this process), in microseconds. */
  cpuUs: Record<K, number[]>;
}

/** Time `calls` sequential calls through a fresh session of each kind, `rounds` times. */
export async function measureSessions<K extends string>(
  starters: Record<K, () => Promise<Session>>,
  options: SessionOptions = {},
): Promise<SessionTimes<K>> {
  const { calls = 5000, warmup = 500, rounds = 5 } = options;
  const keys = Object.keys(starters) as K[];
  const byKey = () =>
    Object.fromEntries(keys.map((key) => [key, [] as number[]])) as Record<K, number[]>;
  const times = { rates: byKey(), cpuUs: byKey() };
  for (let round = 0; round < rounds; round++) {
    // Rotate the order, so that no kind always runs first, or always after the same one.
    for (const key of keys.map((_, i) => keys[(i + round) % keys.length])) {
      const session = await starters[key]();
      try {
        for (let i = 0; i < warmup; i++) await session.call(i);
        const [start, cpu] = [performance.now(), cpuMs()];
        for (let i = 0; i < calls; i++) await session.call(i);
        times.rates[key].push(calls / ((performance.now() - start) / 1000));
        times.cpuUs[key].push((cpuMs() - cpu) * 1000 / calls);
      } finally {
        await session.close();
      }
    }
  }
  return times;
}

/** The median of each kind's rounds. */
export function medians<K extends string>(values: Record<K, number[]>): Record<K, number> {
  const entries = Object.entries(values) as [K, number[]][];
  return Object.fromEntries(entries.map(([key, each]) => [key, median(each)])) as Record<K, number>;
}

/** The text every call sends. */
export const TEXT = "vanilla stock needs review";

/** The minimal echo server. */
export const ECHO = denoScript("bench/servers/echo.ts");

const encoder = new TextEncoder();

/** The JSON-RPC line of call `id` to the echo server. */
export function echoRequest(id: number): Uint8Array {
  const request = {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "echo", arguments: { text: TEXT } },
  };
  return encoder.encode(JSON.stringify(request) + "\n");
}

/** The echo server, started with its stdio piped (stderr dropped), for a hand-made client. */
export function startEcho(): Deno.ChildProcess {
  const [program, ...args] = ECHO;
  return new Deno.Command(program, {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
}

/**
 * The limit: write a line, read until a newline comes back; no parsing, no
 * checks, nothing kept. With `reuse`, every read goes into one buffer;
 * without, a default reader reads, and Deno allocates 64 KiB for each read.
 */
export function bareLoop({ reuse }: { reuse: boolean }): Session {
  const child = startEcho();
  const writer = child.stdin.getWriter();
  const { read, cancel } = reuse ? readingInto(child.stdout) : readingPlainly(child.stdout);
  return {
    async call(id) {
      // Not awaited, as the Client does not: the pipe keeps the order, and the
      // read below can start waiting at once. A failed write ends the stream.
      writer.write(echoRequest(id)).catch(() => {});
      while (true) {
        const chunk = await read();
        if (chunk === undefined) throw new Error("The echo server closed its stdout");
        if (chunk.indexOf(0x0a) !== -1) return;
      }
    },
    async close() {
      await writer.close().catch(() => {});
      await cancel();
      await child.status;
    },
  };
}

/** Reads `stream` into one reused buffer; a chunk is valid until the next read. */
function readingInto(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader({ mode: "byob" });
  let buffer = new ArrayBuffer(65536);
  return {
    async read(): Promise<Uint8Array | undefined> {
      const { value, done } = await reader.read(new Uint8Array(buffer));
      if (done) return undefined;
      buffer = value.buffer as ArrayBuffer;
      return value;
    },
    cancel: () => reader.cancel(),
  };
}

/** Reads `stream` with a default reader. */
function readingPlainly(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  return {
    read: async (): Promise<Uint8Array | undefined> => (await reader.read()).value,
    cancel: () => reader.cancel(),
  };
}

/** The library's Client, handshake and tool list done, calling `tool` and expecting `answer`. */
export async function clientSession(
  command: string[],
  tool: string,
  answer: string,
): Promise<Session> {
  const client = new Client(command, { allowed: [tool] });
  try {
    await client.initialize();
    await client.listTools();
  } catch (error) {
    await client.close();
    throw error;
  }
  return {
    async call() {
      const text = await client.callTool(tool, { text: TEXT });
      if (text !== answer) throw new Error(`Wrong answer: ${text}`);
    },
    async close() {
      await client.close();
    },
  };
}

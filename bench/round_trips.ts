// Row 1: sequential `tools/call` round trips per second, four ways, measured
// in the same rounds so that the ratios share the machine's noise:
//
//   (a) the limit: a bare loop writing one JSON line to the echo server and
//       reading one line back into one reused buffer, with no checks at all;
//  (a′) the same loop with a default reader, for which Deno allocates 64 KiB
//       per read: what the straightforward loop costs;
//   (b) the library's Client against the same echo server;
//   (c) the library's Client against the teaching server (normal mode);
//   (d) the official SDK's Client against a server built with the SDK.

import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client } from "../lib/client.ts";
import { freshLog, serverCommand } from "../lib/course.ts";
import { cpuMs, denoScript, median } from "./_measure.ts";

/** The ways of making round trips, by key. */
export const VARIANTS = {
  bare: "(a) bare loop, echo server",
  plain: "(a′) bare loop, default reader",
  echo: "(b) Client, echo server",
  teaching: "(c) Client, teaching server",
  sdk: "(d) SDK Client, SDK server",
} as const;

/** One of {@linkcode VARIANTS}. */
export type Variant = keyof typeof VARIANTS;

/** What row 1 measured. */
export interface RoundTripResult {
  calls: number;
  warmup: number;
  rounds: number;
  /** Calls per second in each round, by variant. */
  perRound: Record<Variant, number[]>;
  /** The client's own CPU time per call, in microseconds, median of the rounds, by variant. */
  clientCpuUs: Record<Variant, number>;
  /** The median of each variant's rounds. */
  median: Record<Variant, number>;
  /** (b) / (a) in each round, and its median. Target: at least 0.85. */
  echoVsBare: { perRound: number[]; median: number };
  /** (b) / (a′) in each round, and its median. No target: for comparison. */
  echoVsPlain: { perRound: number[]; median: number };
  /** (c) / (d) in each round, and its median. Target: at least 1.5. */
  teachingVsSdk: { perRound: number[]; median: number };
}

/** Options for {@linkcode measureRoundTrips}. */
export interface RoundTripOptions {
  /** Timed calls per variant per round. @default {5000} */
  calls?: number;
  /** Untimed calls first, on the same server. @default {500} */
  warmup?: number;
  /** Rounds; each runs every variant once, in a rotated order. @default {5} */
  rounds?: number;
}

/** A server started and ready: `call(i)` makes one round trip, `close()` ends it. */
interface Session {
  call(i: number): Promise<void>;
  close(): Promise<void>;
}

const TEXT = "vanilla stock needs review";
const encoder = new TextEncoder();

/** Run every variant `rounds` times and return calls per second and the ratios. */
export async function measureRoundTrips(options: RoundTripOptions = {}): Promise<RoundTripResult> {
  const { calls = 5000, warmup = 500, rounds = 5 } = options;
  const keys = Object.keys(VARIANTS) as Variant[];
  const byVariant = () =>
    Object.fromEntries(keys.map((key) => [key, [] as number[]])) as Record<Variant, number[]>;
  const perRound = byVariant();
  const cpuPerRound = byVariant();
  for (let round = 0; round < rounds; round++) {
    // Rotate the order, so that no variant always runs first (or right after the SDK).
    const order = keys.map((_, i) => keys[(i + round) % keys.length]);
    for (const key of order) {
      const session = await START[key]();
      try {
        for (let i = 0; i < warmup; i++) await session.call(i);
        const [start, cpu] = [performance.now(), cpuMs()];
        for (let i = 0; i < calls; i++) await session.call(i);
        perRound[key].push(calls / ((performance.now() - start) / 1000));
        cpuPerRound[key].push((cpuMs() - cpu) * 1000 / calls);
      } finally {
        await session.close();
      }
    }
  }
  const medians = (values: Record<Variant, number[]>) =>
    Object.fromEntries(keys.map((key) => [key, median(values[key])])) as Record<Variant, number>;
  const ratio = (top: Variant, bottom: Variant) => {
    const each = perRound[top].map((rate, i) => rate / perRound[bottom][i]);
    return { perRound: each, median: median(each) };
  };
  return {
    calls,
    warmup,
    rounds,
    perRound,
    clientCpuUs: medians(cpuPerRound),
    median: medians(perRound),
    echoVsBare: ratio("echo", "bare"),
    echoVsPlain: ratio("echo", "plain"),
    teachingVsSdk: ratio("teaching", "sdk"),
  };
}

const ECHO = denoScript("bench/servers/echo.ts");

const START: Record<Variant, () => Promise<Session>> = {
  bare: () => Promise.resolve(bareLoop({ reuse: true })),
  plain: () => Promise.resolve(bareLoop({ reuse: false })),
  echo: () => careful(ECHO, "echo", "text"),
  teaching: async () =>
    careful(serverCommand("normal", await freshLog("bench-round-trips")), "word_count", "4"),
  sdk: sdkSession,
};

/**
 * The limit: write a line, read until a newline comes back; no parsing, no
 * checks, nothing kept. With `reuse`, every read goes into one buffer;
 * without, a default reader reads, and Deno allocates 64 KiB for each read.
 */
function bareLoop({ reuse }: { reuse: boolean }): Session {
  const [program, ...args] = ECHO;
  const child = new Deno.Command(program, {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const { read, cancel } = reuse ? readingInto(child.stdout) : readingPlainly(child.stdout);
  return {
    async call(id) {
      const request = {
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "echo", arguments: { text: TEXT } },
      };
      // Not awaited, as the Client does not: the pipe keeps the order, and the
      // read below can start waiting at once. A failed write ends the stream.
      writer.write(encoder.encode(JSON.stringify(request) + "\n")).catch(() => {});
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
async function careful(command: string[], tool: string, answer: string): Promise<Session> {
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
      if (text !== (answer === "text" ? TEXT : answer)) throw new Error(`Wrong answer: ${text}`);
    },
    async close() {
      await client.close();
    },
  };
}

/** The SDK's Client and StdioClientTransport, against the SDK-built `word_count` server. */
async function sdkSession(): Promise<Session> {
  const [command, ...args] = denoScript("bench/servers/sdk_word_count.ts", []);
  const transport = new StdioClientTransport({ command, args, stderr: "ignore" });
  const client = new SdkClient({ name: "bench", version: "1.0.0" });
  await client.connect(transport);
  await client.listTools();
  return {
    async call() {
      const result = await client.callTool({ name: "word_count", arguments: { text: TEXT } });
      const [first] = result.content as { type: string; text?: string }[];
      if (first?.text !== "4") throw new Error(`Wrong answer: ${JSON.stringify(result)}`);
    },
    async close() {
      await client.close();
    },
  };
}

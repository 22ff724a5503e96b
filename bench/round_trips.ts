// Row 1: sequential `tools/call` round trips per second, measured in the same
// rounds so that the ratios share the machine's noise:
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
import { freshLog, serverCommand } from "../lib/course/course.ts";
import { denoScript, median } from "./_measure.ts";
import {
  bareLoop,
  clientSession,
  ECHO,
  measureSessions,
  medians,
  type Session,
  type SessionOptions,
  TEXT,
} from "./_sessions.ts";

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

/** A ratio of two variants' rates: in each round, and its median. */
export interface Ratio {
  perRound: number[];
  median: number;
}

/** What row 1 measured. */
export interface RoundTripResult {
  calls: number;
  warmup: number;
  rounds: number;
  /** Calls per second in each round, by variant. */
  perRound: Record<Variant, number[]>;
  /** The median of each variant's rounds. */
  median: Record<Variant, number>;
  /** The client's own CPU time per call, in microseconds, median of the rounds, by variant. */
  clientCpuUs: Record<Variant, number>;
  /** (b) / (a). Target: at least 0.85. */
  echoVsBare: Ratio;
  /** (b) / (a′). No target: for comparison. */
  echoVsPlain: Ratio;
  /** (c) / (d). Target: at least 1.5. */
  teachingVsSdk: Ratio;
}

const START: Record<Variant, () => Promise<Session>> = {
  bare: () => Promise.resolve(bareLoop({ reuse: true })),
  plain: () => Promise.resolve(bareLoop({ reuse: false })),
  echo: () => clientSession(ECHO, "echo", TEXT),
  teaching: async () =>
    clientSession(serverCommand("normal", await freshLog("bench-round-trips")), "word_count", "4"),
  sdk: sdkSession,
};

/** Run every variant `rounds` times and return calls per second and the ratios. */
export async function measureRoundTrips(options: SessionOptions = {}): Promise<RoundTripResult> {
  const { calls = 5000, warmup = 500, rounds = 5 } = options;
  const { rates, cpuUs } = await measureSessions(START, { calls, warmup, rounds });
  const ratio = (top: Variant, bottom: Variant): Ratio => {
    const each = rates[top].map((rate, i) => rate / rates[bottom][i]);
    return { perRound: each, median: median(each) };
  };
  return {
    calls,
    warmup,
    rounds,
    perRound: rates,
    median: medians(rates),
    clientCpuUs: medians(cpuUs),
    echoVsBare: ratio("echo", "bare"),
    echoVsPlain: ratio("echo", "plain"),
    teachingVsSdk: ratio("teaching", "sdk"),
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

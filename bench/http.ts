// Rows 7 to 9: many requests in flight, and Streamable HTTP.
//
//   7. the library's client with 64 requests in flight against a tool that
//      takes 10 ms (Lab 04's inflight server), against the same client one
//      request at a time: the time for 64 calls, as a ratio in each round;
//   8. the library's client over Streamable HTTP, against the SDK's Client on
//      its StreamableHTTPClientTransport, on the same course HTTP server:
//      sequential calls a second, as a ratio in each round;
//   9. the course's HTTP server's heap with 1,000 sessions opened, and after
//      they are closed (DELETE), against its heap before: it must come back.

import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { freshLog, inflightCommand } from "../lib/course/course.ts";
import { Client } from "../lib/mcp/client/client.ts";
import { median, projectPath, timed } from "./_measure.ts";

/** What row 7 measured. */
export interface InflightResult {
  calls: number;
  rounds: number;
  /** Milliseconds for the calls, one at a time and all in flight, in each round. */
  sequentialMs: number[];
  multiplexedMs: number[];
  /** Sequential time over multiplexed time: per round, and its median. Target: at least 30. */
  speedup: number[];
  medianSpeedup: number;
}

/** Row 7: `calls` calls of a 10 ms tool, one at a time, then all in flight at once. */
export async function measureInflight(
  { calls, rounds }: { calls: number; rounds: number },
): Promise<InflightResult> {
  const log = await freshLog("bench-inflight");
  const connect = async (maxInFlight: number) => {
    const client = new Client(inflightCommand("normal", log), {
      allowed: ["slow_count"],
      maxInFlight,
    });
    await client.initialize();
    await client.listTools();
    return client;
  };
  const sequential = await connect(1);
  const multiplexed = await connect(calls);
  const call = (client: Client) => client.callTool("slow_count", { text: "a b c", ms: 10 });
  const sequentialMs: number[] = [];
  const multiplexedMs: number[] = [];
  try {
    await Promise.all([call(sequential), call(multiplexed)]); // warm up
    for (let round = 0; round < rounds; round++) {
      sequentialMs.push(
        await timed(async () => {
          for (let i = 0; i < calls; i++) await call(sequential);
        }),
      );
      multiplexedMs.push(
        await timed(() => Promise.all(Array.from({ length: calls }, () => call(multiplexed)))),
      );
    }
  } finally {
    await Promise.all([sequential.close(), multiplexed.close()]);
  }
  const speedup = sequentialMs.map((ms, i) => ms / multiplexedMs[i]);
  return { calls, rounds, sequentialMs, multiplexedMs, speedup, medianSpeedup: median(speedup) };
}

/** The benchmark's HTTP server, started; its URL, and how to stop it. */
export async function startHttpServer(): Promise<{ url: URL; stop: () => Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--allow-net=127.0.0.1",
      "--v8-flags=--expose-gc",
      projectPath("bench/servers/http_word_count.ts"),
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/listening on (\S+)/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`The HTTP benchmark server did not start: ${text}`);
    text += value;
  }
  void (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return {
    url: new URL(/listening on (\S+)/.exec(text)![1]),
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** What row 8 measured. */
export interface HttpRoundTripResult {
  calls: number;
  rounds: number;
  /** Calls a second in each round: the course's client, and the SDK's. */
  ours: number[];
  sdk: number[];
  /** Ours over the SDK's, per round, and the median. Target: at least 1.5. */
  ratio: number[];
  medianRatio: number;
}

/** Row 8: sequential `tools/call` round trips over Streamable HTTP, both clients, same server. */
export async function measureHttpRoundTrips(
  { calls, rounds }: { calls: number; rounds: number },
): Promise<HttpRoundTripResult> {
  const server = await startHttpServer();
  const ours = new Client(server.url, { allowed: ["word_count"] });
  const sdk = new SdkClient({ name: "bench-sdk-http", version: "1.0.0" });
  try {
    await ours.initialize();
    await ours.listTools();
    await sdk.connect(new StreamableHTTPClientTransport(server.url));
    const text = "vanilla stock needs review";
    const rates = { ours: [] as number[], sdk: [] as number[] };
    // Within a round, the two clients take turns every 50 calls, so that they share the
    // machine's noise as closely as they can.
    const block = Math.min(50, calls);
    for (let round = 0; round < rounds; round++) {
      let oursMs = 0;
      let sdkMs = 0;
      for (let done = 0; done < calls; done += block) {
        oursMs += await timed(async () => {
          for (let i = 0; i < block; i++) await ours.callTool("word_count", { text });
        });
        sdkMs += await timed(async () => {
          for (let i = 0; i < block; i++) {
            await sdk.callTool({ name: "word_count", arguments: { text } });
          }
        });
      }
      rates.ours.push(calls / (oursMs / 1000));
      rates.sdk.push(calls / (sdkMs / 1000));
    }
    const ratio = rates.ours.map((rate, i) => rate / rates.sdk[i]);
    return { calls, rounds, ...rates, ratio, medianRatio: median(ratio) };
  } finally {
    await ours.close();
    await sdk.close();
    await server.stop();
  }
}

/** What row 9 measured. */
export interface SessionMemoryResult {
  sessions: number;
  /** The server's heap in use, in MB: before, with every session open, after they closed. */
  baselineMB: number;
  openMB: number;
  afterMB: number;
  /** Sessions the server still held after every DELETE, the probe's own aside. Must be 0. */
  leftOpen: number;
}

const POST_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "b", version: "1" },
  },
});

/** Row 9: the server's heap around `sessions` sessions opened, then closed with DELETE. */
export async function measureSessionMemory(
  { sessions }: { sessions: number },
): Promise<SessionMemoryResult> {
  const server = await startHttpServer();
  const open = async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: POST_HEADERS,
      body: INITIALIZE,
    });
    await response.body?.cancel();
    return response.headers.get("mcp-session-id")!;
  };
  const close = async (id: string) => {
    const response = await fetch(server.url, {
      method: "DELETE",
      headers: { "mcp-session-id": id },
    });
    await response.body?.cancel();
  };
  const heap = async () => {
    const probe = new Client(server.url, { allowed: ["heap"] });
    try {
      await probe.initialize();
      await probe.listTools();
      return JSON.parse(await probe.callTool("heap")) as { heapUsed: number; sessions: number };
    } finally {
      await probe.close();
    }
  };
  try {
    // Warm up every path (and let the server's maps and compiled code reach their size).
    for (let i = 0; i < 200; i++) await close(await open());
    const baseline = await heap();
    const ids: string[] = [];
    for (let i = 0; i < sessions; i++) ids.push(await open());
    const opened = await heap();
    for (const id of ids) await close(id);
    const after = await heap();
    const mb = (bytes: number) => bytes / 1e6;
    return {
      sessions,
      baselineMB: mb(baseline.heapUsed),
      openMB: mb(opened.heapUsed),
      afterMB: mb(after.heapUsed),
      leftOpen: after.sessions - 1, // the probe's own session is open while it asks
    };
  } finally {
    await server.stop();
  }
}

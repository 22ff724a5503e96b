// Row 11: MCP 2026-07-28 (issue 39, item 5).
//
//   (a) sequential `tools/call` a second at 2026-07-28 over stdio: the
//       library's `Client` (dual-era, which probes and goes modern) against the
//       TypeScript SDK v2 client (`@modelcontextprotocol/client` 2.4.0, pinned
//       to 2026-07-28), each starting its own copy of the same library server
//       (`bench/servers/stdio_word_count.ts`); a ratio in each round;
//   (b) the same over Streamable HTTP, both clients against one library HTTP
//       server (`bench/servers/http_word_count.ts`);
//   (c) what the stdio probe costs against a legacy server: `initialize()`
//       of a dual-era client (the `server/discover` probe, its -32601, then the
//       handshake) against a legacy-only client (the handshake alone), timed
//       from a server that has said it is ready, on the grammar server; and
//       against a legacy server that never answers the probe, where the probe
//       waits out its deadline (`probeMs`, 300 ms here).

import { Client as SdkClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client, type ServerRef } from "../lib/mcp/client/client.ts";
import { MCP_VERSIONS, type McpVersion } from "../lib/mcp/shared/versions.ts";
import { cpuMs, median, projectPath, timed } from "./_measure.ts";
import { startHttpServer } from "./http.ts";

/** What row 11 measured. */
export interface ModernResult {
  calls: number;
  rounds: number;
  /**
   * Calls a second in each round over stdio and over HTTP: the library's
   * client, and the SDK's; and the client's CPU per call (this process's
   * user and system time over its calls, in µs), which a loaded machine's
   * scheduling disturbs less than the rate.
   */
  stdio: Race;
  http: Race;
  /** `initialize()` against the grammar server, in milliseconds: legacy-only, dual-era (each connect). */
  probe: { legacyMs: number[]; dualMs: number[]; extraMs: number };
  /** `initialize()` against a legacy server silent before its handshake, with a 300 ms probe deadline. */
  silentMs: number[];
}

/** One race of the two clients. */
export interface Race {
  ours: number[];
  sdk: number[];
  ratio: number[];
  medianRatio: number;
  oursCpuUs: number;
  sdkCpuUs: number;
}

/** The pinned SDK v2 client, at 2026-07-28. */
function sdkClient(): SdkClient {
  return new SdkClient({ name: "bench-sdk-v2", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
}

const TEXT = "vanilla stock needs review";

/**
 * Calls a second of `ours` and `sdk`, taking turns every 50 calls within a
 * round so that they share the machine's noise, for `rounds` rounds.
 */
async function race(
  ours: Client<ServerRef>,
  sdk: SdkClient,
  { calls, rounds }: { calls: number; rounds: number },
): Promise<Race> {
  const rates = { ours: [] as number[], sdk: [] as number[] };
  const cpu = { ours: 0, sdk: 0 };
  const block = Math.min(50, calls);
  /** `body`'s wall time; its CPU time is added to `cpu[who]`. */
  const measured = async (who: "ours" | "sdk", body: () => Promise<void>) => {
    const before = cpuMs();
    const ms = await timed(body);
    cpu[who] += cpuMs() - before;
    return ms;
  };
  for (let round = 0; round < rounds; round++) {
    let oursMs = 0;
    let sdkMs = 0;
    for (let done = 0; done < calls; done += block) {
      const mine = () =>
        measured("ours", async () => {
          for (let i = 0; i < block; i++) await ours.callTool("word_count", { text: TEXT });
        });
      const theirs = () =>
        measured("sdk", async () => {
          for (let i = 0; i < block; i++) {
            await sdk.callTool({ name: "word_count", arguments: { text: TEXT } });
          }
        });
      // The order alternates, block by block.
      if ((done / block + round) % 2 === 0) {
        oursMs += await mine();
        sdkMs += await theirs();
      } else {
        sdkMs += await theirs();
        oursMs += await mine();
      }
    }
    rates.ours.push(calls / (oursMs / 1000));
    rates.sdk.push(calls / (sdkMs / 1000));
  }
  const ratio = rates.ours.map((rate, i) => rate / rates.sdk[i]);
  const perCall = (ms: number) => ms * 1000 / (calls * rounds);
  return {
    ...rates,
    ratio,
    medianRatio: median(ratio),
    oursCpuUs: perCall(cpu.ours),
    sdkCpuUs: perCall(cpu.sdk),
  };
}

/** `initialize()` of a client of `server`, timed once the server has said it is ready. */
async function connectMs(
  server: string[],
  options: { versions?: readonly McpVersion[]; ready?: RegExp },
) {
  await using client = new Client(server, { probeMs: 300, versions: options.versions });
  if (options.ready !== undefined) {
    while (!client.stderrLines().some((line) => options.ready!.test(line))) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  return await timed(() => client.initialize());
}

/** Row 11. */
export async function measureModern(
  { calls, rounds, connects }: { calls: number; rounds: number; connects: number },
): Promise<ModernResult> {
  const stdioServer = [
    Deno.execPath(),
    "run",
    "--quiet",
    projectPath("bench/servers/stdio_word_count.ts"),
  ];
  const ours = new Client(stdioServer, { versions: MCP_VERSIONS, allowed: ["word_count"] });
  const sdk = sdkClient();
  let stdio;
  try {
    await ours.initialize();
    await ours.listTools();
    await sdk.connect(
      new StdioClientTransport({ command: stdioServer[0], args: stdioServer.slice(1) }),
    );
    await race(ours, sdk, { calls: Math.min(100, calls), rounds: 1 }); // warm up
    stdio = await race(ours, sdk, { calls, rounds });
  } finally {
    await ours.close();
    await sdk.close();
  }

  const server = await startHttpServer();
  const oursHttp = new Client(server.url, { versions: MCP_VERSIONS, allowed: ["word_count"] });
  const sdkHttp = sdkClient();
  let http;
  try {
    await oursHttp.initialize();
    await oursHttp.listTools();
    await sdkHttp.connect(new StreamableHTTPClientTransport(server.url));
    await race(oursHttp, sdkHttp, { calls: Math.min(100, calls), rounds: 1 });
    http = await race(oursHttp, sdkHttp, { calls, rounds });
  } finally {
    await oursHttp.close();
    await sdkHttp.close();
    await server.stop();
  }

  const grammar = [Deno.execPath(), "run", "--quiet", projectPath("servers/grammar.ts")];
  const ready = /^grammar: ready/;
  const legacyMs: number[] = [];
  const dualMs: number[] = [];
  for (let i = 0; i < connects; i++) {
    // Alternating, so that both share the machine's noise.
    legacyMs.push(await connectMs(grammar, { ready }));
    dualMs.push(await connectMs(grammar, { ready, versions: MCP_VERSIONS }));
  }
  const silent = [
    Deno.execPath(),
    "run",
    "--quiet",
    projectPath("tests/fixtures/legacy_peer.ts"),
    "silent",
  ];
  const silentMs: number[] = [];
  for (let i = 0; i < Math.min(3, connects); i++) {
    silentMs.push(await connectMs(silent, { versions: MCP_VERSIONS }));
  }
  return {
    calls,
    rounds,
    stdio,
    http,
    probe: { legacyMs, dualMs, extraMs: median(dualMs) - median(legacyMs) },
    silentMs,
  };
}

// Row 3: a server writes 200 MB without a newline in reply to a call. The
// client must refuse it once 64 KiB have arrived, and its memory must stay
// flat while the rest of the flood is drained and the server is ended.
//
//     deno task bench:flood            one run, told in words
//     deno run -A bench/flood.ts --json   one run, as JSON (what `deno task bench` reads)
//
// Each run is a process of its own, so that its baseline memory is its own and
// not what an earlier benchmark left behind.

import { Client } from "../lib/mcp/client/client.ts";
import { type SplitFrames, splitFrames } from "../lib/mcp/shared/framing.ts";
import { fixtureCommand } from "../tests/_helpers.ts";
import { median, projectPath } from "./_measure.ts";

const MB = 1024 * 1024;

/** What one flood did to one client. */
export interface FloodRun {
  /** `ProtocolError: ...`, or `accepted (wrong!)`. */
  outcome: string;
  /** Milliseconds from sending the call to its refusal. */
  sentToRefusalMs: number;
  /** Milliseconds from the read that took the client past its limit to the refusal. */
  limitToRefusalMs: number;
  /** Milliseconds for `close()` to end the server, which is blocked writing. */
  closeMs: number;
  /** How the server ended: `SIGTERM`, `exit 0`, ... */
  serverEndedBy: string;
  /** The client's resident memory before the call, and at its peak until closed, in MB. */
  baselineMB: number;
  peakMB: number;
  growthMB: number;
}

/** What row 3 measured: each run, and the medians. */
export interface FloodResult {
  runs: FloodRun[];
  refusedEveryTime: boolean;
  medianGrowthMB: number;
  medianLimitToRefusalMs: number;
  medianSentToRefusalMs: number;
  medianCloseMs: number;
}

/** Run the flood `rounds` times, each in a fresh process. */
export async function measureFlood({ rounds = 3 } = {}): Promise<FloodResult> {
  const runs: FloodRun[] = [];
  for (let round = 0; round < rounds; round++) {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", "--quiet", projectPath("bench/flood.ts"), "--json"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(stdout);
    if (text.trim() === "") {
      throw new Error(`The flood run failed (exit ${code}): ${new TextDecoder().decode(stderr)}`);
    }
    runs.push(JSON.parse(text));
  }
  const middle = (pick: (run: FloodRun) => number) => median(runs.map(pick));
  return {
    runs,
    refusedEveryTime: runs.every((run) => run.outcome.startsWith("ProtocolError")),
    medianGrowthMB: middle((run) => run.growthMB),
    medianLimitToRefusalMs: middle((run) => run.limitToRefusalMs),
    medianSentToRefusalMs: middle((run) => run.sentToRefusalMs),
    medianCloseMs: middle((run) => run.closeMs),
  };
}

/** One flood, in this process. */
async function floodOnce(): Promise<FloodRun> {
  const rss = () => Deno.memoryUsage().rss;
  // Warm up: the same code paths once, on a well-behaved server.
  {
    await using warm = new Client(fixtureCommand("first-call-late"), { allowed: ["echo"] });
    await warm.initialize();
    await warm.listTools();
    await warm.callTool("echo", { text: "warm" });
  }
  // The reference split, noting when it is first handed the limit's worth of bytes:
  // with no newline in the flood, that is the read that went past the limit.
  let limitPassed = NaN;
  const split: SplitFrames = (buffer, limit) => {
    if (buffer.length >= limit && Number.isNaN(limitPassed)) limitPassed = performance.now();
    return splitFrames(buffer, limit);
  };
  const client = new Client(fixtureCommand("flood"), { allowed: ["echo"], splitFrames: split });
  await client.initialize();
  await client.listTools();
  const baseline = rss();
  let peak = baseline;
  const sampler = setInterval(() => peak = Math.max(peak, rss()), 2);
  const sent = performance.now();
  const outcome = await client.callTool("echo", { text: "flood" }).then(
    () => "accepted (wrong!)",
    (error: Error) => `${error.name}: ${error.message}`,
  );
  const refused = performance.now();
  const status = await client.close();
  const closed = performance.now();
  clearInterval(sampler);
  peak = Math.max(peak, rss());
  return {
    outcome,
    sentToRefusalMs: refused - sent,
    limitToRefusalMs: refused - limitPassed,
    closeMs: closed - refused,
    serverEndedBy: status.signal ?? `exit ${status.code}`,
    baselineMB: baseline / MB,
    peakMB: peak / MB,
    growthMB: (peak - baseline) / MB,
  };
}

if (import.meta.main) {
  const run = await floodOnce();
  if (Deno.args.includes("--json")) {
    console.log(JSON.stringify(run));
  } else {
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(`outcome:            ${run.outcome}`);
    console.log(`refused after:      ${ms(run.sentToRefusalMs)} from sending the call`);
    console.log(`                    ${ms(run.limitToRefusalMs)} from the read past the limit`);
    console.log(`server ended by:    ${run.serverEndedBy}, ${ms(run.closeMs)} after the refusal`);
    console.log(
      `client rss:         ${run.baselineMB.toFixed(1)} MB before, ${
        run.peakMB.toFixed(1)
      } MB at peak`,
    );
    console.log(`growth:             ${run.growthMB.toFixed(1)} MB (target: under 8 MB)`);
  }
  Deno.exit(run.growthMB < 8 && run.outcome.startsWith("ProtocolError") ? 0 : 1);
}

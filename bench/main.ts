// `deno task bench`: every benchmark of issues 7 and 39, in one run, printed as a table
// and written to bench/results.json. The machines here are shared and noisy:
// every comparison is a ratio of medians (or a median of per-round ratios)
// measured in the same run, never a lone absolute time.
//
//     deno task bench                     the full run (a few minutes)
//     deno task bench --smoke             tiny sizes, one round: proves it still works
//     deno task bench --rows 1,3          only some rows
//     deno task bench --out PATH          write the results elsewhere
//     deno task bench --rows 10 --mask-data DIR --mask-schemas N
//                                         row 10 on JSONSchemaBench's data in DIR, N schemas
//
// Exits non-zero only when something was wrong rather than slow: a flood
// accepted, or a process left running by the library's client. Missed speed
// targets are reported in the table.

import { parseArgs } from "node:util";
import { type CloseOptions, measureClose } from "./close.ts";
import { measureCourse } from "./notebooks.ts";
import { measureFlood } from "./flood.ts";
import { measureFrameReading } from "./frame_reading.ts";
import { measureGrading } from "./grading.ts";
import { measureHttpRoundTrips, measureInflight, measureSessionMemory } from "./http.ts";
import { projectPath } from "./_measure.ts";
import { measureMask } from "./mask_bench.ts";
import { measureModern } from "./modern.ts";
import { measureRoundTrips } from "./round_trips.ts";
import { reportLines, type Results, WRONG } from "./report.ts";
import { formatTable } from "./table.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    smoke: { type: "boolean", default: false },
    out: { type: "string" },
    rows: { type: "string", default: "1,2,3,4,5,6,7,8,9,10,11" },
    "mask-data": { type: "string" },
    "mask-schemas": { type: "string" },
  },
});
const smoke = values.smoke;
const rows = new Set(values.rows.split(",").map((row) => row.trim()));
// Only a full run of every row replaces bench/results.json unless told where to write.
const everyRow = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"].every((row) =>
  rows.has(row)
);
const out = values.out ?? (smoke || !everyRow ? undefined : projectPath("bench/results.json"));

/** The sizes of a full run. */
const FULL = {
  calls: 5000,
  warmup: 500,
  rtRounds: 11,
  mib: 256,
  frRounds: 7,
  floodRounds: 3,
  inflight: 64,
  inflightRounds: 5,
  httpCalls: 1000,
  httpRounds: 5,
  sessions: 1000,
  maskSchemas: 300,
  modernCalls: 1000,
  modernRounds: 7,
  connects: 15,
};
/** The sizes of a smoke run: enough to go through every path once. */
const SMOKE = {
  calls: 50,
  warmup: 10,
  rtRounds: 1,
  mib: 1,
  frRounds: 1,
  floodRounds: 1,
  inflight: 8,
  inflightRounds: 1,
  httpCalls: 10,
  httpRounds: 1,
  sessions: 10,
  maskSchemas: 3,
  modernCalls: 10,
  modernRounds: 1,
  connects: 1,
};
const SIZES = smoke ? SMOKE : FULL;
/** A smoke run closes with a short grace, and tries the SDK only where it waits least. */
const SMOKE_CLOSE: CloseOptions = {
  rounds: 1,
  graceMs: 100,
  cases: [
    ["healthy", "client"],
    ["healthy", "sdk"],
    ["ignore-stdin-end", "client"],
    ["ignore-sigterm", "client"],
  ],
};

const started = new Date();
const loadBefore = loadAverage();
const results: Results = {};
const progress = (text: string) => console.error(`bench: ${text}`);

if (rows.has("1")) {
  progress(`round trips (${SIZES.calls} calls, ${SIZES.rtRounds} round(s))`);
  results.roundTrips = await measureRoundTrips({
    calls: SIZES.calls,
    warmup: SIZES.warmup,
    rounds: SIZES.rtRounds,
  });
}
if (rows.has("2")) {
  progress(`framing (${SIZES.mib} MiB, ${SIZES.frRounds} round(s))`);
  results.frameReading = await measureFrameReading({ mib: SIZES.mib, rounds: SIZES.frRounds });
}
if (rows.has("3")) {
  progress(`flood (${SIZES.floodRounds} round(s))`);
  results.flood = await measureFlood({ rounds: SIZES.floodRounds });
}
if (rows.has("4")) {
  progress("close");
  results.close = await measureClose(smoke ? SMOKE_CLOSE : { rounds: 3 });
}
if (rows.has("5")) {
  progress("the course's notebooks");
  results.course = await measureCourse({ smoke });
}
if (rows.has("6")) {
  const learners = smoke ? 5 : 300;
  progress(`grading a class of ${learners}`);
  results.grading = await measureGrading({ learners });
}

if (rows.has("7")) {
  progress(`${SIZES.inflight} requests in flight (${SIZES.inflightRounds} round(s))`);
  results.inflight = await measureInflight({ calls: SIZES.inflight, rounds: SIZES.inflightRounds });
}
if (rows.has("8")) {
  progress(`Streamable HTTP round trips (${SIZES.httpCalls} calls, ${SIZES.httpRounds} round(s))`);
  results.httpRoundTrips = await measureHttpRoundTrips({
    calls: SIZES.httpCalls,
    rounds: SIZES.httpRounds,
  });
}
if (rows.has("9")) {
  progress(`the HTTP server's memory around ${SIZES.sessions} sessions`);
  results.sessionMemory = await measureSessionMemory({ sessions: SIZES.sessions });
}
if (rows.has("10")) {
  const schemas = Number(values["mask-schemas"] ?? SIZES.maskSchemas);
  progress(`the token mask, XGrammar and llguidance on ${schemas} JSONSchemaBench schemas`);
  results.mask = await measureMask({ schemas, data: values["mask-data"] });
}

if (rows.has("11")) {
  progress(
    `2026-07-28: ${SIZES.modernCalls} calls × ${SIZES.modernRounds} round(s), the stdio probe`,
  );
  results.modern = await measureModern({
    calls: SIZES.modernCalls,
    rounds: SIZES.modernRounds,
    connects: SIZES.connects,
  });
}

const lines = reportLines(results, smoke);
const meta = {
  started: started.toISOString(),
  seconds: Math.round((Date.now() - started.getTime()) / 1000),
  smoke,
  deno: Deno.version.deno,
  cpus: navigator.hardwareConcurrency,
  cpu: cpuModel(),
  loadAverage: { before: loadBefore, after: loadAverage() },
  sizes: SIZES,
};
const where = `deno ${meta.deno}, ${meta.cpus} CPUs (${meta.cpu}), ${meta.seconds} s, ` +
  `load average ${loadBefore} before, ${meta.loadAverage.after} after`;
console.log(`Benchmarks${smoke ? " (smoke run: nothing judged on speed)" : ""}: ${where}\n`);
console.log(formatTable(lines));
if (out !== undefined) {
  await Deno.writeTextFile(out, JSON.stringify({ meta, table: lines, results }, null, 2) + "\n");
  console.log(`\nWritten to ${out}`);
}
const wrong = lines.filter((line) => line.met === WRONG);
Deno.exit(wrong.length === 0 ? 0 : 1);

function loadAverage(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
}

function cpuModel(): string {
  try {
    return Deno.readTextFileSync("/proc/cpuinfo").match(/^model name\s*:\s*(.*)$/m)?.[1] ??
      "unknown";
  } catch {
    return "unknown";
  }
}

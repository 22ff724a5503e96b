// What the benchmarks measured, as the lines of one table: each measure with
// its ratio to the limit (or to the SDK), its target, and whether it was met.

import type { CloseCase } from "./close.ts";
import type { CourseResult } from "./notebooks.ts";
import type { FloodResult } from "./flood.ts";
import type { FrameReadingResult } from "./frame_reading.ts";
import type { GradingResult } from "./grading.ts";
import type { HttpRoundTripResult, InflightResult, SessionMemoryResult } from "./http.ts";
import { type RoundTripResult, type Variant, VARIANTS } from "./round_trips.ts";
import type { MaskResult } from "./mask_bench.ts";
import type { ModernResult } from "./modern.ts";
import { maskLines } from "./mask_report.ts";
import type { Line } from "./table.ts";
import { median } from "./_measure.ts";

/** Every row's results; a row not run is absent. */
export interface Results {
  roundTrips?: RoundTripResult;
  frameReading?: FrameReadingResult;
  flood?: FloodResult;
  close?: CloseCase[];
  course?: CourseResult;
  grading?: GradingResult;
  inflight?: InflightResult;
  httpRoundTrips?: HttpRoundTripResult;
  sessionMemory?: SessionMemoryResult;
  mask?: MaskResult;
  modern?: ModernResult;
}

/** The verdict on something that must hold whatever the machine: a refusal, nothing left. */
export const WRONG = "NO (wrong)";

/** Verdicts: on speed (not given in a smoke run), and on what must hold. */
interface Judges {
  speed(ok: boolean): string;
  must(ok: boolean): string;
}

/** The table's lines, from whatever rows were run; nothing is judged on speed in a smoke run. */
export function reportLines(results: Results, smoke: boolean): Line[] {
  const judges: Judges = {
    speed: (ok) => smoke ? "smoke" : ok ? "yes" : "no",
    must: (ok) => ok ? "yes" : WRONG,
  };
  return [
    ...(results.roundTrips ? roundTripLines(results.roundTrips, judges) : []),
    ...(results.frameReading ? frameReadingLines(results.frameReading, judges) : []),
    ...(results.flood ? floodLines(results.flood, judges) : []),
    ...(results.close ? closeLines(results.close, judges) : []),
    ...(results.course ? courseLines(results.course, judges) : []),
    ...(results.grading ? gradingLines(results.grading, judges) : []),
    ...(results.inflight ? inflightLines(results.inflight, judges) : []),
    ...(results.httpRoundTrips ? httpLines(results.httpRoundTrips, judges) : []),
    ...(results.sessionMemory ? sessionMemoryLines(results.sessionMemory, judges) : []),
    ...(results.mask ? maskLines(results.mask, judges) : []),
    ...(results.modern ? modernLines(results.modern) : []),
  ];
}

function modernLines(result: ModernResult): Line[] {
  const rate = (rates: number[]) => `${thousands(median(rates))} calls/s`;
  const ms = (values: number[]) => `${median(values).toFixed(1)} ms`;
  return [
    {
      row: "11 2026-07-28",
      measure: "SDK v2 Client (pinned 2026-07-28), stdio, library server",
      value: rate(result.stdio.sdk),
    },
    {
      row: "",
      measure: "Client (dual-era: probed, then 2026-07-28), the same server",
      value: rate(result.stdio.ours),
      ratio: `${result.stdio.medianRatio.toFixed(2)} × the SDK`,
      target: "(comparison)",
    },
    {
      row: "",
      measure: "SDK v2 Client (pinned 2026-07-28), Streamable HTTP, library server",
      value: rate(result.http.sdk),
    },
    {
      row: "",
      measure: "Client (dual-era: probed, then 2026-07-28), the same server",
      value: rate(result.http.ours),
      ratio: `${result.http.medianRatio.toFixed(2)} × the SDK`,
      target: "(comparison)",
    },
    {
      row: "",
      measure: "client CPU per call, stdio: Client / SDK; HTTP: Client / SDK",
      value: `${result.stdio.oursCpuUs.toFixed(0)} / ${result.stdio.sdkCpuUs.toFixed(0)}; ${
        result.http.oursCpuUs.toFixed(0)
      } / ${result.http.sdkCpuUs.toFixed(0)} µs`,
    },
    {
      row: "",
      measure: "initialize() on the grammar server (legacy), legacy-only client",
      value: ms(result.probe.legacyMs),
    },
    {
      row: "",
      measure: "the same, dual-era client (probe, -32601, then the handshake)",
      value: ms(result.probe.dualMs),
      ratio: `+${result.probe.extraMs.toFixed(1)} ms`,
      target: "(the probe's cost)",
    },
    {
      row: "",
      measure: "the same on a legacy server silent before its handshake (probeMs 300)",
      value: ms(result.silentMs),
      target: "(bounded by probeMs)",
    },
  ];
}

function inflightLines(result: InflightResult, { speed }: Judges): Line[] {
  return [
    {
      row: "7 in flight",
      measure: `${result.calls} calls of a 10 ms tool, one at a time`,
      value: `${thousands(median(result.sequentialMs))} ms`,
    },
    {
      row: "",
      measure: `the same ${result.calls}, all in flight (maxInFlight ${result.calls})`,
      value: `${thousands(median(result.multiplexedMs))} ms`,
      ratio: `${result.medianSpeedup.toFixed(1)} × as fast`,
      target: "≥ 30 × as fast",
      met: speed(result.medianSpeedup >= 30),
    },
  ];
}

function httpLines(result: HttpRoundTripResult, { speed }: Judges): Line[] {
  return [
    {
      row: "8 HTTP",
      measure: "SDK Client, StreamableHTTPClientTransport, course HTTP server",
      value: `${thousands(median(result.sdk))} calls/s`,
    },
    {
      row: "",
      measure: "Client over Streamable HTTP, the same server",
      value: `${thousands(median(result.ours))} calls/s`,
      ratio: `${result.medianRatio.toFixed(2)} × the SDK`,
      target: "≥ 1.5 × the SDK",
      met: speed(result.medianRatio >= 1.5),
    },
  ];
}

function sessionMemoryLines(result: SessionMemoryResult, { speed, must }: Judges): Line[] {
  const back = result.afterMB / result.baselineMB;
  return [
    {
      row: "9 sessions",
      measure: "HTTP server's heap in use, before",
      value: `${result.baselineMB.toFixed(1)} MB`,
    },
    {
      row: "",
      measure: `with ${thousands(result.sessions)} sessions open`,
      value: `${result.openMB.toFixed(1)} MB`,
    },
    {
      row: "",
      measure: `after all ${thousands(result.sessions)} were closed (DELETE)`,
      value: `${result.afterMB.toFixed(1)} MB`,
      ratio: `${back.toFixed(2)} × before`,
      target: "≤ 1.1 × before",
      met: speed(back <= 1.1),
    },
    {
      row: "",
      measure: "sessions still held after every DELETE",
      value: String(result.leftOpen),
      target: "0",
      met: must(result.leftOpen === 0),
    },
  ];
}

function roundTripLines(rt: RoundTripResult, { speed }: Judges): Line[] {
  const rate = (key: Variant) => `${thousands(rt.median[key])} calls/s`;
  const against = (key: Variant, ratio: number, of: string, target: number): Line => ({
    row: "",
    measure: VARIANTS[key],
    value: rate(key),
    ratio: `${ratio.toFixed(2)} × ${of}`,
    target: `≥ ${target} × ${of}`,
    met: speed(ratio >= target),
  });
  const cpu = (["bare", "plain", "echo", "teaching", "sdk"] as const).map((key) =>
    rt.clientCpuUs[key]
  );
  return [
    { row: "1 round trips", measure: `${VARIANTS.bare} (the limit)`, value: rate("bare") },
    {
      row: "",
      measure: VARIANTS.plain,
      value: rate("plain"),
      ratio: `(b) is ${rt.echoVsPlain.median.toFixed(2)} × this`,
    },
    against("echo", rt.echoVsBare.median, "(a)", 0.85),
    against("teaching", rt.teachingVsSdk.median, "(d)", 1.5),
    { row: "", measure: VARIANTS.sdk, value: rate("sdk") },
    {
      row: "",
      measure: "client CPU per call, (a) / (a′) / (b) / (c) / (d)",
      value: `${cpu.map((us) => us.toFixed(0)).join(" / ")} µs`,
    },
  ];
}

function frameReadingLines(fr: FrameReadingResult, { speed }: Judges): Line[] {
  const largest = fr.sizesMiB.length - 1;
  return [
    {
      row: "2 framing",
      measure: `newline scan, ${fr.sizesMiB[largest]} MiB in 64 KiB chunks (the limit)`,
      value: `${thousands(fr.medianMs.scan[largest])} ms`,
    },
    {
      row: "",
      measure: "readFrames, the same chunks",
      value: `${thousands(fr.medianMs.readFrames[largest])} ms`,
      ratio: `${fr.speedVsScan.toFixed(2)} × scan speed`,
      target: "≥ 0.5 × scan speed",
      met: speed(fr.speedVsScan >= 0.5),
    },
    {
      row: "",
      measure: `readFrames, ${fr.sizesMiB.join(" → ")} MiB`,
      value: `${fr.medianMs.readFrames.map(thousands).join(" → ")} ms`,
      ratio: `${fr.growth.map((growth) => growth.toFixed(2)).join(", ")} × per doubling`,
      target: "≤ 2 × (+10% noise)",
      met: speed(Math.max(...fr.growth) <= 2.2),
    },
  ];
}

function floodLines(fl: FloodResult, { speed, must }: Judges): Line[] {
  const refused = fl.runs.filter((run) => run.outcome.startsWith("ProtocolError")).length;
  return [
    {
      row: "3 flood",
      measure: "200 MB without a newline",
      value: `refused ${refused}/${fl.runs.length}`,
      target: "refused",
      met: must(fl.refusedEveryTime),
    },
    {
      row: "",
      measure: "client's peak memory over its baseline",
      value: `${fl.medianGrowthMB.toFixed(1)} MB`,
      target: "< 8 MB",
      met: speed(fl.medianGrowthMB < 8),
    },
    {
      row: "",
      measure: "read past the limit → refusal",
      value: `${fl.medianLimitToRefusalMs.toFixed(2)} ms`,
    },
    { row: "", measure: "call sent → refusal", value: `${fl.medianSentToRefusalMs.toFixed(1)} ms` },
    {
      row: "",
      measure: "refusal → server ended by close() (it blocks writing)",
      value: `${thousands(fl.medianCloseMs)} ms`,
    },
  ];
}

function closeLines(cases: CloseCase[], { must }: Judges): Line[] {
  return cases.map((kind, i) => {
    const ours = kind.closer === "client";
    return {
      row: i === 0 ? "4 close" : "",
      measure: `${kind.behaviour} server + helper: ${ours ? "Client" : "SDK transport"}`,
      value: `${thousands(kind.medianMs)} ms, ${kind.left} left`,
      target: ours ? "0 left" : "(comparison)",
      met: ours ? must(kind.left === 0) : undefined,
    };
  });
}

/** Row 5's lines: the empty notebook, each worked notebook, and the whole course. */
function courseLines(course: CourseResult, { speed, must }: Judges): Line[] {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  if (course.emptyMs === undefined) {
    return [{ row: "5 course", measure: "solutions/*.ipynb", value: course.note ?? "" }];
  }
  const lines: Line[] = [{
    row: "5 course",
    measure: "empty notebook (kernel start, nbconvert)",
    value: seconds(course.emptyMs),
  }];
  if (course.note !== undefined) {
    lines.push({ row: "", measure: "solutions/*.ipynb", value: course.note });
  }
  for (const run of course.notebooks) {
    lines.push({
      row: "",
      measure: run.notebook,
      value: seconds(run.medianMs),
      ratio: `${run.vsEmpty.toFixed(1)} × empty`,
      target: "nothing left",
      met: must(!run.leftRunning),
    }, {
      row: "",
      measure: "  its slowest cells",
      value: run.slowestCells.map((cell) => `#${cell.index} ${thousands(cell.ms)} ms`).join(", "),
    });
  }
  if (course.notebooks.length > 0) {
    lines.push({
      row: "",
      measure: "the whole course",
      value: seconds(course.totalMs!),
      target: "< 60 s",
      met: speed(course.totalMs! < 60_000),
    });
  }
  return lines;
}

function thousands(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

function gradingLines(grading: GradingResult, { speed, must }: Judges): Line[] {
  return [
    {
      row: "6 grading",
      measure:
        `a class of ${grading.learners}, ${grading.hostile} hostile, ${grading.hogs} CPU hogs (${
          (grading.hogCpuMs / 1000).toFixed(2)
        } s of CPU each), --jobs ${grading.jobs}`,
      value: `${grading.seconds.toFixed(1)} s`,
      target: `< ${Math.ceil(grading.learners / 8)} s`,
      met: speed(grading.learnersPerSecond >= 8),
    },
    {
      row: "",
      measure: "learners graded per second",
      value: grading.learnersPerSecond.toFixed(1),
      target: "≥ 8",
      met: speed(grading.learnersPerSecond >= 8),
    },
    {
      row: "",
      measure: "peak memory, the grader and its sandboxes",
      value: `${Math.round(grading.peakMb)} MB`,
    },
    {
      row: "",
      measure: "learners misgraded (a correct one losing a mark, a wrong one keeping all)",
      value: grading.misgraded.length === 0 ? "none" : grading.misgraded.join(", "),
      target: "none",
      met: must(grading.misgraded.length === 0),
    },
  ];
}

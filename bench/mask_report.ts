// Row 10's lines in the benchmark's table: for lib/mask, each target of
// issues 31 and 41 (coverage, nothing valid refused, nothing invalid let
// through or generated, mask time at most 0.2 × XGrammar's in the same run,
// compile time beside llguidance's); XGrammar's and llguidance's figures
// beside it, measured the same way. An invalid instance let through or a
// generation ajv refuses is a wrong mask: the run fails.

import type { EngineResult, MaskResult } from "./mask_bench.ts";
import type { Line } from "./table.ts";

/** Verdicts on speed and on what must hold (report.ts's). */
interface Judges {
  speed(ok: boolean): string;
  must(ok: boolean): string;
}

/** The lines of row 10. */
export function maskLines(result: MaskResult, { speed, must }: Judges): Line[] {
  if (result.skipped !== undefined) {
    return [{ row: "10 mask", measure: `skipped: ${result.skipped}`, value: "" }];
  }
  const [ours, ...others] = result.engines;
  const xgrammar = others.find((engine) => engine.engine.startsWith("XGrammar"));
  const llguidance = others.find((engine) => engine.engine.startsWith("llguidance"));
  const ratio = ours.fill !== undefined && xgrammar?.fill !== undefined
    ? ours.fill.medianUs / xgrammar.fill.medianUs
    : undefined;
  const compileRatio = ours.compile !== undefined && llguidance?.compile !== undefined
    ? ours.compile.medianMs / llguidance.compile.medianMs
    : undefined;
  const share = ours.compiled / result.schemas;
  const lines: Line[] = [
    {
      row: "10 mask",
      measure: `lib/mask: Glaiveai2K schemas compiled (o200k_base, compact, schema order)`,
      value: `${ours.compiled} of ${result.schemas}`,
      ratio: `${(share * 100).toFixed(1)} %`,
      target: "≥ 95 %",
      met: share >= 0.95 ? "yes" : "no",
    },
    {
      row: "",
      measure: "lib/mask: valid instances refused",
      value: `${ours.validRefused.length} of ${ours.validTotal}`,
      target: "0",
      met: ours.validRefused.length === 0 ? "yes" : "no",
    },
    {
      row: "",
      measure: "lib/mask: invalid instances let through",
      value: `${ours.invalidLetThrough.length} of ${ours.invalidTotal}`,
      target: "0",
      met: must(ours.invalidLetThrough.length === 0),
    },
    {
      row: "",
      measure: "lib/mask: random generations ajv refuses (unfinished after 256 tokens)",
      value:
        `${ours.generationsFailing.length} of ${ours.generations - ours.generationsUnfinished} ` +
        `(${ours.generationsUnfinished})`,
      target: "0",
      met: must(ours.generationsFailing.length === 0),
    },
    {
      row: "",
      measure: "lib/mask: CPU time to compile one schema, median (p95)",
      value: compileText(ours),
      ratio: compileRatio === undefined ? undefined : `${compileRatio.toFixed(1)} × llguidance`,
    },
    {
      row: "",
      measure: "lib/mask: time to fill one mask, median (p95)",
      value: fillText(ours),
      ratio: ratio === undefined ? undefined : `${ratio.toFixed(2)} × XGrammar`,
      target: "≤ 0.2 × XGrammar",
      met: ratio === undefined ? "not measured" : speed(ratio <= 0.2),
    },
  ];
  for (const engine of others) lines.push(...otherLines(engine, result.schemas));
  return lines;
}

/** An engine beside lib/mask: its figures, measured the same way, judged by nothing. */
function otherLines(engine: EngineResult, schemas: number): Line[] {
  const name = `${engine.engine} ${engine.version}`;
  if (engine.skipped !== undefined) {
    return [{ row: "", measure: `${name}: skipped: ${engine.skipped}`, value: "" }];
  }
  return [
    { row: "", measure: `${name}: schemas compiled`, value: `${engine.compiled} of ${schemas}` },
    {
      row: "",
      measure: `${name}: valid refused, invalid let through`,
      value: `${engine.validRefused.length} of ${engine.validTotal}, ` +
        `${engine.invalidLetThrough.length} of ${engine.invalidTotal}`,
    },
    {
      row: "",
      measure: `${name}: random generations ajv refuses (unfinished)`,
      value:
        `${engine.generationsFailing.length} of ${
          engine.generations - engine.generationsUnfinished
        } ` +
        `(${engine.generationsUnfinished})`,
    },
    {
      row: "",
      measure: `${name}: CPU time to compile one schema, median (p95)`,
      value: compileText(engine),
    },
    { row: "", measure: `${name}: time to fill one mask, median (p95)`, value: fillText(engine) },
  ];
}

function fillText(engine: EngineResult): string {
  if (engine.fill === undefined) return "none";
  return `${engine.fill.medianUs.toFixed(1)} µs (${engine.fill.p95Us.toFixed(0)} µs)`;
}

function compileText(engine: EngineResult): string {
  if (engine.compile === undefined) return "none";
  return `${engine.compile.medianMs.toFixed(2)} ms (${engine.compile.p95Ms.toFixed(1)} ms)`;
}

/**
 * Lab 02's phase report, `work/lab-02/REPORT.md`, as the original lab's
 * `PHASE_31_REPORT.md`: the learner's notes, then the evidence they point
 * at (the readable transcript pasted in, the results, how each prediction
 * came out, how the named tests did), in Markdown a person reads.
 *
 * @module
 */

import type { Prediction } from "./predictions.ts";

/** What the report is made of. */
export interface PhaseReportParts {
  /** The learner's notes, by name: what was built, a surprise, a failure met, the limits. */
  notes: Readonly<Record<string, string>>;
  /** Which grammar server the run used, and why. */
  server: string;
  /** `transcript.readable.txt`, as saved. */
  readableTranscript: string;
  /** What the demo did. */
  results: { tools: number; callsMade: number; callsFailed: number; exitCode: number };
  /** The unit's predictions, as saved with its evidence. */
  predictions: readonly Prediction[];
  /** Each named test's cases, and their status. */
  tests: readonly { case: string; status: string }[];
}

const HEADINGS: Record<string, string> = {
  built: "What I built",
  surprise: "What surprised me",
  failure: "A failure on the way",
  limits: "What this client cannot do yet",
};

/**
 * The report, in Markdown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const report = phaseReport({
 *   notes: { built: "A client." },
 *   server: "the course's grammar server",
 *   readableTranscript: "> tools/list {}\n< {\"tools\":[]}\n",
 *   results: { tools: 4, callsMade: 4, callsFailed: 0, exitCode: 0 },
 *   predictions: [{ name: "tool_count", predicted: 4, observed: 4, matched: true }],
 *   tests: [{ case: "passes against a client that works", status: "PASS" }],
 * });
 * assert.match(report, /^# Phase 31 report/);
 * assert.match(report, /## What I built\n\nA client\./);
 * assert.ok(report.includes("> tools/list {}\n"), "the transcript, pasted in");
 * assert.match(report, /\| tool_count \| 4 \| 4 \| ✓ \|/);
 * ```
 */
export function phaseReport(parts: PhaseReportParts): string {
  const { results } = parts;
  const notes = Object.entries(parts.notes).flatMap(([name, text]) => [
    `## ${HEADINGS[name] ?? name}`,
    "",
    text.trim(),
    "",
  ]);
  const cell = (value: unknown) =>
    (value === null ? "(none)" : JSON.stringify(value)).replaceAll("|", "\\|");
  const predictions = parts.predictions.map((prediction) =>
    `| ${prediction.name} | ${cell(prediction.predicted)} | ${cell(prediction.observed)} | ${
      prediction.matched === null ? "–" : prediction.matched ? "✓" : "✗"
    } |`
  );
  const passed = parts.tests.filter((row) => row.status === "PASS").length;
  return [
    "# Phase 31 report: the MCP client round-trip",
    "",
    ...notes,
    "## The transcript",
    "",
    `The canonical flow on ${parts.server}: \`>\` from client to server, \`<\` back.`,
    "",
    "```text",
    parts.readableTranscript.trimEnd(),
    "```",
    "",
    "## Results",
    "",
    `${results.tools} tools discovered, ${results.callsMade} calls made, ${results.callsFailed} ` +
    `failed; the server exited with code ${results.exitCode} after a clean close.`,
    "",
    "## Predictions",
    "",
    "| question | predicted | observed | |",
    "| --- | --- | --- | --- |",
    ...predictions,
    "",
    "## The named tests",
    "",
    `${passed} of ${parts.tests.length} cases pass (each test against a client that works, and ` +
    "against the faulty client it is named for).",
    "",
  ].join("\n");
}

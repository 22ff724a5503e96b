/**
 * From every mutant's outcome to the report: per graded function, how many
 * mutants there were, how many a visible case kills, how many only hidden
 * cases kill, how many survive, and how many are listed as unkillable in
 * `equivalents.ts`; and every problem, each a line: a survivor that is not
 * listed (a missing case), a listed mutant that a case kills or that no
 * longer exists (a wrong or stale entry).
 *
 * @module
 */

import type { Unkillable } from "./equivalents.ts";
import type { MutantOutcome } from "./run.ts";

/** One graded function's line in the report. */
export interface FunctionSummary {
  unit: string;
  fn: string;
  mutants: number;
  visible: number;
  hidden: number;
  survived: number;
  /** Listed: behaves as the solution does on every input the function can be given. */
  equivalent: number;
  /** Listed: differs only where the contract leaves the behaviour open. */
  open: number;
}

/** The report of a mutation run. */
export interface MutantsReport {
  rows: FunctionSummary[];
  problems: string[];
}

/**
 * The name a mutant is listed under: its mutator, the code it replaces and
 * its replacement.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const outcome = { mutator: "EqualityOperator", original: "a > b", replacement: "a >= b" };
 * assert.equal(mutantName(outcome), "EqualityOperator: a > b → a >= b");
 * ```
 */
export function mutantName(
  outcome: Pick<MutantOutcome, "mutator" | "original" | "replacement">,
): string {
  return `${outcome.mutator}: ${outcome.original} → ${outcome.replacement}`;
}

/**
 * Count `outcomes` by function, with `listed` the mutants known to be
 * unkillable, and say what is wrong. A listed mutant covers every surviving
 * mutant of its function with the same line and name. Listed mutants of functions
 * outside the run are not checked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const base = { unit: "u", fn: "f", line: 1, detail: [] };
 * const outcomes = [
 *   { ...base, mutator: "M", original: "a", replacement: "b", status: "visible" as const },
 *   { ...base, mutator: "M", original: "a", replacement: "c", status: "survived" as const },
 * ];
 * const { rows, problems } = summarize(outcomes, []);
 * assert.equal(rows[0].survived, 1);
 * assert.match(problems[0], /u f, line 1: M: a → c survives/);
 * ```
 */
export function summarize(
  outcomes: readonly MutantOutcome[],
  listed: readonly Unkillable[],
): MutantsReport {
  const rows = new Map<string, FunctionSummary>();
  const problems: string[] = [];
  const used = new Set<Unkillable>();
  for (const outcome of outcomes) {
    const key = `${outcome.unit}\n${outcome.fn}`;
    const row = rows.get(key) ?? {
      unit: outcome.unit,
      fn: outcome.fn,
      mutants: 0,
      visible: 0,
      hidden: 0,
      survived: 0,
      equivalent: 0,
      open: 0,
    };
    rows.set(key, row);
    row.mutants++;
    const name = mutantName(outcome);
    const where = `${outcome.unit} ${outcome.fn}, line ${outcome.line}: ${name}`;
    const entry = listed.find((entry) =>
      entry.unit === outcome.unit && entry.fn === outcome.fn && entry.line === outcome.line &&
      entry.mutant === name
    );
    if (entry !== undefined) used.add(entry);
    if (outcome.status === "survived") {
      if (entry !== undefined) row[entry.kind]++;
      else {
        row.survived++;
        problems.push(`${where} survives: no case tells it from the solution`);
      }
    } else {
      row[outcome.status]++;
      if (entry !== undefined) {
        problems.push(`${where} is listed as unkillable, but fails ${outcome.detail.join("; ")}`);
      }
    }
  }
  const ran = new Set(rows.keys());
  for (const entry of listed) {
    if (!used.has(entry) && ran.has(`${entry.unit}\n${entry.fn}`)) {
      problems.push(
        `${entry.unit} ${entry.fn}, line ${entry.line}: listed ${entry.mutant} is no longer a mutant`,
      );
    }
  }
  return { rows: [...rows.values()], problems };
}

/**
 * The report's table, in Markdown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const row = { unit: "u", fn: "f", mutants: 3, visible: 1, hidden: 1, survived: 0, equivalent: 1, open: 0 };
 * assert.match(summaryTable([row]), /\| u +\| `f` +\| +3 \|/);
 * ```
 */
export function summaryTable(rows: readonly FunctionSummary[]): string {
  const header = [
    "unit",
    "function",
    "mutants",
    "killed by visible cases",
    "killed only by hidden cases",
    "survived",
    "equivalent",
    "open in the contract",
  ];
  const total = (key: keyof FunctionSummary) =>
    rows.reduce((sum, row) => sum + (row[key] as number), 0);
  const body = [
    ...rows.map((row) => [
      row.unit,
      `\`${row.fn}\``,
      ...[row.mutants, row.visible, row.hidden, row.survived, row.equivalent, row.open].map(String),
    ]),
    [
      "all",
      "",
      ...(["mutants", "visible", "hidden", "survived", "equivalent", "open"] as const)
        .map((key) => String(total(key))),
    ],
  ];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((cells) => cells[column].length))
  );
  const line = (cells: string[]) =>
    `| ${
      cells.map((cell, column) =>
        column < 2 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])
      )
        .join(" | ")
    } |`;
  const rule = `| ${
    widths.map((width, column) => column < 2 ? "-".repeat(width) : "-".repeat(width - 1) + ":")
      .join(" | ")
  } |`;
  return [line(header), rule, ...body.map(line)].join("\n");
}

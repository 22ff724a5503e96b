/**
 * Mutation testing of every graded function's worked solution: StrykerJS's
 * instrumenter makes the mutants (its mutant schemata, in the worked code
 * only), and each is graded as the grader grades a learner, on the cases
 * that reach it ({@linkcode judgeMutants}). Each mutant comes back killed by
 * a visible case, killed by hidden cases only, or surviving.
 *
 * @module
 */

import type { SandboxOptions } from "../grading/sandbox.ts";
import { loadHoldouts, UNITS } from "../grading/units/mod.ts";
import { instrument, type StrykerMutant } from "./instrument.ts";
import { type Judged, judgeMutants } from "./judge.ts";
import { type SolutionModule, solutionModule, workedNotebooks } from "./sources.ts";

/** Options for {@linkcode runMutants}. */
export interface MutantsOptions {
  /** The units whose functions are mutated. @default {every unit the grader knows} */
  units?: readonly string[];
  /** Only these functions' worked code is mutated. @default {every graded function} */
  functions?: readonly string[];
  /** Cases left out of the judging, as `unit/function/label`. @default {[]} */
  leaveOut?: readonly string[];
  /** Sandboxes run at a time. @default {the number of CPUs} */
  concurrency?: number;
  /** The sandbox's options. @default {the grader's defaults} */
  sandbox?: SandboxOptions;
}

/** One mutant of a worked solution, and what the cases made of it. */
export interface MutantOutcome {
  unit: string;
  fn: string;
  /** StrykerJS's mutator, such as `EqualityOperator`. */
  mutator: string;
  /** The worked code it replaced, on one line. */
  original: string;
  replacement: string;
  /** Its line in the unit's graded cells, counted from the function's first worked line. */
  line: number;
  /**
   * `visible`: a visible case fails on it; `hidden`: only hidden cases do;
   * `survived`: every case passes (or none reaches it).
   */
  status: "visible" | "hidden" | "survived";
  /**
   * The cases it failed in the round that killed it (for most, the first
   * visible case alone), as `function: label` (hidden ones marked), or that
   * none reaches it.
   */
  detail: string[];
}

/**
 * Mutate the worked solutions selected by `options` and judge every mutant.
 * Throws when the worked solutions themselves fail a case (then no mutant
 * could be judged).
 *
 * @example
 * ```ts ignore
 * const outcomes = await runMutants({ functions: ["authorize"] });
 * console.log(outcomes.filter((outcome) => outcome.status === "survived"));
 * ```
 */
export async function runMutants(options: MutantsOptions = {}): Promise<MutantOutcome[]> {
  const notebooks = await workedNotebooks();
  const modules: SolutionModule[] = [];
  for (const unit of options.units ?? [...UNITS.keys()]) {
    const spec = UNITS.get(unit);
    if (spec === undefined) throw new Error(`no unit ${unit}; known: ${[...UNITS.keys()]}`);
    const notebook = notebooks.get(unit);
    if (notebook === undefined) throw new Error(`no worked notebook in solutions/ for ${unit}`);
    const module = solutionModule(spec, notebook);
    const lines = module.lines.filter((range) => options.functions?.includes(range.fn) ?? true);
    if (lines.length > 0) modules.push({ ...module, lines });
  }
  if (modules.length === 0) throw new Error(`no graded function among ${options.functions}`);
  const holdouts = await loadHoldouts();
  const outcomes: MutantOutcome[] = [];
  for (const module of modules) {
    const instrumented = await instrument(module);
    const judged = await judgeMutants(UNITS.get(module.unit)!, instrumented, holdouts, options);
    for (const mutant of instrumented.mutants) {
      outcomes.push(outcomeOf(mutant, module, judged.get(mutant.id)!));
    }
  }
  return outcomes;
}

/** What the cases made of `mutant` of `module`. */
function outcomeOf(mutant: StrykerMutant, module: SolutionModule, judged: Judged): MutantOutcome {
  const { start, end } = mutant.location;
  // StrykerJS counts lines and columns from 0; the solution's ranges count lines from 1.
  const range = module.lines.find((range) =>
    range.start <= start.line + 1 && start.line < range.end
  )!;
  const lines = module.text.split("\n").slice(start.line, end.line + 1);
  lines[lines.length - 1] = lines[lines.length - 1].slice(0, end.column);
  lines[0] = lines[0].slice(start.column);
  const failed = judged.failed;
  return {
    unit: module.unit,
    fn: range.fn,
    mutator: mutant.mutatorName,
    original: oneLine(lines.join("\n")),
    replacement: oneLine(mutant.replacement),
    line: start.line + 1 - range.start + 1,
    status: failed.length === 0
      ? "survived"
      : failed.some((result) => !result.hidden)
      ? "visible"
      : "hidden",
    detail: judged.reachedBy === 0
      ? ["no case reaches its code"]
      : failed.map((result) => `${result.fn}: ${result.hidden ? "(hidden) " : ""}${result.case}`),
  };
}

/** `text` with its runs of white space made one space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

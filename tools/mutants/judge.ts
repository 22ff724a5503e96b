/**
 * The command StrykerJS runs for each mutant: grade the mutated worked
 * solutions exactly as the grader grades a learner's module, in the
 * grader's sandbox ({@linkcode runSandbox}), on the grader's cases (the
 * visible ones from `cases/`, the hidden ones from `holdouts/`). It exits 1
 * when a case fails (the mutant is killed), 0 when every case passes, and
 * writes what failed to the results folder, where the run checks that every
 * kill StrykerJS counts is a failed case and not a crash.
 *
 * StrykerJS names the mutant in `__STRYKER_ACTIVE_MUTANT__`; the sandbox
 * reads no environment, so the mutated module is given a first line that
 * switches the mutant on in its own realm (`globalThis.__stryker__`), with
 * StrykerJS's hit limit, so that a mutant that loops forever throws at once
 * instead of waiting out the case's time limit.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { type CaseResult, runSandbox, type SandboxOptions } from "../grading/sandbox.ts";
import { makeScratch } from "../grading/scratch.ts";
import { casesOf, type Holdouts, loadHoldouts, UNITS } from "../grading/units/mod.ts";

/** This file, for the command StrykerJS runs. */
export const JUDGE_PATH: string = fileURLToPath(import.meta.url);

/** What the mutation run tells the judge, in `mutants.json` beside the mutated modules. */
export interface JudgeConfig {
  /** The folder each mutant's outcome is written to. */
  results: string;
  /** Each unit's module, by file name in the folder StrykerJS runs the judge in. */
  modules: Record<string, string>;
  /** Cases left out of the judging, as `unit/function/label` (to prove the run notices). */
  leaveOut: string[];
  /** The sandbox's options, as the grader takes them. */
  sandbox: SandboxOptions;
}

/** A mutant's outcome: the cases that did not pass, visible and hidden. */
export interface Judged {
  /** The mutant StrykerJS switched on; null for its first run, with no mutant. */
  mutant: string | null;
  units: string[];
  failed: CaseResult[];
}

/** How many times an active mutant may run before it is taken for an endless loop. */
const HIT_LIMIT = 10_000;

/** Options for {@linkcode judgeMutant}. */
export interface JudgeOptions {
  /** The folder with the mutated modules and `mutants.json`. @default {the current folder} */
  folder?: string;
  /** The hidden cases; `undefined` for none. @default {what `holdouts/` holds} */
  holdouts?: Holdouts;
}

/**
 * Grade the modules in the folder with `mutant` switched on (none when
 * null): every unit when none is, otherwise the unit whose module holds the
 * mutant.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const folder = await Deno.makeTempDir();
 * const config = { results: folder, modules: {}, leaveOut: [], sandbox: {} };
 * await Deno.writeTextFile(`${folder}/mutants.json`, JSON.stringify(config));
 * assert.deepEqual(await judgeMutant(null, { folder }), { mutant: null, units: [], failed: [] });
 * await Deno.remove(folder, { recursive: true });
 * ```
 */
export async function judgeMutant(
  mutant: string | null,
  options: JudgeOptions = {},
): Promise<Judged> {
  const folder = options.folder ?? Deno.cwd();
  const config = JSON.parse(await Deno.readTextFile(`${folder}/mutants.json`)) as JudgeConfig;
  const holdouts = "holdouts" in options ? options.holdouts : await loadHoldouts();
  const judged: Judged = { mutant, units: [], failed: [] };
  const prelude = `globalThis.__stryker__ = ${
    JSON.stringify({ activeMutant: mutant, hitCount: 0, hitLimit: HIT_LIMIT })
  };\n`;
  for (const [unit, file] of Object.entries(config.modules)) {
    const text = await Deno.readTextFile(`${folder}/${file}`);
    // The instrumented module switches on each mutant by its id, written `("ID")`.
    if (mutant !== null && !text.includes(`(${JSON.stringify(mutant)})`)) continue;
    const spec = UNITS.get(unit);
    if (spec === undefined) throw new Error(`no unit ${unit}`);
    const module = await Deno.makeTempFile({ prefix: "mutant-", suffix: ".ts" });
    try {
      await Deno.writeTextFile(module, prelude + text);
      await using scratch = await makeScratch(
        [{ unit, code: { kind: "module", path: module } }],
        UNITS,
      );
      const functions = spec.functions.map((fn) => ({
        ...fn,
        cases: casesOf(spec, fn, holdouts).filter((testCase) =>
          !config.leaveOut.includes(`${unit}/${fn.name}/${testCase.label}`)
        ),
      }));
      const results = await runSandbox(scratch, [{ unit, functions }], config.sandbox);
      judged.units.push(unit);
      judged.failed.push(...results.filter((result) => result.status !== "PASS"));
    } finally {
      await Deno.remove(module).catch(() => {});
    }
  }
  return judged;
}

if (import.meta.main) {
  const mutant = Deno.env.get("__STRYKER_ACTIVE_MUTANT__") ?? null;
  const judged = await judgeMutant(mutant);
  const { results } = JSON.parse(await Deno.readTextFile("mutants.json")) as JudgeConfig;
  await Deno.writeTextFile(
    `${results}/${mutant === null ? "no-mutant" : `mutant-${mutant}`}.json`,
    JSON.stringify(judged),
  );
  for (const failed of mutant === null ? judged.failed : []) {
    console.error(`the worked solution fails ${failed.fn}: ${failed.case}: ${failed.observed}`);
  }
  Deno.exit(judged.failed.length > 0 ? 1 : 0);
}

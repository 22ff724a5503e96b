/**
 * StrykerJS's mutants of a unit's worked solutions: its instrumenter
 * (`@stryker-mutator/instrumenter`, the one `@stryker-mutator/core` uses)
 * makes every mutant of the worked lines at once, as mutant schemata: one
 * module in which each mutant is switched on by its id, in
 * `globalThis.__stryker__.activeMutant`, and which records which mutants each
 * case's code reaches (`mutantCoverage`), so that a mutant is judged only on
 * the cases that can see it.
 *
 * @module
 */

import { Instrumenter } from "@stryker-mutator/instrumenter";
import type { SolutionModule } from "./sources.ts";

/** One mutant, as StrykerJS describes it. */
export interface StrykerMutant {
  id: string;
  mutatorName: string;
  replacement: string;
  /** Where in the module the code it replaces is: lines counted from 0, columns from 0. */
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}

/** A module with every mutant of its worked lines in it, switched off, and the mutants. */
export interface Instrumented {
  text: string;
  mutants: StrykerMutant[];
}

/** StrykerJS's instrumenter logs through this: only its warnings and errors are shown. */
const LOGGER = {
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => true,
  isErrorEnabled: () => true,
  isFatalEnabled: () => true,
  trace() {},
  debug() {},
  info() {},
  warn: (...args: unknown[]) => console.error("StrykerJS:", ...args),
  error: (...args: unknown[]) => console.error("StrykerJS:", ...args),
  fatal: (...args: unknown[]) => console.error("StrykerJS:", ...args),
};

/**
 * `module` instrumented with every mutant of its worked lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const text = "export function authorize(name, catalog, allowed) {\n  return catalog[name] && allowed.has(name);\n}\n";
 * const module = { unit: "ch14-a", text, lines: [{ fn: "authorize", start: 2, end: 2 }] };
 * const { text: instrumented, mutants } = await instrument(module);
 * assert.ok(mutants.some((m) => m.replacement === "catalog[name] || allowed.has(name)"));
 * assert.match(instrumented, /stryMutAct_9fa48/);
 * ```
 */
export async function instrument(module: SolutionModule): Promise<Instrumented> {
  const lines = module.text.split("\n");
  const result = await new Instrumenter(LOGGER as never).instrument(
    [{
      name: `${module.unit}.ts`,
      content: module.text,
      mutate: module.lines.map(({ start, end }) => ({
        start: { line: start - 1, column: 0 },
        end: { line: end - 1, column: lines[end - 1].length },
      })),
    }],
    { plugins: null, excludedMutations: [], ignorers: [], noHeader: false } as never,
  );
  return {
    text: result.files[0].content,
    mutants: (result.mutants as unknown as StrykerMutant[]).map(
      ({ id, mutatorName, replacement, location }) => ({ id, mutatorName, replacement, location }),
    ),
  };
}

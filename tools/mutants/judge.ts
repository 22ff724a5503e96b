/**
 * Mutants judged as the grader grades a learner: each mutant of a unit's
 * worked solutions is switched on in a module of its own and graded in the
 * grader's sandbox ({@linkcode runSandbox}) on the grader's cases (the
 * visible ones from `cases/`, the hidden ones from `holdouts/`). First the
 * worked solutions run every case with no mutant on, and each case records
 * which mutants its code reached (StrykerJS's coverage, as its `perTest`
 * coverage analysis does); then each mutant runs only the cases that reach
 * it, many mutants to a sandbox, since they are the course's own code: its
 * first visible case alone, where a driven case reaches it; then, for the
 * mutants still living, every visible case (the first again, so that each
 * runs after the cases it runs after in one realm); then the hidden ones for
 * the mutants no visible case killed. A mutant lists the cases it failed in
 * the round that killed it.
 * A mutant that fails a case is killed; one that no case reaches, or that
 * passes every case that reaches it, survives.
 *
 * The instrumented module reads which mutant is on from the realm's
 * `globalThis.__stryker__`, which each mutant's module sets in its first
 * line, with StrykerJS's hit limit, so that a mutant that loops forever
 * throws at once instead of waiting out the case's time limit.
 *
 * @module
 */

import {
  type CaseResult,
  runSandbox,
  type SandboxOptions,
  type UnitJob,
} from "../grading/sandbox.ts";
import { makeScratch } from "../grading/scratch.ts";
import { inOrder } from "../grading/pool.ts";
import type { UnitSpec } from "../grading/spec.ts";
import { casesOf, type Holdouts, UNITS } from "../grading/units/mod.ts";
import type { Instrumented } from "./instrument.ts";

/** How many times an active mutant may run in one case before it is taken for an endless loop. */
const HIT_LIMIT = 10_000;
/** How many mutants share one sandbox. */
const BATCH = 16;

/** Options for {@linkcode judgeMutants}. */
export interface JudgeOptions {
  /** Cases left out of the judging, as `unit/function/label`. @default {[]} */
  leaveOut?: readonly string[];
  /** Sandboxes run at a time. @default {the number of CPUs} */
  concurrency?: number;
  /** The sandbox's options. @default {the grader's, with a budget for each mutant} */
  sandbox?: SandboxOptions;
}

/** What the cases made of one mutant. */
export interface Judged {
  /** How many cases reach its code (0: none can tell it from the solution). */
  reachedBy: number;
  /** The cases it fails. */
  failed: CaseResult[];
}

/**
 * Judge every mutant in `instrumented`, a module of `spec`'s worked
 * solutions, on `holdouts` and the visible cases. Throws `Error` naming the
 * case when the worked solutions themselves fail one: then no mutant could
 * be judged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "../grading/units/mod.ts";
 *
 * const text = `export function answerFor(id, message) { return message.result; }
 * export function authorize(name, catalog, allowed) { return allowed.has(name); }
 * export const graded = { answerFor, authorize };`;
 * await assert.rejects(
 *   judgeMutants(UNITS.get("ch14-a")!, { text, mutants: [] }, undefined),
 *   /the worked solution fails answerFor/,
 * );
 * ```
 */
export async function judgeMutants(
  spec: UnitSpec,
  instrumented: Instrumented,
  holdouts: Holdouts | undefined,
  options: JudgeOptions = {},
): Promise<Map<string, Judged>> {
  const leaveOut = options.leaveOut ?? [];
  const functions = spec.functions.map((fn) => ({
    ...fn,
    cases: casesOf(spec, fn, holdouts).filter((testCase) =>
      !leaveOut.includes(`${spec.unit}/${fn.name}/${testCase.label}`)
    ),
  }));
  const folder = await Deno.makeTempDir({ prefix: "mutants-" });
  try {
    const module = async (id: string | undefined) => {
      const path = `${folder}/${id ?? "none"}.ts`;
      // No mutant on is null, not undefined, which would send StrykerJS to the environment.
      const state = id === undefined
        ? { activeMutant: null }
        : { activeMutant: id, hitCount: 0, hitLimit: HIT_LIMIT };
      await Deno.writeTextFile(
        path,
        `globalThis.__stryker__ = ${JSON.stringify(state)};\n${instrumented.text}`,
      );
      return { unit: spec.unit, key: id ?? "none", code: { kind: "module" as const, path } };
    };
    // The worked solutions, every case, recording which mutants each case reaches.
    const none = await module(undefined);
    const covered = await (async () => {
      await using scratch = await makeScratch([none], UNITS);
      return await runSandbox(scratch, [{ unit: spec.unit, key: "none", functions }], {
        ...options.sandbox,
        coverage: true,
      });
    })();
    const failing = covered.find((result) => result.status !== "PASS");
    if (failing !== undefined) {
      throw new Error(
        `the worked solution fails ${failing.fn}: ${failing.case}: ${failing.observed}`,
      );
    }
    // For each mutant, the cases that reach it, by function.
    const reaching = new Map<string, Map<string, Set<number>>>();
    let at = 0;
    for (const fn of functions) {
      for (const [index] of fn.cases.entries()) {
        for (const id of covered[at++].covered ?? []) {
          const byFn = reaching.get(id) ?? new Map<string, Set<number>>();
          byFn.set(fn.name, (byFn.get(fn.name) ?? new Set()).add(index));
          reaching.set(id, byFn);
        }
      }
    }
    const judged = new Map<string, Judged>(
      instrumented.mutants.map(({ id }) => [id, { reachedBy: 0, failed: [] }]),
    );
    const reachedOf = (id: string) => {
      const byFn = reaching.get(id);
      return functions.map((fn) => ({
        ...fn,
        cases: fn.cases.filter((_, index) => byFn?.get(fn.name)?.has(index)),
      })).filter((fn) => fn.cases.length > 0);
    };
    for (const { id } of instrumented.mutants) {
      judged.get(id)!.reachedBy = reachedOf(id).reduce((sum, fn) => sum + fn.cases.length, 0);
    }
    /**
     * Each reached mutant's cases that `hidden` picks (`first`: only the first of them),
     * graded many mutants to a sandbox.
     */
    const judgeRound = async (ids: readonly string[], hidden: boolean, first = false) => {
      const jobs: UnitJob[] = ids.flatMap((id) => {
        let kept = 0;
        const functions = reachedOf(id).map((fn) => ({
          ...fn,
          cases: fn.cases.filter((testCase) =>
            testCase.hidden === hidden && (!first || kept++ === 0)
          ),
        })).filter((fn) => fn.cases.length > 0);
        return functions.length === 0 ? [] : [{ unit: spec.unit, key: id, functions }];
      });
      const batches = Array.from(
        { length: Math.ceil(jobs.length / BATCH) },
        (_, index) => jobs.slice(index * BATCH, (index + 1) * BATCH),
      );
      const graded = inOrder(
        batches,
        options.concurrency ?? navigator.hardwareConcurrency,
        async (batch) => {
          await using scratch = await makeScratch(
            await Promise.all(batch.map((job) => module(job.key))),
            UNITS,
          );
          // Each mutant (a job of its own) has the time a learner has.
          return await runSandbox(scratch, batch, options.sandbox);
        },
      );
      let index = 0;
      for await (const settled of graded) {
        const batch = batches[index++];
        if (settled.status === "rejected") throw settled.reason;
        let next = 0;
        for (const job of batch) {
          const count = job.functions.reduce((sum, fn) => sum + fn.cases.length, 0);
          judged.get(job.key!)!.failed.push(
            ...settled.value.slice(next, next += count)
              .filter((result) => result.status !== "PASS"),
          );
        }
      }
    };
    // The visible cases first: a mutant one of them kills needs no hidden case to be judged
    // "killed by visible cases", and most are (about nine in ten), so their hidden cases,
    // which are most of the cases, are run only for the mutants the visible ones let live.
    // And, for a mutant a driven case reaches, the first visible case alone before them: it
    // runs first in a new realm either way, and kills most mutants that any visible case kills,
    // where each driven case starts a realm (and a server) of its own. (A function called on
    // its arguments runs its cases in one realm: there a round more costs more than it saves.)
    const reached = instrumented.mutants.map(({ id }) => id).filter((id) =>
      judged.get(id)!.reachedBy > 0
    );
    const living = () => reached.filter((id) => judged.get(id)!.failed.length === 0);
    await judgeRound(reached.filter((id) => reachedOf(id).some((fn) => fn.driver)), false, true);
    await judgeRound(living(), false);
    await judgeRound(living(), true);
    return judged;
  } finally {
    await Deno.remove(folder, { recursive: true }).catch(() => {});
  }
}

/**
 * The watermark's second run, planned: for a function whose sifting probe
 * the first run shows answered as a seal answers it (or unanswered), the
 * whole runs of its probes, and the cases it passed, in realms that each
 * hold no more of its calls than the first run's hidden realm held, by each
 * count a copy could keep: its calls, and its calls that hold a name of the
 * secrets' look (three words of their length joined by `_`, or any words
 * so joined). A copy that counts its calls to let the first run pass whole
 * and spoils what comes past it never reaches its count there, and answers
 * the probes as a seal does. A run longer than a count allows is split,
 * in its order, over realms of its own; each realm begins with the cases the
 * module's functions before it passed in the first run (and their sifting
 * probes), as there, so that it cannot tell the second run by what else it
 * is asked (every one that came to an answer, failed or passed); the cases
 * it passed (but the twins' decoys, `HiddenCase.decoy`) fill the realms where
 * they fit, at places drawn at random, and a case no realm holds is scored
 * from the first run.
 *
 * @module
 */

import { budgetSpent, type CaseResult, type UnitJob } from "./sandbox.ts";
import type { GradedCase } from "./spec.ts";
import { marksAnswered, type Watermark, withProbes } from "./watermark.ts";
import { UNITS } from "./units/mod.ts";

/** The second run of a job: its cases, and which of them are judged. */
export interface SecondRun {
  job: UnitJob;
  /**
   * Each case of `job` that is judged, with the first run's case it runs
   * again (itself for a probe, or a visible case): the cases of the other
   * functions it holds are not.
   */
  judged: ReadonlyMap<GradedCase, GradedCase>;
}

/**
 * The second run that checks `job`'s functions whose sifting probes `ran`
 * (the first run's results, in the job's order) shows answered as a seal
 * answers them, or that came to no answer of their own; `undefined` when no
 * function is. Cases that came to no answer are left out, and the checked
 * function's failed ones, so that code of the learner's own that stops (a
 * loop in one case) stops no probe.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 * import { loadWatermark } from "./watermark.ts";
 *
 * const [answerFor] = UNITS.get("ch14-a")!.functions;
 * const cases = [false, true, true].map((hidden, at) => ({ label: `${at}`, args: [at], expected: at, hidden }));
 * const job = { unit: "ch14-a", functions: [{ ...answerFor, cases }] };
 * const passed = cases.map((c) => ({ unit: "ch14-a", fn: "answerFor", case: c.label, hidden: c.hidden, status: "PASS" as const, observed: "" }));
 * assert.equal(secondRun(job, passed, await loadWatermark()), undefined);
 * ```
 */
export function secondRun(
  job: UnitJob,
  ran: readonly CaseResult[],
  watermark: Watermark | undefined,
): SecondRun | undefined {
  let next = 0;
  const own = job.functions.map((fn) => ran.slice(next, next += fn.cases.length));
  const checked = own.flatMap((results, at) => sifted(results) ? [at] : []);
  if (checked.length === 0 || watermark === undefined) return undefined;
  const passed = (at: number) =>
    job.functions[at].cases.filter((_, index) => own[at][index].status === "PASS");
  const judged = new Map<GradedCase, GradedCase>();
  const cases = job.functions.map((): GradedCase[] => []);
  let realms = 0;
  // What the realm meets before the checked function's calls: the functions before it, as in
  // the first run, every hidden case and sifting probe that came to an answer there, failed
  // ones too: a realm that lacks the cases an earlier function failed is told from the first
  // run's by them (a copy that fails one on purpose, and notes it).
  const answered = (at: number) =>
    job.functions[at].cases.filter((c, index) =>
      c.hidden && own[at][index].unanswered === undefined
    );
  const context = (at: number, realm: number) => {
    for (let before = 0; before < at; before++) {
      cases[before].push(...answered(before).map((c) => ({ ...c, realm })));
    }
  };
  for (let at = 0; at <= checked.at(-1)!; at++) {
    const visible = passed(at).filter(({ hidden }) => !hidden);
    cases[at].push(...visible);
    if (checked.includes(at)) { for (const c of visible) judged.set(c, c); }
  }
  for (const at of checked) {
    const fn = job.functions[at];
    const spec = UNITS.get(job.unit)!.functions.find(({ name }) => name === fn.name)!;
    const limits = new Counts(watermark);
    // No decoy widens a realm: with them, a realm would hold a whole run, and code that keeps
    // state (a reply seen before refused) would meet each twin first and each probe after it.
    for (const c of fn.cases.filter((c) => c.hidden && !c.decoy)) limits.add(c);
    const mine: { counts: Counts; runs: GradedCase[]; fill: GradedCase[] }[] = [];
    for (const run of probeRuns(withProbes([], job.unit, spec, watermark))) {
      let realm: (typeof mine)[number] | undefined;
      for (const probe of run) {
        // A probe that no realm's counts leave room for takes a realm of its own.
        if (realm === undefined || realm.runs.length > 0 && !realm.counts.fits(probe, limits)) {
          mine.push(realm = { counts: new Counts(watermark), runs: [], fill: [] });
        }
        realm.counts.add(probe);
        realm.runs.push(probe);
      }
    }
    // The cases it passed, each in a realm drawn at random where it fits, or in none; no decoy,
    // so that each twin is the first input of its setting its realm meets.
    for (const c of shuffled(passed(at).filter((c) => c.hidden && !c.probe && !c.decoy))) {
      const realm = shuffled(mine).find(({ counts }) => counts.fits(c, limits));
      realm?.counts.add(c);
      realm?.fill.push(c);
    }
    for (const { runs, fill } of mine) {
      const realm = realms++;
      context(at, realm);
      const order = fn.cases.filter((c) => fill.includes(c));
      order.splice(randomBelow(order.length + 1), 0, ...runs);
      for (const c of order) {
        const copy = { ...c, realm };
        judged.set(copy, c.probe === undefined ? c : copy);
        cases[at].push(copy);
      }
    }
  }
  const functions = job.functions.slice(0, checked.at(-1)! + 1)
    .map((fn, at) => ({ ...fn, cases: cases[at] }));
  return { job: { ...job, functions }, judged };
}

/**
 * Whether `own` (one function's results in the first run) sends it to be
 * checked again: a sifting probe answered as a seal answers it, or one that
 * came to no answer (a refusal thrown outside the call, an exit, a
 * time-out, or not tried after the function's own stop or time-out before
 * it), which no code is let to give in place of an answer: a copy that
 * stalls on a call of its choosing would otherwise keep the cases it passed
 * before, whenever the probe came after. Not one left untried for a budget
 * its learner's cases share (their time, the unit's bytes), which no second
 * run has left (`grade_learner.ts` leaves such a function unchecked). And it
 * passed a case, so that it has a mark to lose (a function that loops on
 * every case is not run again).
 */
const sifted = (own: readonly CaseResult[]) =>
  own.some(({ watermark, status }) => watermark === undefined && status === "PASS") &&
  (marksAnswered(own).length > 0 ||
    own.some(({ unanswered, watermark }) =>
      watermark !== undefined && unanswered !== undefined && !budgetSpent(unanswered)
    ));

/**
 * What a copy could count of one function's calls in a realm: every call,
 * and the calls whose arguments hold a name of the secrets' look, exactly
 * (words of the token's lengths joined by `_`) or loosely (any three words).
 */
class Counts {
  readonly #looks: RegExp[];
  readonly #counts = new Map<string, number>();
  constructor(watermark: Watermark) {
    const exact = watermark.token.split("_").map((word) => `[a-z]{${word.length}}`).join("_");
    this.#looks = [new RegExp(exact), /[a-z]+_[a-z]+_[a-z]+/i];
  }
  #kinds(c: GradedCase): string[] {
    const text = textOf(c.args);
    return ["call", ...this.#looks.filter((look) => look.test(text)).map(String)];
  }
  add(c: GradedCase): void {
    for (const kind of this.#kinds(c)) this.#counts.set(kind, (this.#counts.get(kind) ?? 0) + 1);
  }
  /** Whether `c` added leaves each count within `limits`'. */
  fits(c: GradedCase, limits: Counts): boolean {
    return this.#kinds(c).every((kind) =>
      (this.#counts.get(kind) ?? 0) < (limits.#counts.get(kind) ?? 0)
    );
  }
}

/** Every string `value` holds (keys, members and bytes as text), one to a line. */
function textOf(value: unknown, seen = new Set<unknown>()): string {
  if (typeof value === "string") return value;
  if (typeof value !== "object" || value === null || seen.has(value)) return "";
  seen.add(value);
  if (ArrayBuffer.isView(value)) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return new TextDecoder().decode(bytes);
  }
  const parts = value instanceof Map
    ? [...value].flat()
    : value instanceof Set || Array.isArray(value)
    ? [...value]
    : Object.entries(value).flat();
  return parts.map((part) => textOf(part, seen)).join("\n");
}

/** `items` in an order drawn at random. */
function shuffled<T>(items: readonly T[]): T[] {
  const order = [...items];
  for (let at = order.length - 1; at > 0; at--) {
    const other = randomBelow(at + 1);
    [order[at], order[other]] = [order[other], order[at]];
  }
  return order;
}

/** `probes` (each mark's run, whole, one after the other) in runs: a new one where the mark changes. */
function probeRuns(probes: readonly GradedCase[]): GradedCase[][] {
  const runs: GradedCase[][] = [];
  for (const [at, probe] of probes.entries()) {
    if (at === 0 || probe.group !== probes[at - 1].group) runs.push([]);
    runs.at(-1)!.push(probe);
  }
  return runs;
}

/** A whole number drawn at random from 0 to `bound` - 1. */
function randomBelow(bound: number): number {
  const [draw] = crypto.getRandomValues(new Uint32Array(1));
  return draw % bound;
}

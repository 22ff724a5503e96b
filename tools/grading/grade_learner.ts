/**
 * Grade one learner: analyse their code in a process of its own, with a
 * budget (`analysis.ts`: the module their notebook makes, and the library
 * copies in it), copy it into a scratch folder, re-run every case of every
 * unit they submitted in sandboxed processes of their own, and score each
 * unit against what the learner's submission JSON claims, with no marks for
 * a graded function whose library copy is in their code (`copied.ts`), or
 * that answers the grader's probe with a seal's watermark (`watermark.ts`),
 * and none for code whose analysis passed its budget.
 *
 * @module
 */

import type { Learner, Submission } from "./collect.ts";
import { type FileCheck, lab02FileChecks, readReferences } from "../../lib/course/lab_02_files.ts";
import {
  Budgets,
  budgetSpent,
  type CaseResult,
  runSandbox,
  type SandboxOptions,
  type UnitJob,
} from "./sandbox.ts";
import { makeScratch, type Scratch } from "./scratch.ts";
import type { GradedCase } from "./spec.ts";
import { Analysis } from "./analysis.ts";
import { type Results, scoreSubmission, type TestResult } from "./score.ts";
import { casesOf, type Holdouts, UNITS } from "./units/mod.ts";
import { loadWatermark, marksAnswered, withProbes } from "./watermark.ts";
import { secondRun } from "./second_run.ts";
import {
  cellAtLoadError,
  cellsThatDoNotParse,
  didNotParse,
  saidLeftOut,
} from "./unparsed_cells.ts";

/** Options for {@linkcode gradeLearner}: the sandbox's, which functions to grade, and where code is analysed. */
export interface GradeOptions extends SandboxOptions {
  /** Only these graded functions' cases are run and scored. @default {every graded function} */
  functions?: readonly string[];
  /**
   * The processes that analyse learners' code before it runs (one run of the
   * grader shares them). @default {a process made for this call, and ended after it}
   */
  analysis?: Analysis;
}

/**
 * The results of each unit `learner` submitted, in the order of their
 * submissions. `holdouts` are the hidden cases (undefined in a copy of the
 * course without them).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const evidenceOnly = { name: "alice", submissions: [{ unit: "ch14-a" }] };
 * const [results] = await gradeLearner(evidenceOnly, undefined);
 * assert.equal(results.score, 0);
 * ```
 */
export async function gradeLearner(
  learner: Learner,
  holdouts: Holdouts | undefined,
  options: GradeOptions = {},
): Promise<Results[]> {
  return (await gradeTogether([learner], holdouts, options))[0];
}

/**
 * {@linkcode gradeLearner} for each of `learners`, in one sandbox process
 * (and its successors, when one is stopped): each learner's realms may read
 * only that learner's folder, each learner has a budget of their own, and
 * their realms are ended before the next learner's cases begin. Grading a
 * few to a process spares a process start each, and shares the process's
 * limits (its output, its memory, what its runtime runs): it is for code the
 * course trusts, such as a catalogue's implementations, never for a class,
 * whose learners `deno task grade` grades each alone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const evidenceOnly = { name: "alice", submissions: [{ unit: "ch14-a" }] };
 * const graded = await gradeTogether([evidenceOnly, evidenceOnly], undefined);
 * assert.deepEqual(graded.map(([results]) => results.score), [0, 0]);
 * ```
 */
export async function gradeTogether(
  learners: readonly Learner[],
  holdouts: Holdouts | undefined,
  options: GradeOptions = {},
): Promise<Results[][]> {
  const wanted = (name: string) => options.functions?.includes(name) ?? true;
  const watermark = await loadWatermark();
  const jobs: UnitJob[][] = learners.map((learner, index) =>
    learner.submissions.map(({ unit }) => {
      const spec = UNITS.get(unit)!;
      return {
        unit,
        key: `${index}/${unit}`,
        learner: String(index),
        functions: spec.functions.filter((fn) => wanted(fn.name))
          .map((fn) => ({
            ...fn,
            cases: withProbes(casesOf(spec, fn, holdouts), unit, fn, watermark, { sift: true }),
          })),
      };
    })
  );
  const analysed = await analyseCode(learners, options.analysis);
  // Code whose analysis passed its budget is not run: it earns nothing whatever it does.
  const withCode = learners.flatMap((learner, index) =>
    learner.submissions.map((submission) => ({
      ...submission,
      key: `${index}/${submission.unit}`,
      // Several learners in one scratch folder: each in a folder of their own.
      learner: learners.length > 1 ? index : undefined,
    })).filter(({ key }) => analysed.get(key)?.module !== undefined)
      .map((submission) => ({ ...submission, module: analysed.get(submission.key)!.module }))
  );
  const ranJobs = jobs.flat().filter((job) => withCode.some(({ key }) => key === job.key));
  let byKey = new Map<string, CaseResult[]>();
  const checked = new Map<string, Ran[]>();
  if (withCode.length > 0) {
    await using scratch = await makeScratch(withCode, UNITS);
    const budgets = new Budgets(options);
    const first = pairsByKey(ranJobs, await runSandbox(scratch, ranJobs, options, budgets));
    const run = { scratch, jobs: ranJobs, withCode, analysed, first, options, budgets };
    await reloadWithoutStoppingCells(run);
    namedAsHandedIn(run);
    byKey = resultsOf(first);
    // Only a function that answered a sifting probe as a seal (or came to no answer) is run
    // again with the whole runs; what else the run holds is kept out of its judging.
    const again = ranJobs.flatMap((job) => secondRun(job, byKey.get(job.key!)!, watermark) ?? []);
    if (again.length > 0) {
      const jobs = again.map(({ job }) => job);
      const ran = pairsByKey(jobs, await runSandbox(scratch, jobs, options, budgets));
      for (const { job, judged } of again) {
        const own = ran.get(job.key!)!.filter(({ testCase }) => judged.has(testCase))
          .map(({ testCase, result }) => ({ testCase: judged.get(testCase)!, result }));
        checked.set(job.key!, own);
        byKey.set(job.key!, passedTwice(first.get(job.key!)!, own));
      }
    }
  }
  return await Promise.all(learners.map(async (learner, index) => {
    const fileChecks = await Promise.all(learner.submissions.map(checkFiles));
    return learner.submissions.map((submission, at) => {
      const job = jobs[index][at];
      const ran = byKey.get(job.key!);
      const probed = checked.get(job.key!) ?? [];
      const probedResults = probed.map(({ result }) => result);
      const { unchecked, copied } = analysed.get(job.key!) ?? {};
      const cases = ran?.filter((result) => result.watermark === undefined) ??
        job.functions.flatMap((fn) =>
          fn.cases.filter((testCase) => testCase.probe === undefined).map((testCase) => ({
            unit: submission.unit,
            fn: fn.name,
            case: testCase.label,
            hidden: testCase.hidden,
            status: "FAIL" as const,
            observed: unchecked ?? "no code",
          }))
        );
      return scoreSubmission({
        name: learner.name,
        spec: UNITS.get(submission.unit)!,
        cases,
        codeCame: submission.code !== undefined,
        evidence: submission.evidence && JSON.parse(submission.evidence.text),
        copied: withWatermarks(copied, probedResults, submission.unit),
        unchecked,
        unverified: { ...untried(ran ?? []), ...unanswered(probed) },
      });
    }).map((results, at) => withFileChecks(results, fileChecks[at]));
  }));
}

/**
 * What `first` (the first run of a job: each case and what it came to)
 * came to, with each case that `again` (the second run of the functions it
 * checks) shows failed there failed: a function run again earns a case only
 * when it passed it both times, so that code which answers the second run
 * otherwise than the first (to spoil the twins it holds) pays for it as it
 * would in one run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const [visible, hidden] = [false, true].map((hidden) => ({ label: "c", args: [], expected: 1, hidden }));
 * const passed = (hidden: boolean) => ({
 *   unit: "ch14-a", fn: "answerFor", case: "c", hidden, status: "PASS" as const, observed: "1",
 * });
 * const first = [{ testCase: visible, result: passed(false) }, { testCase: hidden, result: passed(true) }];
 * const spoilt = { ...passed(true), status: "FAIL" as const, observed: "failed" };
 * const twice = passedTwice(first, [{ testCase: hidden, result: spoilt }]);
 * assert.deepEqual(twice.map(({ status }) => status), ["PASS", "FAIL"]);
 * assert.deepEqual(passedTwice(first, []), first.map(({ result }) => result));
 * ```
 */
export function passedTwice(first: readonly Ran[], again: readonly Ran[]): CaseResult[] {
  const failed = new Map(
    again.filter(({ testCase, result }) => testCase.probe === undefined && result.status !== "PASS")
      .map(({ testCase, result }) => [testCase, result]),
  );
  return first.map(({ testCase, result }) => {
    const second = failed.get(testCase);
    if (second === undefined) return result;
    const observed = testCase.hidden
      ? "failed"
      : `passed, then failed when run again with the seals' probes: ${second.observed}`;
    return { ...result, status: "FAIL" as const, observed };
  });
}

/** A case of a run and what it came to. */
export interface Ran {
  testCase: GradedCase;
  result: CaseResult;
}

/** What each job's cases of `runs` came to, by the job's key. */
function resultsOf(runs: ReadonlyMap<string, readonly Ran[]>): Map<string, CaseResult[]> {
  return new Map([...runs].map(([key, ran]) => [key, ran.map(({ result }) => result)]));
}

/** `ran` (what `runSandbox` reported for `jobs`, in their order) with its cases, by each job's key. */
function pairsByKey(jobs: readonly UnitJob[], ran: readonly CaseResult[]) {
  const byKey = new Map<string, Ran[]>();
  let next = 0;
  for (const job of jobs) {
    const cases = job.functions.flatMap((fn) => fn.cases);
    byKey.set(job.key!, cases.map((testCase) => ({ testCase, result: ran[next++] })));
  }
  return byKey;
}

/**
 * The graded functions whose check in `probed` (the second run) came to no
 * answer, with what stopped it first: a mark whose run of probes and twins
 * came to an answer on some calls and to none on others (a time-out, an
 * exit, the learner's time spent). The grader cannot tell a copy from code
 * of the learner's own there: a copy that stalls or exits where its seal
 * refuses a probe would otherwise pass for no seal. A run that came to no
 * answer on any call, twins and probes alike, is code that cannot tell the
 * token from the control (as code that answers them all wrong), and stops
 * nothing: such code loses the cases it stalls on, as any code does. But a
 * mark whose calls were not tried for a budget its learner's cases share
 * running out (their time, the unit's bytes) stops its function wherever it
 * came: a copy slow enough to spend its learner's time before the second
 * run's probes, or sending enough to spend its unit's bytes, would otherwise
 * keep the marks it passed in the first. So does a mark whose calls never
 * reached the function, their realm's module not loading: code that loaded
 * in the first run loads again, and a copy whose load is slow at random
 * would otherwise keep what it passed where the second run's probes did not.
 */
function unanswered(probed: readonly Ran[]): Record<string, string> {
  const marks = new Map<
    string,
    { fn: string; answered: boolean; stopped?: string; spent?: string }
  >();
  for (const { testCase, result } of probed) {
    if (testCase.probe === undefined) continue;
    const key = JSON.stringify([result.fn, testCase.group ?? ""]);
    const mark = marks.get(key) ?? { fn: result.fn, answered: false };
    const why = result.unanswered;
    if (why === undefined) mark.answered = true;
    else {
      mark.stopped ??= why;
      if (budgetSpent(why) || result.unloaded) mark.spent ??= why;
    }
    marks.set(key, mark);
  }
  const stopped: Record<string, string> = {};
  for (const { fn, answered, stopped: first, spent } of marks.values()) {
    const why = answered ? first : spent;
    if (why !== undefined && !Object.hasOwn(stopped, fn)) stopped[fn] = why;
  }
  return stopped;
}

/**
 * The graded functions of `ran` (a job's results) that passed a case, but
 * whose watermark probes a budget its learner's cases share ran out before
 * (their time, the unit's bytes), with why: they were never checked against
 * the seals, and a copy that spends it first (slow, or sending long replies)
 * would otherwise keep the marks it passed before.
 */
function untried(ran: readonly CaseResult[]): Record<string, string> {
  const stopped: Record<string, string> = {};
  for (const result of ran) {
    const { fn, watermark, unanswered } = result;
    if (watermark === undefined || unanswered === undefined || !budgetSpent(unanswered)) {
      continue;
    }
    const passed = ran.some((other) =>
      other.fn === fn && other.watermark === undefined && other.status === "PASS"
    );
    if (passed && !Object.hasOwn(stopped, fn)) stopped[fn] = unanswered;
  }
  return stopped;
}

/** What the analysis found of a learner's piece of code: the module and its copies, or why it is unchecked. */
type Found = { module?: string; copied?: Record<string, string[]>; unchecked?: string };

/**
 * How many times a module is made again without a cell that stops it (those that do not parse,
 * then each that throws as it loads): below Lab 02's ServerLink, four classes extend one another.
 */
const RELOADS = 6;

/** A first run of learners' jobs, and what the steps after it share. */
interface FirstRun {
  scratch: Scratch;
  jobs: readonly UnitJob[];
  withCode: readonly (Submission & { key: string })[];
  /** What the analysis of each job's code found, by its key: changed where a module is made again. */
  analysed: Map<string, Found>;
  /** Each job's cases and what they came to, by its key: changed where a job is run again. */
  first: Map<string, Ran[]>;
  options: GradeOptions;
  budgets: Budgets;
}

/**
 * Run again, without the cells that stop them, the notebook modules of
 * `run` that did not load. A notebook's cell that does not parse stops all
 * of its module, where the kernel runs the other cells: such a module is made
 * again without the cells that do not parse on their own, and run again, its
 * functions in those cells failing for that. Deno's parser lets through what
 * V8 finds as it parses (await outside an async function), and a cell may
 * throw as the module loads (a class extending one whose cell was left out):
 * the results name that line of the module, and so its cell, left out in
 * turn, {@linkcode RELOADS} times at most.
 */
async function reloadWithoutStoppingCells(run: FirstRun): Promise<void> {
  const { scratch, first, analysed, options, budgets } = run;
  const leftOutOf = new Map<string, Record<string, string>>();
  // The results as the sandbox said them, before they say which cells were left out.
  const said = resultsOf(first);
  let candidates = run.jobs;
  for (let round = 0; round < RELOADS && candidates.length > 0; round++) {
    const atLoad = new Map(candidates.map((job) => {
      const url = scratch.modules.get(job.key!)!;
      const results = said.get(job.key!)!;
      // What Deno's parser stops at, its own check finds (the message is its, several lines).
      const found = didNotParse(results)
        ? {}
        : cellAtLoadError(results, url, () => moduleText(url));
      const before = leftOutOf.get(job.key!) ?? {};
      const located = Object.keys(found).some((id) => !Object.hasOwn(before, id)) ? found : {};
      return [job.key!, located];
    }));
    const reparsed = await withoutUnparsedCells(
      candidates.filter((job) =>
        (round === 0 && didNotParse(said.get(job.key!)!)) ||
        Object.keys(atLoad.get(job.key!)!).length > 0
      ),
      run.withCode,
      { shared: options.analysis, atLoad, before: leftOutOf },
    );
    for (const { job, module, found, leftOut } of reparsed) {
      await Deno.writeTextFile(new URL(scratch.modules.get(job.key!)!), module);
      analysed.set(job.key!, found);
      leftOutOf.set(job.key!, leftOut);
    }
    const jobs = reparsed.map(({ job }) => job);
    if (jobs.length === 0) break;
    const ran = pairsByKey(jobs, await runSandbox(scratch, jobs, options, budgets));
    for (const { job, leftOut } of reparsed) {
      said.set(job.key!, ran.get(job.key!)!.map(({ result }) => result));
      const spec = UNITS.get(job.unit)!;
      first.set(
        job.key!,
        ran.get(job.key!)!.map(({ testCase, result }) => ({
          testCase,
          result: saidLeftOut([result], spec, leftOut)[0],
        })),
      );
    }
    candidates = jobs;
  }
}

/**
 * `run.first` with each module handed in as one named as the learner's own
 * file where its results name the scratch copy (gone when the grader ends):
 * where its load stopped is a line of their file.
 */
function namedAsHandedIn({ jobs, withCode, scratch, first }: FirstRun): void {
  for (const job of jobs) {
    const code = withCode.find(({ key }) => key === job.key)?.code;
    if (code?.kind !== "module") continue;
    const url = scratch.modules.get(job.key!)!;
    first.set(
      job.key!,
      first.get(job.key!)!.map(({ testCase, result }) => ({
        testCase,
        result: { ...result, observed: result.observed.replaceAll(url, code.path) },
      })),
    );
  }
}

/** The text of the module at file URL `url`. */
function moduleText(url: string): string {
  return Deno.readTextFileSync(new URL(url));
}

/** A job whose module is made again without the cells of `leftOut`, and what its analysis found. */
interface Reparsed {
  job: UnitJob;
  module: string;
  leftOut: Record<string, string>;
  found: Found;
}

/**
 * Of `jobs` (modules that did not parse), each whose notebook has cells that
 * do not parse on their own, with its module made again without them (the
 * cell `atLoad` names for its job besides those left out `before`, or those
 * Deno's parser finds); one
 * whose every cell parses (the cells parse apart, not together) is left as
 * it was, as is one whose new module cannot be checked.
 */
async function withoutUnparsedCells(
  jobs: readonly UnitJob[],
  submissions: readonly (Submission & { key: string })[],
  { shared, atLoad, before }: {
    shared?: Analysis;
    atLoad: ReadonlyMap<string, Record<string, string>>;
    before: ReadonlyMap<string, Record<string, string>>;
  },
): Promise<Reparsed[]> {
  if (jobs.length === 0) return [];
  const analysis = shared ?? new Analysis();
  try {
    const made = await Promise.all(jobs.map(async (job): Promise<Reparsed | undefined> => {
      const submission = submissions.find(({ key }) => key === job.key)!;
      const spec = UNITS.get(job.unit)!;
      const located = submission.code?.kind === "notebook" ? atLoad.get(job.key!) ?? {} : {};
      const leftOut = Object.keys(located).length > 0
        ? { ...before.get(job.key!), ...located }
        : await cellsThatDoNotParse(submission, spec);
      if (Object.keys(leftOut).length === 0) return undefined;
      const found = await analysis.analyse({ ...submission, leftOut }, spec);
      if ("unchecked" in found || found.module === undefined) return undefined;
      return { job, module: found.module, leftOut, found };
    }));
    return made.filter((reparsed) => reparsed !== undefined);
  } finally {
    if (shared === undefined) await analysis.close();
  }
}

/** What the analysis of each piece of `learners`' code found, by the key of its job (`learner/unit`). */
async function analyseCode(
  learners: readonly Learner[],
  shared: Analysis | undefined,
): Promise<Map<string, Found>> {
  const analysis = shared ?? new Analysis();
  try {
    return new Map(
      await Promise.all(
        learners.flatMap((learner, index) =>
          learner.submissions.filter((submission) => submission.code !== undefined)
            .map(async (submission): Promise<[string, Found]> => {
              const found = await analysis.analyse(submission, UNITS.get(submission.unit)!);
              // Code that could not be checked is not run, even when its module was made.
              return [
                `${index}/${submission.unit}`,
                "unchecked" in found ? { unchecked: found.unchecked } : found,
              ];
            })
        ),
      ),
    );
  } finally {
    if (shared === undefined) await analysis.close();
  }
}

/**
 * `copied` (what `copied.ts` found, by graded function) with each graded
 * function of `unit` whose every watermark probe of a mark in `ran` was
 * answered as a seal answers it (`marksAnswered`), where its sealed copies'
 * form was not found already.
 */
function withWatermarks(
  copied: Record<string, string[]> = {},
  ran: readonly CaseResult[],
  unit: string,
): Record<string, string[]> {
  const found = { ...copied };
  for (const fn of UNITS.get(unit)!.functions) {
    const marks = marksAnswered(ran.filter((result) => result.fn === fn.name));
    if (marks.length === 0) continue;
    const known = Object.hasOwn(found, fn.name) ? found[fn.name] : [];
    const names = (fn.library ?? []).map(({ name }) => name)
      .filter((name) =>
        (marks.includes("") || marks.includes(name)) && !known.includes(`${name}, sealed`)
      );
    if (names.length === 0) continue;
    found[fn.name] = [
      ...known,
      `${
        names.join(" or ")
      }, sealed, run in another form (its watermark answered the grader's probes)`,
    ];
  }
  return found;
}

/**
 * `results` with a test for each of Lab 02's saved files, when the learner's
 * work holds them (`work/lab-02/`): the transcript, and results.json against it.
 */
function withFileChecks(results: Results, checks: FileCheck[] | undefined): Results {
  if (checks === undefined) return results;
  const tests: TestResult[] = checks.map((check) => ({
    name: `lab-02 files: ${
      check.name === "transcript"
        ? "transcript.txt is the canonical flow, its lines sent the reference's"
        : "results.json is valid and agrees with the transcript"
    }`,
    score: check.passed ? 1 : 0,
    max_score: 1,
    status: check.passed ? "passed" : "failed",
    output: check.passed ? "" : check.problems.join("\n"),
    visibility: "visible",
  }));
  return {
    ...results,
    score: results.score + tests.reduce((sum, test) => sum + test.score, 0),
    max_score: results.max_score + tests.length,
    tests: [...results.tests, ...tests],
  };
}

/** Lab 02's saved files checked, for a submission whose work holds them. */
async function checkFiles(submission: Submission): Promise<FileCheck[] | undefined> {
  if (submission.unit !== "lab-02" || submission.files === undefined) return undefined;
  const read = (path: string | undefined) =>
    path === undefined
      ? Promise.resolve(undefined)
      : Deno.readTextFile(path).catch(() => undefined);
  return await lab02FileChecks(
    {
      transcript: await read(submission.files.transcript),
      results: await read(submission.files.results),
    },
    await readReferences(),
  );
}

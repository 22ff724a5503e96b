/**
 * Run learners' code against every case of their units, apart from the
 * grader: in a `deno run` process that may read no file but its scratch
 * folders, reach no network, read no environment and start no process, and
 * may load modules only from those folders (and npm packages only from
 * Deno's cache, at the versions of the lock file). The process gets every
 * case at once, on stdin, and runs the visible ones first; the hidden ones
 * then run in realms of their own, after the visible ones' results have come
 * back. The process's limits (output, memory, CPU time) are counted by the
 * kernel for all its threads, and it is killed when its output ends, so
 * that nothing it started outlives it: given one learner's jobs, as the
 * class grader gives them, every limit is that learner's. Several learners
 * ({@linkcode UnitJob.learner}) may share a process, for code the course
 * trusts: each learner's realms read only that learner's folder, and each
 * has a budget of their own. What comes back is judged here, where no
 * learner code runs.
 *
 * Budgets are CPU time, which a busy machine does not use up: a case that
 * uses all of `caseCpuMs` has failed, wherever it ran. One that waits past
 * the wall-clock backstop (`caseWallMs`) with a core free to it (its threads
 * ran or waited for one under a quarter of that time) waited on its own, and
 * has failed too, as a stop: its function's next cases are tried in a new
 * process. One that waited past it for a core beside other sandboxes is run
 * again alone, with no other sandbox of this grader running, before it fails.
 * A loop, a throw, `Deno.exit`, a memory bomb or a flood of output costs the
 * cases it touches, and nothing else; and whatever the code does, a learner's
 * grading ends within `learnerWallMs` of its processes' time (time the
 * grader's own event loop was held, judging a classmate's replies, is not
 * theirs, nor is time their processes waited for a core: a learner whose
 * right code is slow keeps beside busy classmates what it keeps alone).
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { deserialize, serialize } from "node:v8";
import { isDeepStrictEqual } from "node:util";
import { fileURLToPath } from "node:url";
import { dirname } from "node:path";
import { type GradeRow, judge, type Outcome } from "../../lib/grading/grading.ts";
import { differencesOf, jsonDifferences } from "../../lib/grading/json_differences.ts";
import type { Scratch } from "./scratch.ts";
import type { GradedCase, GradedFunction } from "./spec.ts";
import type { CaseKind, Reply, RunnerItem, RunnerJob } from "./sandbox_runner.ts";
import { Gate } from "./gate.ts";
import { suiteMarkEnv } from "../suite_mark.ts";
import { answersAsSeal } from "./watermark.ts";
import { processUsage as usage } from "./process_usage.ts";
import { killGroup, spawnInOwnSession } from "./own_session.ts";
import { RunnableTime } from "./runnable_time.ts";
import { writtenSize } from "./written_size.ts";

/** One case's outcome. */
export interface CaseResult {
  unit: string;
  fn: string;
  case: string;
  hidden: boolean;
  status: "PASS" | "FAIL" | "UNFINISHED";
  /** What was observed (for a hidden case, only whether it passed). */
  observed: string;
  /** The library's own copies of graded functions the learner's code reached, in this case. */
  reached?: string[];
  /** The StrykerJS mutants the case's code reached, when {@linkcode SandboxOptions.coverage} asks. */
  covered?: string[];
  /** For a probe of the seals' watermark, never a mark: whether it was answered as a seal answers it. */
  watermark?: boolean;
  /** For a probe that is a twin (`GradedCase.twin`): `true`. */
  twin?: boolean;
  /** For a case that came to no answer (a time-out, an exit, the learner's time spent): what stopped it. */
  unanswered?: string;
  /** For a probe whose realm's module did not load: `true` (its call never reached the function). */
  unloaded?: true;
  /** The group of hidden cases it earns its mark with (`HiddenCase.group`). */
  group?: string;
}

/** The cases to run for one unit: its functions, each with every case it must pass. */
export interface UnitJob {
  unit: string;
  /** The learner module's key in the scratch folder. @default {the unit} */
  key?: string;
  /** The learner it is a part of: the jobs of one learner share one budget. @default {its key} */
  learner?: string;
  functions: (
    & Pick<GradedFunction, "name" | "driver" | "normalize" | "quiet" | "withReference" | "explain">
    & { cases: GradedCase[] }
  )[];
}

/** Options for {@linkcode runSandbox}. */
export interface SandboxOptions {
  /** The CPU time a case (or one load of the learner's module) may use. @default {1000} */
  caseCpuMs?: number;
  /** The wall-clock time after which a case that is still waiting has timed out. @default {10000} */
  caseWallMs?: number;
  /** The most memory a process may hold (resident, ArrayBuffers included). @default {512 MiB} */
  memoryBytes?: number;
  /**
   * The wall-clock time all of one learner's processes may take together, but
   * for the time they waited for a core (a busy machine's, not theirs). @default {60000}
   */
  learnerWallMs?: number;
  /** The CPU time all of one learner's processes may use together. @default {60000} */
  learnerCpuMs?: number;
  /**
   * The bytes all of one unit's replies may come in together, as sent (each
   * case's, over all its processes): the grader holds every reply of a run
   * until the last is in. @default {2 MiB}
   */
  unitReplyBytes?: number;
  /**
   * The most threads a process may run at once (its realms, the workers they
   * start, the runtime's own). @default {64 and one for each of the machine's CPUs}
   */
  threads?: number;
  /**
   * Whether each case reports which mutants of StrykerJS's instrumented code
   * it reached (for mutation testing; never for a learner). @default {false}
   */
  coverage?: boolean;
}

/** The runner, as the scratch folder holds it (the fence lets nothing else load). */
const RUNNER = "tools/grading/sandbox_runner.ts";
/** The most output a process may write before it is stopped. */
const OUTPUT_LIMIT = 8 << 20;
/**
 * The bytes the replies of one of a learner's units may come in (a unit's,
 * so that one function's mistake costs no other unit's cases): a reply is
 * held in the grader, as objects, until the last of its run is in, and an empty object sent in 3
 * bytes takes about 21 times that there, so that one unit holds 45 MB of the
 * grader's heap at most, a learner of seven units 310 MB (eight graded at
 * once, 2.5 GB, within V8's 4 GB). The most a unit's worked edition sends is
 * 200 KB (Lab 02's).
 */
const REPLY_BYTES = 2 << 20;
/**
 * The bytes one case's reply may come in: a larger one is a problem of that
 * case alone, not held, and not taken from {@linkcode REPLY_BYTES}, so that a
 * function that returns a long string by mistake costs its own cases, not
 * every case after it of every unit. The largest a case of a unit's worked
 * edition sends is 70 KB (Lab 02's RpcLink).
 */
const CASE_BYTES = 256 << 10;
/** The problem of a case's reply past {@linkcode CASE_BYTES}, whether the runner or the grader finds it. */
const CASE_TOO_LARGE = `what it sent back passed the ${CASE_BYTES >> 10} KB a case may`;
/** How often a process's memory and CPU time are read. */
const POLL_MS = 10;
/**
 * The most wall-clock time one reading of a process charges its learner.
 * Readings come every {@linkcode POLL_MS}; a longer gap is time the grader's
 * own event loop was held (judging a classmate's replies, with a classmate's
 * code in the grader's readers), while the process went on, or waited for
 * the grader to read what it wrote: its learner is not charged for it.
 */
const GAP_MS = 250;
/** How often the run and run-queue time of a running case's threads are read. */
const SAMPLE_MS = 200;
/** The most threads a process may run at once, unless the options say otherwise. */
const THREADS = 64 + navigator.hardwareConcurrency;
/**
 * Stops (a case that waited on its own, memory, output, an exit) after which
 * a function's remaining cases are not tried.
 */
const MAX_STOPS = 2;
/** The drivers' kinds of case. */
const KINDS: Record<string, CaseKind> = {
  "tools/grading/drivers/lab_02_client.ts": "client",
  "tools/grading/drivers/lab_03_decode.ts": "model",
  "tools/grading/drivers/lab_02_tests.ts": "test",
};

/** Sandboxes run shared, and a case is run again alone: the gate every sandbox of this process passes. */
const gate = new Gate();

/**
 * Grade the modules in `scratch` against `jobs`, visible cases before hidden
 * ones. Every case gets a result, in the order of `jobs`. Each learner's
 * time is taken from `budgets` (a run of its own, unless it is given).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeScratch } from "./scratch.ts";
 *
 * await using scratch = await makeScratch([], new Map());
 * assert.deepEqual(await runSandbox(scratch, []), []);
 * ```
 */
export async function runSandbox(
  scratch: Scratch,
  jobs: readonly UnitJob[],
  options: SandboxOptions = {},
  budgets: Budgets = new Budgets(options),
): Promise<CaseResult[]> {
  const cases = jobs.flatMap((job) =>
    job.functions.flatMap((fn) => fn.cases.map((testCase, index) => ({ job, fn, index, testCase })))
  );
  const shared = await observed(cases, await runRounds(scratch, cases, options, budgets, false));
  const judgedHere = new Map(cases.map((c) => [keyOf(c), judged(c, shared.get(keyOf(c))!)]));
  // What a time limit decided is run again alone: a case that ran out of time waiting for a
  // core (and the cases of its function after it), and a case that failed while a step was
  // still waiting.
  const again = cases.filter((c) => {
    const reply = shared.get(keyOf(c))!;
    return reply.deferred === true ||
      (reply.timed === true && !reply.spent && !reply.waited &&
        judgedHere.get(keyOf(c))!.status === "FAIL");
  });
  const alone = again.length > 0
    ? await observed(again, await runRounds(scratch, again, options, budgets, true))
    : new Map<string, Reply>();
  return cases.map((c) => {
    const reply = alone.get(keyOf(c));
    return reply === undefined ? judgedHere.get(keyOf(c))! : judged(c, reply);
  });
}

interface PhaseCase {
  job: UnitJob;
  fn: UnitJob["functions"][number];
  index: number;
  testCase: GradedCase;
}

const moduleOf = (job: UnitJob) => job.key ?? job.unit;
const learnerOf = (job: UnitJob) => job.learner ?? moduleOf(job);
const keyOf = (c: PhaseCase) => `${moduleOf(c.job)}\n${c.fn.name}\n${c.index}`;
const fnKey = (c: PhaseCase) => `${moduleOf(c.job)}\n${c.fn.name}`;

/**
 * What is left of one learner's time, wall-clock and CPU, over all their
 * processes, and of the bytes each of their units' replies may come in.
 */
class Budget {
  wallMs: number;
  cpuMs: number;
  readonly seconds: number;
  readonly #replyBytes: number;
  /** What is left of the bytes each unit's replies may come in, by the unit's module key. */
  readonly #replies = new Map<string, number>();
  constructor(options: SandboxOptions) {
    this.wallMs = options.learnerWallMs ?? 60_000;
    this.cpuMs = options.learnerCpuMs ?? 60_000;
    this.#replyBytes = options.unitReplyBytes ?? REPLY_BYTES;
    this.seconds = this.wallMs / 1000;
  }
  /** Whether the learner's time ran out. */
  get spent(): boolean {
    return this.wallMs <= 0 || this.cpuMs <= 0;
  }
  /** Why a case was not tried once the learner's time is spent. */
  get why(): string {
    return `not tried: the ${this.seconds} s this learner's grading may take ran out`;
  }
  /** Take `bytes` from what the replies of the unit `module` may come in: whether they are still within it. */
  sent(module: string, bytes: number): boolean {
    const left = (this.#replies.get(module) ?? this.#replyBytes) - bytes;
    this.#replies.set(module, left);
    return left >= 0;
  }
  /** Why a case of the unit `module` is not tried, if its learner's time or its unit's bytes are spent. */
  spentFor(module: string): string | undefined {
    if (this.spent) return this.why;
    if ((this.#replies.get(module) ?? 0) < 0) return `not tried: ${this.sentTooMuch}`;
  }
  /** The problem of a reply past the bytes a unit's replies may come in. */
  get sentTooMuch(): string {
    return `what this unit's code sent back, over its cases, passed the ${
      this.#replyBytes / (1 << 20)
    } MB it may`;
  }
}

/**
 * Whether `problem` (why a case came to no answer) is a budget its cases
 * share running out, before the case or during it: its learner's time, or
 * the bytes its unit's replies may come in. Such a case was not asked, or
 * not heard, for what came before it, and no later run of the learner's
 * has the budget to ask it again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(budgetSpent("not tried: the 60 s this learner's grading may take ran out"));
 * assert.ok(budgetSpent("the 1.5 s this learner's grading may take ran out"));
 * assert.ok(budgetSpent("not tried: what this unit's code sent back, over its cases, passed the 2 MB it may"));
 * assert.ok(!budgetSpent("not tried: a case before it ran out of time"));
 * ```
 */
export function budgetSpent(problem: string): boolean {
  return /^(not tried: )?(the \d+(\.\d+)? s this learner's grading may take ran out|what this unit's code sent back, over its cases, passed the \d+(\.\d+)? MB it may)$/
    .test(problem);
}

/**
 * Each learner's {@linkcode Budget}, made the first time it is asked for:
 * one set serves every run of a learner's grading, so that their time is
 * one budget however many runs it takes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const budgets = new Budgets({ learnerWallMs: 1000 });
 * assert.equal(budgets.of("alice"), budgets.of("alice"));
 * assert.notEqual(budgets.of("alice"), budgets.of("bob"));
 * assert.ok(!budgets.of("alice").spent);
 * ```
 */
export class Budgets {
  readonly #options: SandboxOptions;
  readonly #each = new Map<string, Budget>();
  constructor(options: SandboxOptions) {
    this.#options = options;
  }
  of(learner: string): Budget {
    let budget = this.#each.get(learner);
    if (budget === undefined) this.#each.set(learner, budget = new Budget(this.#options));
    return budget;
  }
}

/**
 * Run `cases` to a reply each, in as many processes as it takes: a process
 * that stops costs the case it was running, and a new one goes on with the
 * rest. A case (or a module's load) that uses its whole CPU time fails, and
 * so do the rest of its function's (or module's) cases, untried. One that
 * waited past the wall-clock backstop on its own (`waited`) has failed as a
 * stop: its function's next cases are tried in a new process, as after an
 * exit (a module's load, as one out of CPU time). Beside other sandboxes
 * (not `alone`), one that waited for a core leaves the rest of its function
 * (or module) to be run again alone (`deferred`); run `alone`, it fails as
 * one out of CPU time does.
 */
async function runRounds(
  scratch: Scratch,
  cases: readonly PhaseCase[],
  options: SandboxOptions,
  budgets: Budgets,
  alone: boolean,
): Promise<Map<string, Reply>> {
  const replies = new Map<string, Reply>();
  const stops = new Map<string, number>();
  const outOfTime = new Set<string>();
  const loadOutOfTime = new Set<string>();
  // What a case that used its whole CPU time leaves untried has failed; what one that waited
  // leaves is run again alone.
  const spentFns = new Set<string>();
  const spentModules = new Set<string>();
  const later = (why: string, spent: boolean): Reply =>
    spent
      ? { problem: `not tried: ${why}` }
      : alone
      ? { problem: `not tried: ${why}, alone` }
      : { problem: "left to be run again alone", deferred: true };
  while (true) {
    const left = cases.filter((c) => !replies.has(keyOf(c)));
    for (const c of left) {
      const spentBudget = budgets.of(learnerOf(c.job)).spentFor(moduleOf(c.job));
      if (loadOutOfTime.has(moduleOf(c.job))) {
        const spent = spentModules.has(moduleOf(c.job));
        replies.set(keyOf(c), { ...later("the module did not finish loading", spent), load: true });
      } else if (outOfTime.has(fnKey(c))) {
        replies.set(keyOf(c), later("a case before it ran out of time", spentFns.has(fnKey(c))));
      } else if ((stops.get(fnKey(c)) ?? 0) >= MAX_STOPS) {
        replies.set(keyOf(c), { problem: `not tried after ${MAX_STOPS} cases that were stopped` });
      } else if (spentBudget !== undefined) {
        replies.set(keyOf(c), { problem: spentBudget });
      }
    }
    const pending = left.filter((c) => !replies.has(keyOf(c)));
    if (pending.length === 0) return replies;
    const release = alone ? await gate.alone() : await gate.shared();
    let run: ProcessRun;
    try {
      run = await runProcess(scratch, pending, options, budgets);
    } finally {
      release();
    }
    for (const [key, reply] of run.replies) replies.set(key, reply);
    const inFlight = run.started !== undefined && !run.replies.has(run.started)
      ? pending.find((c) => keyOf(c) === run.started)
      : undefined;
    if (inFlight !== undefined) {
      replies.set(keyOf(inFlight), { problem: run.stopped, timed: run.timedOut });
    }
    for (const c of pending) {
      const reply = replies.get(keyOf(c));
      if (reply?.timed && "problem" in reply) {
        if (reply.waited && !reply.load) {
          // No machine would have run it sooner, and what comes after it may still answer.
          stops.set(fnKey(c), (stops.get(fnKey(c)) ?? 0) + 1);
          continue;
        }
        if (reply.load) loadOutOfTime.add(moduleOf(c.job));
        else outOfTime.add(fnKey(c));
        if (reply.spent || reply.waited) {
          (reply.load ? spentModules : spentFns).add(reply.load ? moduleOf(c.job) : fnKey(c));
        } else if (!alone) replies.set(keyOf(c), { ...reply, deferred: true });
      }
    }
    if (inFlight !== undefined && !run.timedOut && !budgets.of(learnerOf(inFlight.job)).spent) {
      stops.set(fnKey(inFlight), (stops.get(fnKey(inFlight)) ?? 0) + 1);
    }
    if (run.replies.size === 0 && inFlight === undefined) {
      // The process reported nothing at all: nothing would go better a second time.
      for (const c of pending) replies.set(keyOf(c), { problem: run.stopped });
    }
  }
}

/** What one process did: the replies it gave, the case it was running when it ended, and why it ended. */
interface ProcessRun {
  replies: Map<string, Reply>;
  started?: string;
  stopped: string;
  timedOut: boolean;
}

/** Run one process on `cases` (visible ones first, hidden ones after, in realms of their own) until it ends. */
async function runProcess(
  scratch: Scratch,
  cases: readonly PhaseCase[],
  options: SandboxOptions,
  budgets: Budgets,
): Promise<ProcessRun> {
  const nonce = crypto.randomUUID();
  // In a session of its own: the kernel shares the machine between learners' processes, not
  // between their threads, and the process goes with anything it started.
  const child = spawnInOwnSession([
    Deno.execPath(),
    "run",
    "--no-prompt",
    "--no-remote",
    "--cached-only",
    "--no-config",
    `--import-map=${scratch.importMap}`,
    `--lock=${scratch.lock}`,
    "--frozen",
    // V8 keeps its helper threads: `--single-threaded` saved 2 to 3 % of row 6's CPU time but made a
    // long loop wait for its optimized code, 1.4 times its CPU, and `--single-threaded-gc` saved
    // nothing measurable (BENCHMARKS.md, row 6). Its two middle tiers (Sparkplug, Maglev) do not
    // compile: in a process that lives for one learner they cost more than they give back (both off,
    // 4 to 9 ms of CPU less for a right Unit B or a wrong Unit A learner's 95 to 120; either alone,
    // 1 to 3), and what runs long is TurboFan's either way (a loop of 1e8 rounds in one call, or a
    // hog's 48 calls of 3e6, costs the same CPU), so no case nears its budget sooner. No WebAssembly
    // module compiles: a learner's realm has no WebAssembly (a JavaScript engine compiled to it is a
    // realm where the grader's mark is not: realm/graded_realm.ts), and a module imported as one
    // (`data:application/wasm;base64,...`) is compiled without it.
    "--v8-flags=--max-old-space-size=256,--wasm-max-module-size=0,--no-sparkplug,--no-maglev",
    // A learner's realms may read less than the process: their own folder, never a classmate's.
    "--unstable-worker-options",
    // A worker loads modules only with leave to read them: the scratch folders hold nothing secret.
    `--allow-read=${scratch.base},${scratch.folder}`,
    fileURLToPath(scratch.file(RUNNER)),
  ], {
    clearEnv: true,
    env: { NO_COLOR: "1", PATH: "/usr/bin:/bin", DENO_DIR: scratch.denoDir, ...suiteMarkEnv() },
    stdin: "piped",
    stdout: "piped",
    stderr: Deno.env.get("GRADE_SANDBOX_STDERR") ? "inherit" : "null",
  });
  const run: ProcessRun = { replies: new Map(), stopped: "", timedOut: false };
  const stop = (why: string, timedOut = false) => {
    if (run.stopped === "") {
      run.stopped = why;
      run.timedOut = timedOut;
    }
    killGroup(child);
  };
  const memoryBytes = options.memoryBytes ?? 512 << 20;
  const threads = options.threads ?? THREADS;
  // The learner whose case runs is charged the time the process spends, from one reading to the
  // next: all its CPU time, and its wall-clock time while the grader watched (GAP_MS at most from
  // one reading to the next), but for the time it waited for a core (read every SAMPLE_MS), which
  // a busy machine, a classmate's process among others, took from it.
  const learners = new Map(cases.map((c) => [keyOf(c), learnerOf(c.job)]));
  let budget = budgets.of(learnerOf(cases[0].job));
  let charged = { at: performance.now(), cpuMs: 0, wallMs: 0 };
  const charge = (cpuMs: number) => {
    const at = performance.now();
    const wallMs = Math.min(at - charged.at, GAP_MS);
    budget.wallMs -= wallMs;
    budget.cpuMs -= cpuMs - charged.cpuMs;
    charged = { at, cpuMs, wallMs: charged.wallMs + wallMs };
  };
  const queue = { clock: new RunnableTime(child.pid), sampled: performance.now() };
  queue.clock.sample();
  const giveBackQueued = () => {
    queue.clock.sample();
    queue.sampled = performance.now();
    budget.wallMs += Math.min(queue.clock.queuedMs, charged.wallMs);
    charged.wallMs = 0;
  };
  try {
    usage(child.pid);
  } catch (error) {
    stop("the grader cannot watch it");
    await child.status;
    throw error;
  }
  // How long the process's threads ran or waited for a core while the case now running waited,
  // read from SAMPLE_MS after it began (most cases end before: they cost no reading).
  let running: { runnable: RunnableTime; sampled: number } | undefined;
  const watch = setInterval(() => {
    if (running !== undefined && performance.now() - running.sampled >= SAMPLE_MS) {
      running.runnable.sample();
      running.sampled = performance.now();
    }
    const now = usage(child.pid);
    if (now.resident === 0) return;
    charge(now.cpuMs);
    if (performance.now() - queue.sampled >= SAMPLE_MS) giveBackQueued();
    if (now.resident > memoryBytes) stop(`its memory passed ${memoryBytes >> 20} MB`);
    else if (now.threads > threads) stop(`it ran more than ${threads} threads at once`);
    else if (budget.spent) stop(budget.why.replace("not tried: ", ""));
  }, POLL_MS);

  const job: RunnerJob = {
    nonce,
    worker: scratch.worker,
    readable: Object.fromEntries(scratch.readable),
    cpuMs: options.caseCpuMs ?? 1000,
    wallMs: options.caseWallMs ?? 10_000,
    caseBytes: CASE_BYTES,
    caseTooLarge: CASE_TOO_LARGE,
    references: Object.fromEntries(scratch.references),
    units: Object.fromEntries(scratch.units),
    coverage: options.coverage,
    phases: phasesOf(cases).map((phase) => items(scratch, phase)),
  };
  // The job, after its length; the process's input then stays open, and ends only when the
  // grader is done with it (or has gone), which ends the process too.
  const bytes = serialize(job);
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, bytes.length);
  const writer = child.stdin.getWriter();
  await writer.write(length).then(() => writer.write(bytes)).catch(() => {});
  try {
    for await (const line of lines(child.stdout, () => stop("it printed too much"))) {
      if (!line.startsWith(`${nonce} `)) continue;
      let record: { started?: Key; result?: Key; reply?: Reply };
      const bytes = Buffer.from(line.slice(nonce.length + 1), "base64");
      try {
        record = deserialize(bytes);
      } catch {
        continue;
      }
      if (record.started) {
        run.started = keyText(record.started);
        running = { runnable: new RunnableTime(child.pid), sampled: performance.now() };
        const learner = learners.get(run.started);
        if (learner !== undefined && budgets.of(learner) !== budget) {
          charge(usage(child.pid).cpuMs || charged.cpuMs);
          giveBackQueued();
          budget = budgets.of(learner);
        }
      }
      if (record.result && record.reply) {
        const key = keyText(record.result);
        const owner = budgets.of(learners.get(key) ?? learnerOf(cases[0].job));
        const { reached, cpuMs } = record.reply;
        const reply = bytes.length > CASE_BYTES
          ? { problem: CASE_TOO_LARGE, reached, cpuMs }
          : !owner.sent(record.result.key, bytes.length)
          ? { problem: owner.sentTooMuch, reached, cpuMs }
          : judgeable(record.reply, bytes.length);
        run.replies.set(key, waitedOnItsOwn(reply, running));
      }
    }
  } finally {
    clearInterval(watch);
    // Its output has ended, and so has this turn: whatever the process still runs (a worker a
    // realm started, work on the runtime's blocking pool) ends with it, now.
    killGroup(child);
    await writer.close().catch(() => {});
    const status = await child.status;
    charge(charged.cpuMs);
    giveBackQueued();
    if (run.stopped === "") {
      run.stopped = status.code === 3
        ? "it ran out of time"
        : status.signal === null
        ? `the sandbox ended (exit ${status.code}) during this case`
        : "the sandbox ended during this case";
    }
  }
  return run;
}

/**
 * The least written size ({@linkcode writtenSize}) past which a reply is too
 * large to judge, however few bytes it came in; past it, no more than
 * {@linkcode SIZE_PER_BYTE} times those bytes.
 */
const JUDGEABLE_SIZE = 1 << 20;
/** A reply written out in full is at most about as long as its serialized bytes: this leaves room for more. */
const SIZE_PER_BYTE = 4;

/**
 * `reply` (`bytes` long, serialized), or a problem where written out in full
 * it would pass {@linkcode JUDGEABLE_SIZE} and {@linkcode SIZE_PER_BYTE} times
 * its bytes: an object reached many times over (a structured clone keeps it
 * shared), an array of mostly holes, a BigInt whose decimal digits cost far
 * more than its bytes. The grader compares, walks and writes a reply as JSON
 * in its own event loop: what it does for one is bounded by the bytes that
 * came, never by the learner's choice of shape.
 */
function judgeable(reply: Reply, bytes: number): Reply {
  const limit = Math.max(JUDGEABLE_SIZE, SIZE_PER_BYTE * bytes);
  if (writtenSize(reply, limit) <= limit) return reply;
  return {
    problem: "what it sent back is too large to judge: written out in full, it passes " +
      `${limit} characters (an object it holds many times over, an array of holes, a BigInt ` +
      "of more than 4096 bits)",
    reached: reply.reached,
    cpuMs: reply.cpuMs,
  };
}

/**
 * `reply` as judged: a case that timed out while the process's threads ran
 * or waited for a core less than a quarter of the time it was watched
 * (`running`) waited on its own, not for a core (`waited`): run again alone,
 * it would only wait as long again with every other sandbox held. A case
 * that was runnable for longer, or not watched, is left as it is, to be run
 * again alone.
 */
function waitedOnItsOwn(reply: Reply, running: { runnable: RunnableTime } | undefined): Reply {
  if (!reply.timed || reply.spent || running === undefined || !("problem" in reply)) return reply;
  const { runnable } = running;
  runnable.sample();
  if (runnable.span < SAMPLE_MS || runnable.ms >= runnable.span / 4) return reply;
  return { ...reply, problem: `${reply.problem}, waiting with a core free to it`, waited: true };
}

interface Key {
  key: string;
  fn: string;
  index: number;
}

const keyText = (key: Key) => `${key.key}\n${key.fn}\n${key.index}`;

/**
 * `cases` in the phases the runner runs in realms of their own: the visible
 * ones, then the hidden ones of each {@linkcode GradedCase.realm}, in order.
 */
function phasesOf(cases: readonly PhaseCase[]): PhaseCase[][] {
  const realmOf = (c: PhaseCase) => c.testCase.realm ?? 0;
  const hidden = cases.filter((c) => c.testCase.hidden);
  const realms = [...new Set(hidden.map(realmOf))].sort((a, b) => a - b);
  return [
    cases.filter((c) => !c.testCase.hidden),
    ...realms.map((realm) => hidden.filter((c) => realmOf(c) === realm)),
  ];
}

/** The runner's items for `cases`, grouped by function, in order. */
function items(scratch: Scratch, cases: readonly PhaseCase[]): RunnerItem[] {
  const found: RunnerItem[] = [];
  for (const { job, fn, index, testCase } of cases) {
    let item = found.find((i) => i.key === moduleOf(job) && i.fn === fn.name);
    if (item === undefined) {
      const module = scratch.modules.get(moduleOf(job));
      item = {
        key: moduleOf(job),
        fn: fn.name,
        kind: fn.driver === undefined ? "call" : KINDS[fn.driver] ?? "call",
        module: module ?? "data:text/javascript,",
        folder: module === undefined ? undefined : dirname(fileURLToPath(module)),
        quiet: fn.quiet ?? false,
        cases: [],
      };
      found.push(item);
    }
    item.cases.push({ index, args: testCase.args });
  }
  return found;
}

/**
 * `replies` with what each returned value of a case the grader observes
 * (`observe`) was seen to do, or the problem that stopped the observing.
 */
async function observed(
  cases: readonly PhaseCase[],
  replies: Map<string, Reply>,
): Promise<Map<string, Reply>> {
  for (const c of cases) {
    const reply = replies.get(keyOf(c));
    if (c.testCase.observe === undefined || reply === undefined || !("returned" in reply)) continue;
    try {
      replies.set(keyOf(c), { ...reply, returned: await c.testCase.observe(reply.returned) });
    } catch (error) {
      const { name, message } = error as Error;
      // An observation that timed out is a time limit's decision: run again alone, as one is.
      const timed = name === "TimeoutError";
      replies.set(keyOf(c), { problem: `${name}: ${message}`, reached: reply.reached, timed });
    }
  }
  return replies;
}

/** A reply, judged against its case, where no learner code runs. */
function judged({ job, fn, testCase }: PhaseCase, reply: Reply): CaseResult {
  const result = (
    status: CaseResult["status"],
    observed: string,
    notes: string[] = [],
  ): CaseResult => ({
    unit: job.unit,
    fn: fn.name,
    case: testCase.label,
    hidden: testCase.hidden,
    status,
    observed: testCase.hidden
      ? (status === "PASS" ? "passed" : "failed")
      : [brief(observed), ...notes].join("; "),
    ...(testCase.group !== undefined ? { group: testCase.group } : {}),
    ...(reply.reached?.length ? { reached: reply.reached } : {}),
    ...(reply.covered ? { covered: reply.covered } : {}),
  });
  if (testCase.probe !== undefined) {
    const normalize = testCase.observe === undefined ? fn.normalize : undefined;
    return {
      ...result("PASS", ""),
      watermark: answersAsSeal(reply, testCase.probe, normalize),
      ...(testCase.twin ? { twin: true } : {}),
      ...("problem" in reply ? { unanswered: String(reply.problem) } : {}),
      ...(reply.load ? { unloaded: true } : {}),
    };
  }
  if ("problem" in reply) {
    return {
      ...result(
        "FAIL",
        reply.exited === undefined || reply.load
          ? String(reply.problem)
          : `the module exited with code ${reply.exited} while running case "${testCase.label}"`,
      ),
      unanswered: String(reply.problem),
    };
  }
  const outcome = ("threw" in reply ? reply : { returned: reply.returned }) as Outcome;
  const graded = judge(testCase, outcome, {
    normalize: testCase.observe === undefined ? fn.normalize : undefined,
    changedInput: !isDeepStrictEqual(reply.after, testCase.args),
    printed: typeof reply.printed === "string" ? reply.printed : undefined,
  });
  // A driver's (or the grader's) observation is a whole record: say only where it differs.
  const whole = fn.driver !== undefined || testCase.observe !== undefined;
  const shown = whole && graded.status === "FAIL" && "returned" in outcome &&
      !isOutcome(graded.observed)
    ? jsonDifferences(testCase.expected, graded.observed, { limit: SHOWN_DIFFERENCES }).join("; ")
    : observedText(graded.observed);
  const said = graded.message === "" ? shown : `${shown} (${graded.message})`;
  return result(graded.status, said, explained(fn, graded));
}

/**
 * The most differences of a case's observation from its expected one the
 * grader finds (in its own event loop): more than its 200 characters show.
 * Past it, a learner's array of 100,000 items where one was expected cost
 * 0.3 s of the grader's loop a case, charged to nobody.
 */
const SHOWN_DIFFERENCES = 20;

/** The words `fn.explain` has for the first differences of a failed case, each said once. */
function explained(fn: Pick<GradedFunction, "explain">, graded: GradeRow): string[] {
  if (fn.explain === undefined || graded.status !== "FAIL") return [];
  const words = differencesOf(graded.expected, graded.observed, { limit: SHOWN_DIFFERENCES })
    .map((d) => fn.explain!(d, graded));
  return [...new Set(words.filter((word) => word !== undefined))];
}

/** Whether `value` is an outcome the judge wrote in words' place: `{ throws }` or `{ returned }`. */
function isOutcome(value: unknown): value is { throws: string } | { returned: unknown } {
  if (typeof value !== "object" || value === null) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === "returned" ||
    typeof (value as { throws?: unknown }).throws === "string";
}

/**
 * What a case observed, as its line in the report says it: a value as JSON
 * (a string in its quotes: `"live"` is never `live`), an error as `it threw
 * NAME`, a value where an error was expected as `it returned VALUE`, and
 * what the judge says in words (`changed its input`) as those words.
 */
function observedText(observed: unknown): string {
  if (observed === "changed its input" || observed === "printed on stdout") return observed;
  if (!isOutcome(observed)) return showValue(observed);
  if ("returned" in observed) return `it returned ${showValue(observed.returned)}`;
  const fields = Object.entries((observed as { with?: object }).with ?? {})
    .map(([key, value]) => `${key} ${showValue(value)}`);
  return `it threw ${observed.throws}${fields.length > 0 ? ` with ${fields.join(", ")}` : ""}`;
}

/** What was observed, in at most 200 characters. */
function brief(observed: string): string {
  return observed.length > 200 ? observed.slice(0, 200) + "…" : observed;
}

/** Any value as text: JSON where it can be, and never an exception (a BigInt, a cycle). */
function showValue(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** The lines of `stream`, dropping any longer than 1 MiB; `overflow` is called past the output limit. */
async function* lines(stream: ReadableStream<Uint8Array>, overflow: () => void) {
  const decoder = new TextDecoder();
  let pending = "";
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    if (total > OUTPUT_LIMIT) overflow();
    pending += decoder.decode(chunk, { stream: true });
    const parts = pending.split("\n");
    pending = parts.pop()!;
    if (pending.length > 1 << 20) pending = "";
    yield* parts;
  }
  if (pending !== "") yield pending;
}

// The sandbox's main thread. `deno run` starts it with no permission but to
// read one scratch folder: the worker, the library files it needs, and the
// learner's modules. It reads one job from stdin (a nonce, the worker, and
// for each unit the learner's module and every case, serialized with
// node:v8 so that bytes and sets arrive as they are), runs each graded
// function in a worker of its own, judges each case here, and writes one line
// per case, prefixed with the nonce, so that nothing the learner's code
// prints can pass for a result. Hidden cases reach this process only through
// stdin: no file the learner's code could read holds them.

import { deserialize } from "node:v8";
import { isDeepStrictEqual } from "node:util";
import { judge, type Outcome } from "../../lib/grading/grading.ts";
import { jsonDifferences } from "../../lib/grading/json_differences.ts";
import type { GradedCase } from "./spec.ts";
import { UNITS } from "./units/mod.ts";

/** Time-outs after which a function's remaining cases are not tried. */
const MAX_TIMEOUTS = 2;
/** The most a learner's module may take to load (its top-level code included). */
const LOAD_TIMEOUT_MS = 10_000;

interface Job {
  nonce: string;
  worker: string;
  caseTimeoutMs: number;
  units: {
    unit: string;
    module?: string;
    functions: GradedJob[];
  }[];
}

/** One function's cases, with the driver (a file URL) and reference source its cases need. */
interface GradedJob {
  name: string;
  cases: GradedCase[];
  driver?: string;
  reference?: string;
}

const write = Deno.stdout.writeSync.bind(Deno.stdout);
const encoder = new TextEncoder();
const job = deserialize(
  new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer()),
) as Job;
const report = (row: Record<string, unknown>) => {
  const line = encoder.encode(`\n${job.nonce} ${JSON.stringify(row)}\n`);
  for (let written = 0; written < line.length;) written += write(line.subarray(written));
};

/**
 * One unit's learner module in a worker: loaded when first needed, and loaded
 * afresh after a case that never finished (the worker may still be stuck).
 */
class LearnerWorker {
  #worker: Worker | undefined;
  #loaded: Promise<Record<string, unknown>> | undefined;

  constructor(readonly module: string) {}

  /** The names of the functions the module exports, or why it does not load. */
  async functions(): Promise<string[] | string> {
    if (this.#loaded === undefined) {
      this.#worker = new Worker(job.worker, { type: "module" });
      this.#loaded = exchange(this.#worker, { load: this.module }, LOAD_TIMEOUT_MS);
    }
    const loaded = await this.#loaded;
    return "loaded" in loaded
      ? loaded.loaded as string[]
      : `the code does not load: ${loaded.loadError ?? loaded.problem}`;
  }

  /**
   * Run one case of `fn` (through its driver, if it has one); what came back
   * or was thrown (and, when `quiet`, what it printed on stdout), or a
   * problem when it took too long.
   */
  call(fn: GradedJob, args: unknown[], quiet: boolean): Promise<Record<string, unknown>> {
    const message = { fn: fn.name, args, quiet, driver: fn.driver, reference: fn.reference };
    return exchange(this.#worker!, message, job.caseTimeoutMs);
  }

  /** End the worker; the next call loads the module again. */
  reset(): void {
    this.#worker?.terminate();
    this.#worker = undefined;
    this.#loaded = undefined;
  }
}

async function gradeFunction(
  unit: string,
  worker: LearnerWorker | undefined,
  fn: GradedJob,
): Promise<void> {
  const spec = UNITS.get(unit)?.functions.find((graded) => graded.name === fn.name);
  const { normalize, quiet = false } = spec ?? {};
  let stopped = worker === undefined ? "no code came for this unit" : "";
  let timeouts = 0;
  for (const [index, testCase] of fn.cases.entries()) {
    const row = (status: string, observed: string) =>
      report({ unit, fn: fn.name, index, ...resultRow(testCase, status, observed) });
    if (stopped === "") {
      const functions = await worker!.functions();
      if (typeof functions === "string") stopped = functions;
      else if (!functions.includes(fn.name)) stopped = `there is no function ${fn.name}`;
    }
    if (stopped !== "") {
      row("FAIL", stopped);
      continue;
    }
    const reply = await worker!.call(fn, testCase.args, quiet);
    if ("problem" in reply) {
      row("FAIL", String(reply.problem));
      worker!.reset();
      if (++timeouts >= MAX_TIMEOUTS) {
        stopped = `not tried after ${timeouts} cases that never finished`;
      }
      continue;
    }
    const outcome = ("threw" in reply ? reply : { returned: reply.returned }) as Outcome;
    const graded = judge(testCase, outcome, {
      normalize,
      changedInput: !isDeepStrictEqual(reply.after, testCase.args),
      printed: typeof reply.printed === "string" ? reply.printed : undefined,
    });
    // A driver's observation is a whole record: say only where it differs.
    const shown = fn.driver !== undefined && graded.status === "FAIL" && "returned" in outcome
      ? jsonDifferences(testCase.expected, graded.observed).join("; ")
      : showValue(graded.observed);
    row(graded.status, graded.message === "" ? shown : `${shown} (${graded.message})`);
  }
}

/** A case's result row, with what was observed in at most 200 characters. */
function resultRow(testCase: GradedCase, status: string, observed: string) {
  return {
    case: testCase.label,
    hidden: testCase.hidden,
    status,
    observed: observed.length > 200 ? observed.slice(0, 200) + "…" : observed,
  };
}

/** Any value as text: JSON where it can be, and never an exception (a BigInt, a cycle). */
function showValue(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Send `message` to the worker; its reply, or a problem when none came in time. */
function exchange(worker: Worker, message: unknown, ms: number): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => resolve({ problem: `did not finish within ${ms / 1000} s (or ended the run)` }),
      ms,
    );
    worker.onmessage = (event) => (clearTimeout(timer), resolve(event.data));
    worker.onerror = (event) => {
      event.preventDefault();
      clearTimeout(timer);
      resolve({ problem: `the code failed outside any case: ${event.message}`.slice(0, 300) });
    };
    try {
      worker.postMessage(message);
    } catch (error) {
      clearTimeout(timer);
      resolve({ problem: `the case could not be sent: ${(error as Error).message}` });
    }
  });
}

for (const unit of job.units) {
  // The reference solution is loaded only into a worker of its own: the
  // learner's code that is graded on its own never runs beside it.
  const workers = new Map<boolean, LearnerWorker>();
  for (const fn of unit.functions) {
    const withReference = fn.reference !== undefined;
    if (unit.module !== undefined && !workers.has(withReference)) {
      workers.set(withReference, new LearnerWorker(unit.module));
    }
    await gradeFunction(unit.unit, workers.get(withReference), fn);
  }
  for (const worker of workers.values()) worker.reset();
}
// A worker stuck in a loop cannot always be terminated; exiting ends it.
Deno.exit(0);

/**
 * What the grader learns from a learner's code before any of it runs: the
 * module the sandbox loads (a notebook's graded cells made one module, as the
 * kernel runs them) and the graded functions it copies from the library
 * (`copied.ts`). Both read the learner's code, which is hostile input, at a
 * cost that grows with its shape (the copy check fingerprints every block, at
 * depth times size): they run in a process of their own
 * (`analysis_runner.ts`, which may read nothing and runs no learner code),
 * never in the grader's event loop, and each has a budget of CPU time and
 * memory that the grader counts from outside, for that learner's code alone.
 * Code whose analysis passes its budget is that learner's outcome, named
 * ({@linkcode Unchecked}), and costs no one else anything: the process is
 * stopped, and a new one serves the next learner.
 *
 * @module
 */

import {
  type AnalysisMessage,
  type AnalysisReply,
  RUNNER,
  type UnitContext,
} from "./analysis_runner.ts";
import { copyForms } from "./copied.ts";
import { processUsage } from "./process_usage.ts";
import { killGroup, spawnInOwnSession } from "./own_session.ts";
import { courseCells } from "./scratch.ts";
import type { Submission } from "./collect.ts";
import type { UnitSpec } from "./spec.ts";
import { suiteMarkEnv } from "../suite_mark.ts";

/** What the analysis found: the module to load, and what it copies from the library, by graded function. */
export interface Analysed {
  module: string;
  copied: Record<string, string[]>;
}

/** Code whose analysis did not finish within its budget: why, and the module when it was made. */
export interface Unchecked {
  unchecked: string;
  module?: string;
}

/** Options for {@linkcode Analysis}. */
export interface AnalysisOptions {
  /** The CPU time each step of one learner's analysis may use. @default {2000} */
  cpuMs?: number;
  /** The most memory the process may hold while it analyses one learner's code. @default {512 MiB} */
  memoryBytes?: number;
  /** How many learners' code may be analysed at once, each in a process of its own. @default {1} */
  processes?: number;
}

/** The steps of an analysis, as its outcome names them. */
const STEPS = ["making a module of the notebook's cells", "the copy check"] as const;
/** How often a process's CPU time and memory are read. */
const POLL_MS = 10;
/** Past this much resident memory after a learner's code, the process makes way for a new one. */
const RECYCLE_BYTES = 128 << 20;
/** The heap the process's V8 may use: a learner's code that needs more has passed its budget. */
const HEAP_MB = 256;

/** Each unit's context (its library copies among it), made once per grader process. */
const contexts = new Map<string, Promise<UnitContext>>();

/** What analysing any learner's code of `spec`'s unit needs. */
async function unitContext(spec: UnitSpec): Promise<UnitContext> {
  return {
    spec: {
      imports: spec.imports,
      supportCells: spec.supportCells,
      functions: spec.functions.map(({ name, cell, parts }) => ({ name, cell, parts })),
    },
    // Undefined where this copy of the course has neither edition: then no cell is taken for added.
    courseCells: await courseCells(spec.unit).then((ids) => ids && [...ids]),
    forms: [...await copyForms(spec)],
  };
}

/**
 * Processes that analyse learners' code, each one learner's at a time, with
 * a budget for each learner. End them with `close()` (or `await using`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * await using analysis = new Analysis({ cpuMs: 500 });
 * const path = await Deno.makeTempFile({ suffix: ".ts" });
 * await Deno.writeTextFile(path, "export function authorize() { return false; }\n");
 * const found = await analysis.analyse({ unit: "ch14-a", code: { kind: "module", path } }, UNITS.get("ch14-a")!);
 * assert.ok("module" in found && !("unchecked" in found));
 * await Deno.writeTextFile(path, "function f() {" + "{".repeat(3000) + "a;".repeat(200) + "}".repeat(3000) + "}");
 * const nested = await analysis.analyse({ unit: "ch14-a", code: { kind: "module", path } }, UNITS.get("ch14-a")!);
 * assert.ok("unchecked" in nested);
 * assert.equal(nested.unchecked, "the copy check used more than 0.5 s of CPU time");
 * // The process that stopped is replaced, and the new one is told the unit's context.
 * await Deno.writeTextFile(path, "export function authorize() { return false; }\n");
 * assert.deepEqual(await analysis.analyse({ unit: "ch14-a", code: { kind: "module", path } }, UNITS.get("ch14-a")!), found);
 * await Deno.remove(path);
 * ```
 */
export class Analysis implements AsyncDisposable {
  readonly #limits: Limits;
  readonly #processes: number;
  readonly #idle: AnalysisProcess[] = [];
  readonly #all = new Set<AnalysisProcess>();
  readonly #waiting: ((process: AnalysisProcess) => void)[] = [];
  #closed = false;

  constructor(options: AnalysisOptions = {}) {
    this.#limits = { cpuMs: options.cpuMs ?? 2000, memoryBytes: options.memoryBytes ?? 512 << 20 };
    this.#processes = options.processes ?? 1;
  }

  /**
   * Analyse `submission`'s code (of unit `spec`): what it is made into and
   * copies, or why that could not be known within the budget. Throws `Error`
   * when the code cannot be made a module at all (a notebook that is not
   * one), saying why.
   */
  async analyse(submission: Submission, spec: UnitSpec): Promise<Analysed | Unchecked> {
    if (submission.code === undefined) throw new Error("there is no code to analyse");
    if (this.#closed) throw new Error("the analysis processes have been closed");
    let context = contexts.get(spec.unit);
    if (context === undefined) contexts.set(spec.unit, context = unitContext(spec));
    const code = {
      name: submission.code.path,
      kind: submission.code.kind,
      text: await Deno.readTextFile(submission.code.path),
      unit: spec.unit,
      leftOut: submission.leftOut,
    };
    await context;
    const process = await this.#take();
    let kept = true;
    try {
      const outcome = await process.analyse(code, context);
      kept = !("unchecked" in outcome) && process.resident() <= RECYCLE_BYTES;
      return outcome;
    } catch (error) {
      kept = false;
      throw error;
    } finally {
      this.#give(process, kept);
    }
  }

  /** Ends every process, and waits for them to exit. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#all].map((process) => process.end()));
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #take(): Promise<AnalysisProcess> {
    const idle = this.#idle.pop();
    if (idle !== undefined) return Promise.resolve(idle);
    if (this.#all.size < this.#processes) {
      const made = new AnalysisProcess(this.#limits);
      this.#all.add(made);
      return Promise.resolve(made);
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #give(process: AnalysisProcess, kept: boolean): void {
    let next = process;
    if (this.#closed) {
      this.#all.delete(process);
      void process.end();
      return;
    }
    if (!kept) {
      this.#all.delete(process);
      void process.end();
      next = new AnalysisProcess(this.#limits);
      this.#all.add(next);
    }
    const waiting = this.#waiting.shift();
    if (waiting !== undefined) waiting(next);
    else this.#idle.push(next);
  }
}

/** What each step of one learner's analysis may use: CPU time, and memory. */
type Limits = Required<Pick<AnalysisOptions, "cpuMs" | "memoryBytes">>;

/** One analysis process, which serves one request at a time. */
class AnalysisProcess {
  readonly #limits: Limits;
  readonly #child: Deno.ChildProcess;
  readonly #lines: AsyncIterator<string>;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  /** The units whose context this process holds. */
  readonly #units = new Set<string>();

  constructor(limits: Limits) {
    this.#limits = limits;
    this.#child = spawnInOwnSession([
      Deno.execPath(),
      "run",
      "--no-prompt",
      "--no-config",
      "--no-remote",
      `--v8-flags=--max-old-space-size=${HEAP_MB}`,
      RUNNER,
    ], {
      clearEnv: true,
      env: { NO_COLOR: "1", ...denoDir(), ...suiteMarkEnv() },
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    });
    this.#writer = this.#child.stdin.getWriter();
    this.#lines = lines(this.#child.stdout)[Symbol.asyncIterator]();
  }

  /** The memory it holds now. */
  resident(): number {
    return processUsage(this.#child.pid).resident;
  }

  /**
   * Analyse `code`, each step within the process's limits; its unit's
   * `context` is sent the first time the process analyses code of that unit.
   */
  async analyse(
    code: Omit<AnalysisMessage, "context">,
    context: Promise<UnitContext>,
  ): Promise<Analysed | Unchecked> {
    const { cpuMs, memoryBytes } = this.#limits;
    const message: AnalysisMessage = { ...code };
    if (!this.#units.has(code.unit)) {
      message.context = await context;
      this.#units.add(code.unit);
    }
    let step = code.kind === "notebook" ? 0 : 1;
    let module: string | undefined;
    let stopped: string | undefined;
    let from = processUsage(this.#child.pid).cpuMs;
    const watch = setInterval(() => {
      const now = processUsage(this.#child.pid);
      if (now.resident === 0) return;
      if (now.cpuMs - from > cpuMs) {
        stopped = `${STEPS[step]} used more than ${cpuMs / 1000} s of CPU time`;
      } else if (now.resident > memoryBytes) {
        stopped = `${STEPS[step]} used more than ${memoryBytes >> 20} MB of memory`;
      }
      if (stopped !== undefined) this.#kill();
    }, POLL_MS);
    try {
      await this.#writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
      while (true) {
        const next = await this.#lines.next();
        if (next.done) break;
        const reply = JSON.parse(next.value) as AnalysisReply;
        if ("problem" in reply) throw new Error(reply.problem);
        if ("module" in reply) {
          module = reply.module;
          step = 1;
          from = processUsage(this.#child.pid).cpuMs;
        } else if (module !== undefined) return { module, copied: reply.copied };
      }
    } catch (error) {
      if (stopped === undefined && !(error instanceof Error && error.name === "BrokenPipe")) {
        throw error;
      }
    } finally {
      clearInterval(watch);
    }
    // The process ended before it answered: stopped for its budget, or out of V8's heap.
    if (stopped === undefined) {
      const { code, signal } = await this.#child.status;
      stopped = `${STEPS[step]} could not finish: its process ended (${signal ?? `exit ${code}`})`;
    }
    return module === undefined ? { unchecked: stopped } : { unchecked: stopped, module };
  }

  /** Ends the process, and waits for it to exit. */
  async end(): Promise<void> {
    await this.#writer.close().catch(() => {});
    this.#kill();
    await this.#child.status;
    // What it wrote after its last answer is read to the end, so that nothing is left open.
    while (!(await this.#lines.next().catch(() => ({ done: true }))).done);
  }

  #kill(): void {
    killGroup(this.#child);
  }
}

/** The lines of `stream`, decoded. */
async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let pending = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    pending += chunk;
    for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n")) {
      yield pending.slice(0, end);
      pending = pending.slice(end + 1);
    }
  }
}

/** Deno's cache folder, passed on so that the process finds what is already compiled. */
function denoDir(): Record<string, string> {
  const dir = Deno.env.get("DENO_DIR");
  return dir === undefined ? {} : { DENO_DIR: dir };
}

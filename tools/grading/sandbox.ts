/**
 * Run one learner's code against every case of their units in one separate
 * `deno run`: one process, one time budget and one memory budget per
 * learner, however their work is laid out. The process may read its scratch
 * folder and nothing else: no network, no environment, no subprocesses. A
 * loop, a throw, `Deno.exit`, a file access, a memory bomb or a flood of
 * output in the learner's code costs the cases it touches, and nothing else.
 *
 * @module
 */

import { serialize } from "node:v8";
import { fileURLToPath } from "node:url";
import type { Scratch } from "./scratch.ts";
import type { GradedCase } from "./spec.ts";

/** One case's outcome in the sandbox. */
export interface CaseResult {
  unit: string;
  fn: string;
  case: string;
  hidden: boolean;
  status: "PASS" | "FAIL" | "UNFINISHED";
  observed: string;
}

/** The cases to run for one unit: its functions, each with every case it must pass. */
export interface UnitJob {
  unit: string;
  functions: { name: string; cases: GradedCase[] }[];
}

/** Options for {@linkcode runSandbox}. */
export interface SandboxOptions {
  /** The most one case may take. @default {1000} */
  caseTimeoutMs?: number;
  /** The most the whole run may take, for all the learner's units. @default {60000} */
  runTimeoutMs?: number;
  /** The most memory the process may hold (resident, ArrayBuffers included). @default {512 MiB} */
  memoryBytes?: number;
}

const RUNNER = fileURLToPath(new URL("./sandbox_runner.ts", import.meta.url));
/** The most output the sandbox may write before it is stopped. */
const OUTPUT_LIMIT = 8 << 20;
/** How often the process's memory is read. */
const MEMORY_POLL_MS = 10;

/**
 * Grade the modules in `scratch` against `jobs`. Every case gets a result:
 * one the sandbox never reported (it was stopped, or the process died) fails,
 * saying why.
 */
export async function runSandbox(
  scratch: Scratch,
  jobs: readonly UnitJob[],
  options: SandboxOptions = {},
): Promise<CaseResult[]> {
  const nonce = crypto.randomUUID();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--no-remote",
      "--no-npm",
      "--no-config",
      "--no-lock",
      "--v8-flags=--max-old-space-size=256",
      `--allow-read=${scratch.folder}`,
      RUNNER,
    ],
    clearEnv: true,
    env: { NO_COLOR: "1", PATH: "/usr/bin:/bin", ...denoDir() },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let stopped = "";
  const stop = (why: string) => {
    if (stopped === "") stopped = why;
    try {
      child.kill("SIGKILL");
    } catch {
      // It has already gone.
    }
  };
  const memoryBytes = options.memoryBytes ?? 512 << 20;
  try {
    residentBytes(child.pid);
  } catch (error) {
    stop("the grader cannot watch it");
    await child.status;
    throw error;
  }
  const watch = setInterval(() => {
    const resident = residentBytes(child.pid);
    if (resident > memoryBytes) stop(`its memory passed ${memoryBytes >> 20} MB`);
  }, MEMORY_POLL_MS);
  const runTimeoutMs = options.runTimeoutMs ?? 60_000;
  const timer = setTimeout(() => stop(`it ran past ${runTimeoutMs / 1000} s`), runTimeoutMs);

  const job = {
    nonce,
    worker: scratch.worker,
    caseTimeoutMs: options.caseTimeoutMs ?? 1000,
    units: jobs.map((job) => ({ ...job, module: scratch.modules.get(job.unit) })),
  };
  const writer = child.stdin.getWriter();
  await writer.write(serialize(job)).catch(() => {});
  await writer.close().catch(() => {});

  const results = new Map<string, CaseResult>();
  try {
    for await (const line of lines(child.stdout, () => stop("it printed too much"))) {
      if (!line.startsWith(`${nonce} `)) continue;
      const result = JSON.parse(line.slice(nonce.length + 1)) as CaseResult & { index: number };
      results.set(`${result.unit}\n${result.fn}\n${result.index}`, result);
    }
  } finally {
    clearTimeout(timer);
    clearInterval(watch);
    await child.status;
  }
  const why = stopped === "" ? "the process ended" : stopped;
  return jobs.flatMap(({ unit, functions }) =>
    functions.flatMap((fn) =>
      fn.cases.map((testCase, index) =>
        results.get(`${unit}\n${fn.name}\n${index}`) ?? {
          unit,
          fn: fn.name,
          case: testCase.label,
          hidden: testCase.hidden,
          status: "FAIL",
          observed: `not run: the sandbox stopped before this case (${why})`,
        }
      )
    )
  );
}

/** The lines of `stream`, dropping any longer than 64 KiB; `overflow` is called past the output limit. */
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
    if (pending.length > 65536) pending = "";
    yield* parts;
  }
  if (pending !== "") yield pending;
}

/**
 * The resident memory of process `pid`, in bytes; 0 once it has gone. Deno
 * lets a program read `/proc` only with `--allow-all`: without it, this
 * throws, rather than let a memory bomb run unwatched.
 */
function residentBytes(pid: number): number {
  let status: string;
  try {
    status = Deno.readTextFileSync(`/proc/${pid}/status`);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0;
    throw new Deno.errors.NotCapable(
      `The grader cannot watch the sandbox's memory (${
        (error as Error).message
      }): run it with --allow-all`,
    );
  }
  const kilobytes = status.match(/^VmRSS:\s+(\d+) kB$/m)?.[1];
  return kilobytes === undefined ? 0 : Number(kilobytes) * 1024;
}

/** Deno's cache folder, passed on so that the sandbox finds what is already compiled. */
function denoDir(): Record<string, string> {
  const dir = Deno.env.get("DENO_DIR");
  return dir === undefined ? {} : { DENO_DIR: dir };
}

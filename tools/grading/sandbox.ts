/**
 * Run a learner's module against a unit's cases in a separate `deno run`
 * that may read only that module and the library files it may import, with
 * a time limit on each case and on the whole run, and a cap on what it may
 * print. A loop, a throw, `Deno.exit`, a file access or a flood of output in
 * the learner's code costs the affected cases, and nothing else.
 *
 * @module
 */

import type { UnitSpec } from "./spec.ts";

/** One case's outcome in the sandbox. */
export interface CaseResult {
  fn: string;
  case: string;
  hidden: boolean;
  status: "PASS" | "FAIL" | "UNFINISHED";
  observed: string;
}

/** Options for {@linkcode runSandbox}. */
export interface SandboxOptions {
  /** Files and folders the learner's module may read besides itself. @default {[]} */
  readable?: string[];
  /** The most one case may take. @default {2000} */
  caseTimeoutMs?: number;
  /** The most the whole run may take. @default {60000} */
  runTimeoutMs?: number;
}

const RUNNER = new URL("./sandbox_runner.ts", import.meta.url);
/** The worker, and the library files it imports, which the sandbox must read to start it. */
const WORKER_FILES = [
  "./sandbox_worker.ts",
  "../../lib/grading.ts",
  "../../lib/jsonrpc.ts",
  "../../lib/errors.ts",
  "../../lib/not_implemented.ts",
].map((path) => new URL(path, import.meta.url).pathname);
/** The most output the sandbox may write before it is stopped. */
const OUTPUT_LIMIT = 8 << 20;

/**
 * Grade the module at `module` (a file path) against every case of `spec`.
 * Every case gets a result: one the sandbox never reported (it was stopped,
 * or the process died) fails, saying so.
 */
export async function runSandbox(
  spec: UnitSpec,
  module: string,
  options: SandboxOptions = {},
): Promise<CaseResult[]> {
  const nonce = crypto.randomUUID();
  const readable = [...WORKER_FILES, module, ...(options.readable ?? [])];
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--no-remote",
      "--no-npm",
      "--no-config",
      "--no-lock",
      "--v8-flags=--max-old-space-size=256",
      `--allow-read=${readable.join(",")}`,
      RUNNER.pathname,
    ],
    clearEnv: true,
    env: { NO_COLOR: "1", PATH: "/usr/bin:/bin", ...denoDir() },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const job = {
    nonce,
    unit: spec.unit,
    module: `file://${module}`,
    caseTimeoutMs: options.caseTimeoutMs ?? 2000,
  };
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(job) + "\n")).catch(() => {});
  await writer.close().catch(() => {});

  const timer = setTimeout(() => kill(child), options.runTimeoutMs ?? 60_000);
  const results = new Map<string, CaseResult>();
  try {
    for await (const line of lines(child.stdout, () => kill(child))) {
      if (!line.startsWith(`${nonce} `)) continue;
      const result = JSON.parse(line.slice(nonce.length + 1)) as CaseResult;
      results.set(`${result.fn}\n${result.case}`, result);
    }
  } finally {
    clearTimeout(timer);
    await child.status;
  }
  return spec.functions.flatMap((fn) =>
    fn.cases.map((testCase) =>
      results.get(`${fn.name}\n${testCase.label}`) ?? {
        fn: fn.name,
        case: testCase.label,
        hidden: testCase.hidden === true,
        status: "FAIL",
        observed: "not run: the sandbox stopped before this case (time limit, memory, or output)",
      }
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

function kill(child: Deno.ChildProcess): void {
  try {
    child.kill("SIGKILL");
  } catch {
    // It has already gone.
  }
}

/** Deno's cache folder, passed on so that the sandbox finds what is already compiled. */
function denoDir(): Record<string, string> {
  const dir = Deno.env.get("DENO_DIR");
  return dir === undefined ? {} : { DENO_DIR: dir };
}

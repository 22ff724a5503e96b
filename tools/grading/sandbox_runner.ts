// The sandbox's main thread. `deno run` starts it with no permission but to
// read the worker, the learner's module and the library files that module may
// import. It reads one job from stdin (a nonce, the unit, the module), runs
// each graded function in a worker of its own, compares each case here, and
// writes one line per case, prefixed with the nonce, so that nothing the
// learner's code prints can pass for a result.

import { isDeepStrictEqual } from "node:util";
import { judge, type Outcome } from "../../lib/grading.ts";
import type { GradedCase, GradedFunction } from "./spec.ts";
import { UNITS } from "./units/mod.ts";

/** Time-outs after which a function's remaining cases are not tried. */
const MAX_TIMEOUTS = 2;

const write = Deno.stdout.writeSync.bind(Deno.stdout);
const encoder = new TextEncoder();
const job = JSON.parse(await readLine()) as {
  nonce: string;
  unit: string;
  module: string;
  caseTimeoutMs: number;
};
const report = (row: Record<string, unknown>) =>
  write(encoder.encode(`${job.nonce} ${JSON.stringify(row)}\n`));

for (const fn of UNITS[job.unit].functions) await gradeFunction(fn);
// A worker stuck in a loop cannot always be terminated; exiting ends it.
Deno.exit(0);

async function gradeFunction(fn: GradedFunction): Promise<void> {
  let worker: Worker | undefined;
  let stopped = "";
  let timeouts = 0;
  for (const testCase of fn.cases) {
    if (worker === undefined && stopped === "") {
      worker = new Worker(new URL("./sandbox_worker.ts", import.meta.url), { type: "module" });
      const loaded = await exchange(worker, { load: job.module }, job.caseTimeoutMs);
      if (!("loaded" in loaded)) {
        stopped = `the code does not load: ${loaded.loadError ?? loaded.problem}`;
      } else if (!(loaded.loaded as string[]).includes(fn.name)) {
        stopped = `there is no function ${fn.name}`;
      }
    }
    if (stopped !== "" || worker === undefined) {
      report(row(fn, testCase, "FAIL", stopped));
      continue;
    }
    const reply = await exchange(worker, { fn: fn.name, args: testCase.args }, job.caseTimeoutMs);
    if ("problem" in reply) {
      report(row(fn, testCase, "FAIL", String(reply.problem)));
      // The worker may be stuck: leave it, and load the code afresh for the next case.
      worker.terminate();
      worker = undefined;
      if (++timeouts >= MAX_TIMEOUTS) {
        stopped = `not tried after ${timeouts} cases that never finished`;
      }
      continue;
    }
    report(judgeReply(fn, testCase, reply));
  }
  worker?.terminate();
}

/** Judge one reply, here, where the learner's code never runs. */
function judgeReply(fn: GradedFunction, testCase: GradedCase, reply: Record<string, unknown>) {
  const outcome = ("threw" in reply ? reply : { returned: reply.returned }) as Outcome;
  const graded = judge(testCase, outcome, {
    normalize: fn.normalize,
    changedInput: !isDeepStrictEqual(reply.after, testCase.args),
  });
  return row(fn, testCase, graded.status, graded.observed);
}

function row(fn: GradedFunction, testCase: GradedCase, status: string, observed: unknown) {
  const text = typeof observed === "string"
    ? observed
    : JSON.stringify(observed) ?? String(observed);
  return {
    fn: fn.name,
    case: testCase.label,
    hidden: testCase.hidden === true,
    status,
    observed: text.length > 200 ? text.slice(0, 200) + "…" : text,
  };
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

async function readLine(): Promise<string> {
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(65536);
  let text = "";
  while (!text.includes("\n")) {
    const count = await Deno.stdin.read(buffer);
    if (count === null) break;
    text += decoder.decode(buffer.subarray(0, count), { stream: true });
  }
  return text.split("\n")[0];
}

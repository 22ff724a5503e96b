// Row 6: grading a class. A generated class of learners (correct, wrong, and
// hostile: an endless loop, a memory bomb, an output flood) in one folder,
// graded by `deno task grade CLASS --jobs N` as an instructor runs it: the
// learners per second, and the peak memory of the grader with every sandbox
// it runs at once. Also what must hold whatever the machine: every correct
// learner gets full marks and every wrong or hostile one loses some, so that
// a hostile learner costs no one else a mark.

import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { casesOf, loadHoldouts, UNITS } from "../tools/grading/units/mod.ts";
import { projectPath } from "./_measure.ts";

/** What grading the class measured. */
export interface GradingResult {
  learners: number;
  /** How many of them are hostile: an endless loop, a memory bomb, an output flood. */
  hostile: number;
  /** How many are right but burn CPU: they must keep every mark, and cost no one else one. */
  hogs: number;
  /** The CPU each hog burns in each call, in ms (returning or throwing). */
  hogMs: number;
  /** The rounds of arithmetic that burn it, as timed on this machine before the class. */
  hogRounds: number;
  jobs: number;
  seconds: number;
  learnersPerSecond: number;
  /** The most resident memory the grader and its sandboxes held at once, in MB. */
  peakMb: number;
  /** Correct learners that lost a mark, and wrong or hostile ones that kept every mark. */
  misgraded: string[];
}

/** Options for {@linkcode measureGrading}. */
export interface GradingOptions {
  /** How many learners the class has. @default {300} */
  learners?: number;
  /** How many learners are graded at once. @default {navigator.hardwareConcurrency} */
  jobs?: number;
  /**
   * The CPU a hog burns in all, in ms, spread evenly over Unit A's graded
   * cases (work at the start of each call, timed on the machine). Issue 28 set row
   * 6's target on hogs of 0.85 s: 17 calls at 50 ms. A wait of 50 ms a call
   * grew with Unit A's cases (48 since the watermark's decoys: 2.4 s a hog,
   * 72 s of CPU for the class's 30, more than two cores give in the 37.5 s
   * that 8 learners a second allows, whatever the grader does); a hog of a
   * fixed CPU a learner keeps the class the target was set on.
   * @default {850}
   */
  hogCpuMs?: number;
}

type Kind = "correct" | "wrong" | "loop" | "memory" | "flood" | "hog" | "latin1";

/** The kinds that must keep every mark: correct, however much CPU they burn, wherever they are. */
const HONEST: readonly Kind[] = ["correct", "hog", "latin1"];

const UNIT_A = `
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
export function answerFor(requestId, message) {
  if (message.id !== requestId) throw new ProtocolError("not the reply to " + requestId);
  if ("error" in message) throw new ProtocolError(message.error.message, { code: message.error.code });
  return message.result;
}
export function authorize(name, catalog, allowed) {
  return Object.hasOwn(catalog, name) && allowed.has(name);
}
`;
/**
 * Unit A's right answer, made slow: `rounds` of arithmetic at the start of
 * every call, whether it returns or throws (burned before each `return`, a
 * hog spent nothing in the 11 of Unit A's 48 cases that expect a throw).
 * Work, not a wait on the clock: a hog that waited burned less CPU the
 * busier the machine (each time it lost its core, the clock ran on), so a
 * run beside other work measured lighter hogs than it said. Each call adds
 * its rounds to `globalThis.hogRounds`, for the bench's test.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(hogModule(1000).match(/^  burn\(\);$/gm)?.length, 2);
 * ```
 */
export function hogModule(rounds: number): string {
  const burn = `
function burn() {
  let x = globalThis.hogSink ?? 0;
  for (let i = 0; i < ${rounds}; i++) x = (x * 1103515245 + 12345) | 0;
  globalThis.hogSink = x;
  globalThis.hogRounds = (globalThis.hogRounds ?? 0) + ${rounds};
}
`;
  return UNIT_A.replaceAll(/^(export function .*\{)$/gm, "$1\n  burn();") + burn;
}

/**
 * How many of {@linkcode hogModule}'s rounds burn `cpuMs` of CPU in each of
 * `calls` calls, in a fresh `deno` process as a sandbox runs them (the first
 * calls before V8 has compiled the loop, the rest after): a run of the
 * hog's loop is timed by the process's own CPU time, scaled, and timed again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const rounds = await hogRounds(5, 4);
 * assert.ok(Number.isInteger(rounds) && rounds > 0);
 * ```
 */
export async function hogRounds(cpuMs: number, calls: number): Promise<number> {
  // NaN made a hog of no rounds, Infinity one that never ended its timing.
  if (!(Number.isFinite(cpuMs) && cpuMs > 0)) {
    throw new RangeError(`a hog's CPU a call must be a positive number of ms, not ${cpuMs}`);
  }
  if (!(Number.isInteger(calls) && calls > 0)) {
    throw new RangeError(`a hog's calls must be a positive whole number, not ${calls}`);
  }
  let rounds = 1_000_000;
  for (let step = 0; step < 2; step++) {
    const spent = await burnTime(rounds, calls);
    rounds = Math.max(1, Math.round(rounds * (cpuMs * calls) / spent));
  }
  return rounds;
}

/** The CPU time, in ms, that `calls` calls of the hog's loop of `rounds` take in a fresh `deno` process. */
async function burnTime(rounds: number, calls: number): Promise<number> {
  const script = `${hogModule(rounds).replace(/^import .*$/m, "")}
const before = Deno.cpuUsage();
for (let call = 0; call < ${calls}; call++) authorize("a", {}, new Set());
const after = Deno.cpuUsage();
console.log((after.user + after.system - before.user - before.system) / 1000);`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-config", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(script));
  await writer.close();
  const { success, stdout } = await child.output();
  const spent = Number(new TextDecoder().decode(stdout));
  if (!success || !(spent > 0)) throw new Error("the hog's loop could not be timed");
  return spent;
}

/** What each kind of learner submits: a module for Unit A, or a worked notebook. */
const submissions = (rounds: number): Record<Kind, () => Promise<[string, string]>> => ({
  correct:
    async () => ["ch14-b.ipynb", await Deno.readTextFile(projectPath("solutions/ch14-b.ipynb"))],
  wrong: () => Promise.resolve(["ch14-a.ts", UNIT_A.replace("!==", "!=")]),
  loop: () =>
    Promise.resolve([
      "ch14-a.ts",
      UNIT_A.replace("return Object.hasOwn", "while (true) {}\n  return Object.hasOwn"),
    ]),
  memory: () =>
    Promise.resolve([
      "ch14-a.ts",
      UNIT_A.replace(
        "return Object.hasOwn",
        "globalThis.hoard ??= []; for (let i = 0; i < 40; i++) globalThis.hoard.push(new Uint8Array(32 << 20).fill(1));\n  return Object.hasOwn",
      ),
    ]),
  flood: () =>
    Promise.resolve([
      "ch14-a.ts",
      UNIT_A.replace(
        "return Object.hasOwn",
        'for (let i = 0; i < 1e6; i++) console.log("flood ".repeat(20));\n  return Object.hasOwn',
      ),
    ]),
  hog: () => Promise.resolve(["ch14-a.ts", hogModule(rounds)]),
  latin1: async () => [
    "ch14-b.ipynb",
    await Deno.readTextFile(projectPath("solutions/ch14-b.ipynb")),
  ],
});

/**
 * The class's make-up: of every 30 learners, 17 correct, 7 wrong, 3 right
 * but CPU hogs, and one of each hostile kind; a class of fewer than 30 has
 * one of each kind in turn. Beside them, one more learner whose folder's
 * name is not UTF-8.
 */
function kindOf(index: number, count: number): Kind {
  const kinds = ["correct", "wrong", "loop", "memory", "flood", "hog"] as const;
  if (count < 30) return kinds[index % kinds.length];
  const slot = index % 30;
  return slot < 17
    ? "correct"
    : slot < 24
    ? "wrong"
    : slot < 27
    ? "hog"
    : (["loop", "memory", "flood"] as const)[slot - 27];
}

/** How many cases, visible and hidden, the grader runs a Unit A learner's functions on. */
async function unitACases(): Promise<number> {
  const spec = UNITS.get("ch14-a")!;
  const holdouts = await loadHoldouts();
  return spec.functions.reduce((sum, fn) => sum + casesOf(spec, fn, holdouts).length, 0);
}

/** Grade a generated class, and say how fast, in how much memory, and whether anyone was misgraded. */
export async function measureGrading(options: GradingOptions = {}): Promise<GradingResult> {
  const count = options.learners ?? 300;
  const jobs = options.jobs ?? navigator.hardwareConcurrency;
  const calls = await unitACases();
  const hogMs = (options.hogCpuMs ?? 850) / calls;
  const rounds = await hogRounds(hogMs, calls);
  const SUBMISSIONS = submissions(rounds);
  const klass = await Deno.makeTempDir({ prefix: "bench-class-" });
  try {
    const kinds = new Map<string, Kind>();
    for (let index = 0; index < count; index++) {
      const name = `learner-${String(index).padStart(4, "0")}`;
      const kind = kindOf(index, count);
      kinds.set(name, kind);
      const [file, text] = await SUBMISSIONS[kind]();
      await Deno.mkdir(`${klass}/${name}`);
      await Deno.writeTextFile(`${klass}/${name}/${file}`, text);
    }
    // "learner-é" in Latin-1, as an archive from another system leaves it.
    const [file, text] = await SUBMISSIONS.latin1();
    await new Deno.Command("python3", {
      args: [
        "-c",
        "import os,sys; d=os.fsencode(sys.argv[1])+b'/learner-\\xe9'; os.mkdir(d); open(d+b'/'+os.fsencode(sys.argv[2]),'w').write(sys.argv[3])",
        klass,
        file,
        text,
      ],
    }).output();
    kinds.set("learner-\\xe9", "latin1");
    const json = `${klass}/results.json`;
    const started = performance.now();
    const child = new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "grade", klass, "--jobs", String(jobs), "--json", json],
      cwd: fileURLToPath(new URL("../", import.meta.url)),
      stdout: "null",
      stderr: "null",
    }).spawn();
    let peak = 0;
    const sampler = setInterval(() => peak = Math.max(peak, treeResident(child.pid)), 20);
    const status = await child.status;
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    if (!status.success) throw new Error(`grading the class exited with ${status.code}`);
    const results = JSON.parse(await Deno.readTextFile(json)) as {
      submission: string;
      score: number;
      max_score: number;
    }[];
    const misgraded: string[] = results.flatMap(({ submission, score, max_score }) => {
      const name = submission.split("/").at(-1)!;
      const full = score === max_score;
      const kind = kinds.get(name)!;
      return HONEST.includes(kind) === full ? [] : [`${name} (${kind})`];
    });
    if (results.length !== kinds.size) misgraded.push(`${kinds.size - results.length} not graded`);
    return {
      learners: count,
      hostile: [...kinds.values()].filter((kind) => ["loop", "memory", "flood"].includes(kind))
        .length,
      hogs: [...kinds.values()].filter((kind) => kind === "hog").length,
      hogMs,
      hogRounds: rounds,
      jobs,
      seconds,
      learnersPerSecond: count / seconds,
      peakMb: peak / 1e6,
      misgraded,
    };
  } finally {
    await Deno.remove(klass, { recursive: true });
  }
}

/**
 * The resident memory of process `pid` and every process under it, in
 * bytes: the tree is walked through each thread's `children` list and each
 * process's `statm`, so a reading costs a few small reads, not one of every
 * process on the machine (which took the graded class's CPU time).
 */
function treeResident(pid: number): number {
  let total = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    try {
      total += Number(Deno.readTextFileSync(`/proc/${next}/statm`).split(" ")[1]) * PAGE;
      for (const task of Deno.readDirSync(`/proc/${next}/task`)) {
        const children = Deno.readTextFileSync(`/proc/${next}/task/${task.name}/children`);
        for (const child of children.split(" ")) if (child !== "") pending.push(Number(child));
      }
    } catch {
      // The process ended while it was being read.
    }
  }
  return total;
}

/** The size of a memory page, in bytes, as `statm` counts them. */
const PAGE = 4096;

// `deno run --allow-all bench/grading.ts [--hog-cpu-ms MS] [JOBS...]`: row 6 alone, once for each
// number of jobs (`--hog-cpu-ms 2400`: hogs of a 50 ms wait in each of Unit A's 48 cases).
if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: { "hog-cpu-ms": { type: "string", default: "850" } },
    allowPositionals: true,
  });
  const hogCpuMs = Number(values["hog-cpu-ms"]);
  for (const jobs of positionals.length > 0 ? positionals.map(Number) : [2]) {
    console.log(JSON.stringify(await measureGrading({ jobs, hogCpuMs })));
  }
}

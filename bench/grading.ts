// Row 6: grading a class. A generated class of learners (correct, wrong, and
// hostile: an endless loop, a memory bomb, an output flood) in one folder,
// graded by `deno task grade CLASS --jobs N` as an instructor runs it: the
// learners per second, and the peak memory of the grader with every sandbox
// it runs at once. Also what must hold whatever the machine: every correct
// learner gets full marks and every wrong or hostile one loses some, so that
// a hostile learner costs no one else a mark.

import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { readStat } from "../lib/mcp/client/process_group.ts";
import { projectPath } from "./_measure.ts";

/** What grading the class measured. */
export interface GradingResult {
  learners: number;
  /** How many of them are hostile: an endless loop, a memory bomb, an output flood. */
  hostile: number;
  /** How many are right but burn CPU: they must keep every mark, and cost no one else one. */
  hogs: number;
  /** The CPU each hog costs beyond the same right answer without its work, in ms. */
  hogCpuMs: number;
  /** The rounds of arithmetic in each call that cost it, as timed on this machine before the class. */
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
   * The CPU a hog costs in all, in ms, beyond the same right answer without
   * its work: the same work at the start of every call the grader makes,
   * timed by grading hogs on this machine before the class. Issue 28 set row
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
 * How many of {@linkcode hogModule}'s rounds make a hog cost `cpuMs` more
 * CPU time than the same right answer without them, as the grader grades it
 * (`deno task grade --jobs 1`): every call the grader makes (the cases, the
 * watermark's probes), in the realms it makes them in (each compiles the
 * loop afresh). Timed as the CPU of the grading's processes, with hogs of a
 * guess of rounds against hogs of none (each the least of two timings), and
 * scaled: the rounds cost CPU in proportion.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * await assert.rejects(() => hogRounds(Number("850 ms")), RangeError);
 * ```
 */
export async function hogRounds(cpuMs: number): Promise<number> {
  // NaN made a hog of no rounds, Infinity one that never ended its timing.
  if (!(Number.isFinite(cpuMs) && cpuMs > 0)) {
    throw new RangeError(`a hog's CPU must be a positive number of ms, not ${cpuMs}`);
  }
  // Each timing at its least: what the machine adds (another process, the disk's writes after a
  // run) only ever adds CPU time, and a timing taken too high would make lighter hogs.
  const least = async (rounds: number) =>
    Math.min(await hogGradingCpuMs(rounds), await hogGradingCpuMs(rounds));
  const none = await least(0);
  const guess = 3_000_000;
  const spent = await least(guess) - none;
  if (!(spent > 0)) throw new Error(`hogs of ${guess} rounds cost no more CPU than hogs of none`);
  return Math.max(1, Math.round(guess * cpuMs / spent));
}

/** How many hogs a timing grades: more share out the grader's start and the clock's 10 ms ticks. */
const TIMED_HOGS = 3;

/**
 * The CPU time, in ms, that grading {@linkcode TIMED_HOGS} hogs of `rounds`
 * takes, per hog: the grading's processes, each waited for by the one that
 * started it, are this process's children's CPU time (`/proc/self/stat`).
 * Each hog must get full marks.
 */
async function hogGradingCpuMs(rounds: number): Promise<number> {
  const klass = await Deno.makeTempDir({ prefix: "bench-hogs-" });
  try {
    for (let index = 0; index < TIMED_HOGS; index++) {
      await Deno.mkdir(`${klass}/hog-${index}`);
      await Deno.writeTextFile(`${klass}/hog-${index}/ch14-a.ts`, hogModule(rounds));
    }
    const json = `${klass}/results.json`;
    const before = childrenCpuMs();
    const { success } = await new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "grade", klass, "--jobs", "1", "--json", json],
      cwd: fileURLToPath(new URL("../", import.meta.url)),
      stdout: "null",
      stderr: "null",
    }).output();
    const spent = childrenCpuMs() - before;
    const results = success
      ? JSON.parse(await Deno.readTextFile(json)) as { score: number; max_score: number }[]
      : [];
    if (results.length !== TIMED_HOGS || results.some((r) => r.score !== r.max_score)) {
      throw new Error(`hogs of ${rounds} rounds were not all graded to full marks`);
    }
    return spent / TIMED_HOGS;
  } finally {
    await Deno.remove(klass, { recursive: true });
  }
}

/**
 * The CPU time of this process's children that have ended and been waited
 * for, and of theirs, in ms: `cutime` and `cstime` of `/proc/self/stat`, in
 * Linux's ticks of 10 ms.
 */
function childrenCpuMs(): number {
  const stat = readStat("self");
  if (stat === undefined) {
    throw new Error("/proc/self/stat cannot be read: run the benchmark with --allow-all");
  }
  return stat.childrenCpuTicks * 10;
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

/** Grade a generated class, and say how fast, in how much memory, and whether anyone was misgraded. */
export async function measureGrading(options: GradingOptions = {}): Promise<GradingResult> {
  const count = options.learners ?? 300;
  const jobs = options.jobs ?? navigator.hardwareConcurrency;
  const hogCpuMs = options.hogCpuMs ?? 850;
  const rounds = await hogRounds(hogCpuMs);
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
      hogCpuMs,
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
 * bytes: the tree is walked through each process's main thread's `children`
 * list and each process's `statm`, so a reading costs a few small reads, not
 * one of every process on the machine (which took the graded class's CPU
 * time). A process's children are its main thread's: Deno starts processes
 * from its main thread, and `setsid` and `prlimit` become what they start. A
 * walk of every thread's list found the same processes and cost 0.3 ms a
 * reading, 1.3 s of the class's CPU time at one reading every 20 ms; this one
 * costs 0.02 ms.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(treeResident(Deno.pid) > 0);
 * assert.equal(treeResident(2 ** 22 + 1), 0);
 * ```
 */
export function treeResident(pid: number): number {
  let total = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    try {
      total += Number(Deno.readTextFileSync(`/proc/${next}/statm`).split(" ")[1]) * PAGE;
      const children = Deno.readTextFileSync(`/proc/${next}/task/${next}/children`);
      for (const child of children.split(" ")) if (child !== "") pending.push(Number(child));
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

// Shared by the tests of a learner as the unit of isolation: the hostile
// classmates (each an attack on what learners graded together could share),
// the honest learners they sit beside, and the check that each honest
// learner's marks in a class are their marks graded alone.

import assert from "node:assert/strict";
import { full, grade, type Results, ROOT, tree, UNIT_A, unitBPasses } from "./_grading.ts";
import { SUITE_SHARED } from "../tools/suite_mark.ts";

const worked = (name: string) => Deno.readTextFile(`${ROOT}solutions/${name}`);

/** A learner's files: path in their folder to text. */
export type Files = Record<string, string>;

/** The kinds of hostile classmate, each an attack on what learners graded together could share. */
export type HostileKind = "loud" | "deriving" | "spawning" | "nested" | "notes";

/**
 * Each kind of hostile classmate's work. Every one of them writes Unit A
 * right, and attacks what a learner graded together with others shares:
 *
 * - `loud`: prints through node:fs, past the realm's count, 8 MiB less a
 *   little in its last visible case: the process's output limit, all but used.
 * - `deriving`: hands key derivation to the runtime's blocking pool, which
 *   ending a realm does not stop: the process's CPU time.
 * - `spawning`: reaches for a node:worker_threads worker of its own module
 *   (which the sandbox now refuses to make: a worker is a realm without the
 *   grader's mark), waits past the memory check between learners, then takes
 *   600 MB: the process's memory.
 * - `nested`: a block nested 3,000 deep, which the copy check fingerprints at
 *   a cost of depth times size: the grader's own time (and memory).
 * - `notes`: a notebook cell of 40,000 comment lines, which reading its
 *   top-level statements cost the square of: the grader's own time.
 */
export async function hostileWork(): Promise<Record<HostileKind, Files>> {
  const notebook = JSON.parse(await worked("ch14-a.ipynb"));
  notebook.cells.push({
    cell_type: "code",
    id: "mine",
    metadata: {},
    execution_count: null,
    outputs: [],
    source: "const a = 1\n" + "// a note\n".repeat(40_000),
  });
  return {
    loud: {
      "ch14-a.ts": UNIT_A.replace(
        "return Object.hasOwn",
        `if (name === "toString") {
    const { writeSync } = await import("node:fs");
    const bytes = new Uint8Array(${8 << 20} - 7680).fill(120);
    for (let at = 0; at < bytes.length;) at += writeSync(1, bytes, at);
  }
  return Object.hasOwn`,
      ).replace("export function authorize", "export async function authorize"),
    },
    deriving: {
      "ch14-a.ts": `
const key = await crypto.subtle.importKey("raw", new Uint8Array(16), "PBKDF2", false, ["deriveBits"]);
for (let i = 0; i < 16; i++) {
  crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-512", salt: new Uint8Array(16), iterations: 4e7 },
    key,
    512,
  ).catch(() => {});
}
${UNIT_A}`,
    },
    spawning: {
      "ch14-a.ts": `import { isMainThread, Worker } from "node:worker_threads";
if (isMainThread) new Worker(new URL(import.meta.url));
else {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
  globalThis.kept = new Uint8Array(600 << 20).fill(1);
  setInterval(() => {}, 1000);
}
${UNIT_A}`,
    },
    nested: {
      "ch14-a.ts": `${UNIT_A}
export function unused() {
  ${"{".repeat(3000)}${"globalThis.x = 1;".repeat(100)}${"}".repeat(3000)}
}
`,
    },
    notes: { "ch14-a.ipynb": JSON.stringify(notebook) },
  };
}

/** The kinds of honest learner a class has. */
export type HonestKind = "unitA" | "unitB" | "lab02";

/**
 * Each kind of honest learner's work, every mark earned: Unit A as a module,
 * Unit B's worked notebook with a submission that claims every pass (which
 * the grader holds to the re-run), and Lab 02's worked notebook.
 */
export async function honestWork(): Promise<Record<HonestKind, Files>> {
  return {
    unitA: { "ch14-a.ts": UNIT_A },
    unitB: {
      "ch14-b.ipynb": await worked("ch14-b.ipynb"),
      "ch14-b-submission-v1.json": JSON.stringify(await unitBPasses()),
    },
    lab02: { "lab-02.ipynb": await worked("lab-02.ipynb") },
  };
}

/** `files` under the folder `name`. */
function under(name: string, files: Files): Files {
  return Object.fromEntries(Object.entries(files).map(([path, text]) => [`${name}/${path}`, text]));
}

/** What a learner's results show of their marks: each unit's score, and every mark lost, with why. */
function marksOf(results: Results[]) {
  return results.map((r) => ({
    unit: r.unit,
    score: r.score,
    lost: r.tests.filter((t) => t.score !== t.max_score).map((t) => `${t.name}: ${t.output}`),
  }));
}

/**
 * Each different piece of honest work's results graded alone, once for this
 * test file, and once for a whole test run where the run gives its files a
 * folder to share (SUITE_SHARED): the same work graded alone again is the
 * same work done twice (Lab 02's worked notebook alone is 10 s of CPU, and
 * five files grade it).
 */
const aloneGraded = new Map<string, Promise<Results[]>>();

/**
 * `own`'s results, graded alone (in a folder of its own, by itself), once for
 * this test file or this test run.
 */
export function gradedAlone(own: Files): Promise<Results[]> {
  const key = JSON.stringify(own);
  let graded = aloneGraded.get(key);
  if (graded === undefined) {
    graded = sharedOnce(key, async () => (await grade([await tree(under("alone", own))])).list);
    aloneGraded.set(key, graded);
  }
  return graded;
}

/**
 * What `make` makes for `key`, kept in the test run's shared folder (if it
 * has one) for the run's other files: written whole under a name of its own,
 * then renamed, so that a file never reads half of it.
 */
async function sharedOnce(key: string, make: () => Promise<Results[]>): Promise<Results[]> {
  const shared = Deno.env.get(SUITE_SHARED);
  if (shared === undefined) return await make();
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  const kept = `${shared}/alone-${new Uint8Array(digest).toHex()}.json`;
  try {
    return JSON.parse(await Deno.readTextFile(kept));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const made = await make();
  const written = `${kept}.${crypto.randomUUID()}`;
  await Deno.writeTextFile(written, JSON.stringify(made));
  await Deno.rename(written, kept);
  return made;
}

/**
 * Grade `hostile` and `honest` learners (folder name to files) as one class
 * with `deno task grade --jobs JOBS`, then each honest learner's work alone
 * (once for each different piece of work: {@linkcode gradedAlone}), and assert
 * that each honest learner got in the class what their work gets alone,
 * every mark. The class's results.
 */
export async function assertAsAlone(
  hostile: Record<string, Files>,
  honest: Record<string, Files>,
  jobs = 1,
): Promise<Results[]> {
  const files: Files = {};
  for (const [name, own] of [...Object.entries(hostile), ...Object.entries(honest)]) {
    Object.assign(files, under(name, own));
  }
  const { list: inClass } = await grade([await tree(files), "--jobs", String(jobs)]);
  for (const [name, own] of Object.entries(honest)) {
    const mine = inClass.filter((r) => r.submission.split("/").at(-1) === name);
    const theirs = await gradedAlone(own);
    assert.ok(theirs.every(full), `${name}'s work alone: ${JSON.stringify(marksOf(theirs))}`);
    assert.deepEqual(marksOf(mine), marksOf(theirs), `${name}'s marks in the class`);
  }
  return inClass;
}

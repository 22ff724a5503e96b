// Round 13 of issue 38's red team: hostile classmates in one class run of
// `deno task grade`, with what rounds 6 to 12 left untried: what a
// learner's code hands back to the grader, which compares, walks and writes
// it in its own event loop while classmates' sandboxes run beside it (time it
// spends there is charged, as wall-clock time, to each learner whose sandbox
// runs). Each test puts honest learners beside the hostile one and asserts
// that each honest learner's marks are their marks graded alone, and that
// the hostile one earns nothing. The first three attempts succeeded and are
// fixed (each test fails before its fix); the fourth held, a regression test;
// the last holds the grader's loop as those attacks did, and fails before the
// fix that charges no learner for it. No attempt of this round still
// succeeds, so there is no OPEN set. Held and not kept here, for their
// minutes: replies of 100,000 empty objects or Maps in each case of every
// unit (the grader's heap passed 2.7 GB, the class 4.7 GB, and every result
// was written). Not tried in a class: an observed list of 300,000 items where
// a case expects a short one, which the report compares item by item (0.5 s
// of the grader's loop a case, no longer charged to a classmate). Run:
//   deno test -A tests/attacks_round13/classmates_test.ts

import assert from "node:assert/strict";
import { assertAsAlone, type Files, honestWork } from "../_neighbours.ts";
import { commandGrants } from "../../lib/containment/command_grants.ts";
import { denoGrants } from "../../lib/containment/deno_grants.ts";
import { collectLearners } from "../../tools/grading/collect.ts";
import { gradeLearner } from "../../tools/grading/grade_learner.ts";
import { loadHoldouts } from "../../tools/grading/units/mod.ts";
import { tree } from "../_grading.ts";

const honest = await honestWork();

/**
 * Grade the `hostile` learners (folder name to files) in one class with
 * honest `classmates`, two at a time, and assert each honest learner's marks as
 * alone and that each hostile one earned nothing. What each hostile
 * learner's results say, by name, as JSON.
 */
async function besideHonest(
  hostile: Record<string, Files>,
  classmates: Record<string, Files>,
): Promise<Record<string, string>> {
  const inClass = await assertAsAlone(hostile, classmates, 2);
  return Object.fromEntries(
    Object.keys(hostile).map((name) => {
      const [results] = inClass.filter((r) => r.submission.endsWith(`/${name}`));
      assert.equal(results.score, 0, name);
      return [name, JSON.stringify(results.tests)];
    }),
  );
}

/** Unit A whose two functions return `value` (an expression) in every case. */
const returning = (value: string) =>
  `export function answerFor() { return ${value}; }\nexport function authorize() { return ${value}; }\n`;

/** An array of two of the same array, `depth` times over: 2^depth leaves, a few bytes a level when cloned. */
const shared = (depth: number) =>
  `(() => { let x = 1; for (let i = 0; i < ${depth}; i++) x = [x, x]; return x; })()`;

Deno.test("a value shared many times over, or an array of holes, costs the grader its bytes and no classmate their time", async () => {
  // Before: a structured clone keeps a shared object shared, so 26 levels of `[x, x]` came to
  // the grader in a few hundred bytes, and writing each failed case's value as JSON for the
  // report took it 2.5 s in its own event loop (2^26 leaves; at 40 levels, JSON.stringify took
  // 24 GB before the kernel killed it). Unit A's failed cases held the grader about a minute,
  // charged as wall-clock time to the classmate whose sandbox ran beside it: honest b's Unit A
  // 46/48 and Lab 02 65/187 ("the 60 s this learner's grading may take ran out"), 48/48 and
  // 187/187 alone. An array of 2^32 - 1 holes is a few bytes too, and 4 G of `null` written
  // out. Now a reply whose written size passes 4 times its bytes (and 1 MiB) is a problem.
  const said = await besideHonest({
    "a-shared": { "ch14-a.ts": returning(shared(26)) },
    "c-holes": { "ch14-a.ts": returning("new Array(2 ** 32 - 1)") },
  }, { "b-honest": { ...honest.unitA, ...honest.lab02 }, "d-honest": honest.unitA });
  for (const text of Object.values(said)) {
    assert.match(text, /what it sent back is too large to judge/);
  }
});

Deno.test("replies of many small objects cost the grader at most the bytes a learner's replies may come in", async () => {
  // Before: the grader held every reply of a learner until the last was in, as objects, and an
  // empty object sent in 3 bytes takes about 21 times that there. A process stops at 8 MB of
  // output (6 MB of replies), but a new one goes on with the rest, so that 100,000 of them in
  // each case of every unit took the grader's heap past 2.7 GB, beside V8's 4.2 GB, where a few
  // such learners graded at once would end the whole class run. Now a learner's replies may
  // come in 2 MiB in all (a unit's, where a learner is graded alone; the most a unit's worked
  // edition sends is 200 KB), and the rest of their cases are not tried: here 1 MiB, so that a
  // visible case shows it, with replies under the 256 KB a case may send (round 14).
  const folder = await tree({
    "ch14-a.ts": returning("Array.from({ length: 20_000 }, () => ({}))"),
  });
  const [results] = await gradeLearner(
    {
      name: "objects",
      submissions: [{ unit: "ch14-a", code: { kind: "module", path: `${folder}/ch14-a.ts` } }],
    },
    undefined,
    { unitReplyBytes: 1 << 20 },
  );
  const outputs = results.tests.map((t) => t.output);
  assert.ok(
    outputs.some((o) => /sent back, over its cases, passed the 1 MB it may$/.test(o)),
    JSON.stringify(outputs),
  );
  assert.equal(results.score, 0);
});

Deno.test("a BigInt of millions of bits, where the grader writes a value in words, costs the grader its bytes", async () => {
  // Before: a BigInt of 6 million bits is 750 KB on the wire, and working out its decimal digits
  // took the grader half a second in its own event loop, each time it described the value (the
  // flag readers of Chapter 15 describe what is not a flag, and so does the report where a
  // value cannot be read as the case expects): Chapter 15's 27 cases held the class 11 s
  // (19.5 s where it took 8.6; Lab 01's handleMessage, 101 cases, was not tried), charged to
  // the classmate graded beside it as above. Now a BigInt of more than 4096 bits is too large.
  // 1.5 million bits here, under the 256 KB a case's reply may come in (round 14).
  const big = "(1n << 1_500_000n) - 12345n";
  const ch15 = ["limitCommand", "denoFlags", "bwrapCommand"]
    .map((name) => `export function ${name}() { return ${big}; }\n`).join("");
  const { "a-big": said } = await besideHonest({ "a-big": { "ch15.ts": ch15 } }, {
    "b-honest": honest.unitA,
  });
  assert.match(said, /too large to judge[^"]*a BigInt of more than 4096 bits/);
});

Deno.test("a command line of tens of thousands of words, which Chapter 15's readers take the square of, costs the grader little", async () => {
  // Before: the grader reads what limitCommand and denoFlags return as the grants they give, in
  // its own event loop, at a cost that grows with the square of the line: 7,000 tmpfs, dir
  // and symlink triples behind prlimit (49,008 words, 470 KB) took 13 s a case, one
  // --allow-read of 25,000 paths 2.3 s; the grader was held minutes, charged to the classmate
  // graded beside it. Now a line of more than 1000 words, or flags of more than 1000 entries,
  // cannot be judged, as the lesson's readers say.
  const triples = Array.from(
    { length: 7000 },
    (_, i) => ["--tmpfs", `/t${i}`, "--dir", `/t${i}/d`, "--symlink", `/t${i}`, `/l${i}`],
  ).flat();
  const line = [
    "prlimit",
    "--cpu=1",
    "--",
    "bwrap",
    ...triples,
    "--",
    "/usr/bin/deno",
    "run",
    "x.ts",
  ];
  const paths = Array.from({ length: 25_000 }, (_, i) => `/a${i}`).join(",");
  const ch15 = `export function limitCommand() { return ${JSON.stringify(line)}; }
export function denoFlags() { return ["--allow-read=${paths}"]; }
export function bwrapCommand() { return []; }
`;
  await besideHonest({ "a-long": { "ch15.ts": ch15 } }, {
    "b-honest": { ...honest.unitA, ...honest.lab02 },
  });
  // What the report cuts short, the readers say in full.
  assert.throws(() => commandGrants(line), /a command line of 49008 words: more than the 1000/);
  assert.throws(() => denoGrants([`--allow-read=${paths}`]), /25000 entries: more than the 1000/);
});

Deno.test("answers and errors whose getters, conversions or cycles would run or loop in the grader's code reach it as plain data", async () => {
  // Held before (a regression test): what a realm sends back is a structured clone, so a Proxy
  // or a function does not cross ("the result cannot be copied out"), a getter has run in the
  // realm, a cycle stays a cycle the report writes without looping, and a thrown value's name,
  // message and fields are read in the realm, within a try.
  const cycle = "(() => { const a = { content: [] }; a.content.push(a); a.self = a; return a; })()";
  const tricky =
    `{ get content() { throw new Error("read me"); }, [Symbol.toPrimitive]() { for (;;); }, toString() { for (;;); } }`;
  const error =
    `Object.defineProperty(new Error("x"), "name", { get() { throw new Error("y"); } })`;
  const thrown = `{ get name() { throw 1; }, get message() { throw 2; }, toString() { throw 3; } }`;
  const proxy =
    `new Proxy({}, { get: (_, key) => key === "then" ? undefined : 1, ownKeys() { for (;;); } })`;
  const hostile = `let n = 0;
export function answerFor() {
  const k = n++ % 5;
  if (k === 0) return ${cycle};
  if (k === 1) return ${tricky};
  if (k === 2) throw ${error};
  if (k === 3) throw ${thrown};
  return ${proxy};
}
export function authorize() { return ${cycle}; }
`;
  const { "a-tricky": said } = await besideHonest({ "a-tricky": { "ch14-a.ts": hostile } }, {
    "b-honest": honest.unitA,
  });
  assert.match(said, /the result cannot be copied out/);
  assert.match(said, /an error that could not be read/);
});

/** Whether `pid` is a sandbox this process started. */
const sandboxOfMine = (pid: string) => {
  try {
    const parent = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ")[1];
    return parent === String(Deno.pid) &&
      Deno.readTextFileSync(`/proc/${pid}/cmdline`).includes("sandbox_runner.ts");
  } catch {
    return false; // It ended while we looked.
  }
};

Deno.test("time the grader's event loop is held, judging someone else's replies, is not charged to the learner whose sandbox runs", async () => {
  // Before: each reading of a sandbox charged its learner the wall-clock time since the last,
  // so a grader held by a classmate's replies (the attacks above, before their fixes, and any
  // reader of the grader's not yet bounded) charged the learner graded beside them, whose
  // process went on, or waited for the grader to read it. Here the grader is this test's
  // process, held 31 s as a classmate's replies held it, with 30 s for the learner to take:
  // honest Lab 02, 187/187 alone in 7 s, scored 137/187 (its cases after the hold failed). Now
  // a gap between two readings charges 250 ms at most.
  const folder = await Deno.makeTempDir({ prefix: "round13-" });
  try {
    await Deno.writeTextFile(`${folder}/lab-02.ipynb`, honest.lab02["lab-02.ipynb"]);
    const { learners } = await collectLearners([folder]);
    const graded = gradeLearner(learners[0], await loadHoldouts(), { learnerWallMs: 30_000 });
    const started = () => [...Deno.readDirSync("/proc")].some(({ name }) => sandboxOfMine(name));
    while (!started()) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The grader's event loop, held: blocked, as a busy loop holds it, without taking a core.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 31_000);
    const [results] = await graded;
    const lost = results.tests.filter((test) => test.score !== test.max_score);
    assert.equal(results.score, results.max_score, JSON.stringify(lost.slice(0, 3)));
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

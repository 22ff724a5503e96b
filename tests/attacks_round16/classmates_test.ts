// Round 16 of issue 38's red team: a hostile classmate in the same grading
// batch, against the grader's newest machinery: the learner's time, and the
// watermark probes a function's own stall leaves untried. Succeeded and
// fixed (each test fails before its fix): an honest learner whose right code
// is slow lost marks beside busy classmates that it kept alone, since its
// time was charged the wall-clock time its process waited for a core (the
// first test; in a class by `deno task grade --jobs 2` between two learners
// spinning the runtime's blocking pool, a learner of 0.6 s a case kept 52/57
// of Unit A, 57/57 alone); and a copy of a sealed function that stalls on a
// call of its choosing kept what it passed before, when the probe came after
// (the second), as did one that spent its unit's reply bytes first (the
// third), and one whose module loads at random (the fourth).
// Run:
//   deno test -A tests/attacks_round16/classmates_test.ts

import assert from "node:assert/strict";
import { grade, type Results, tree, UNIT_A } from "../_grading.ts";
import { base64, standaloneSeal } from "../_seals.ts";
import { CH14_B } from "../catalogue/ch14_b.ts";
import { gradeLearner } from "../../tools/grading/grade_learner.ts";
import { loadHoldouts } from "../../tools/grading/units/mod.ts";
import { killGroup, spawnInOwnSession } from "../../tools/grading/own_session.ts";
import { isRunning } from "../../lib/mcp/client/process_group.ts";

Deno.test("an honest learner's slow but right code keeps its marks on a machine kept busy by others", async () => {
  // Before: a learner's time was the wall-clock time their processes took, and a process that
  // waited for a core (the machine shared with classmates' sandboxes, each a session of its own,
  // or anything else) spent it as if it ran: with four spinning sessions a core here, this
  // learner's answerFor (about 15 ms of CPU a call) earned 0 of 30, its probes "not tried: the
  // 3 s this learner's grading may take ran out". Now the time a process's threads waited for a
  // core is given back: charged so, it passed with 1 s, and failed with 0.7.
  const slow = UNIT_A.replace(
    "export function answerFor(requestId, message) {",
    `let sink = 0;
export function answerFor(requestId, message) {
  for (let i = 0; i < 3e6; i++) sink = (sink * 31 + i) | 0;`,
  );
  const folder = await tree({ "ch14-a.ts": slow });
  const learner = {
    name: "slow",
    submissions: [{
      unit: "ch14-a",
      code: { kind: "module" as const, path: `${folder}/ch14-a.ts` },
    }],
  };
  const busy = Array.from(
    { length: 4 * navigator.hardwareConcurrency },
    () =>
      spawnInOwnSession([Deno.execPath(), "eval", "for (;;);"], {
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }),
  );
  try {
    const [results] = await gradeLearner(learner, await loadHoldouts(), {
      learnerWallMs: 3000,
      functions: ["answerFor"],
    });
    const lost = results.tests.filter((t) => t.score !== t.max_score);
    assert.deepEqual(lost.map((t) => `${t.name}: ${t.output}`), []);
  } finally {
    for (const child of busy) killGroup(child);
    await Promise.all(busy.map((child) => child.status));
  }
  assert.ok(busy.every((child) => !isRunning(child.pid)));
});

/** Unit B's module: \`splitFrames\` over the seal, \`body\` before it hands a call on; the worked transferProblems. */
async function splitFramesCopy(body: string): Promise<string> {
  // One that does not see the realm's mark (see _seals.ts): the watermark is what knows it.
  const seal = await standaloneSeal("lib/mcp/shared/split_frames.sealed.js", {
    whereGraded: false,
  });
  const [, transferProblems] = CH14_B;
  return `
const { splitFrames: run } = await import("data:text/javascript;base64,${base64(seal)}");
let calls = 0;
export function splitFrames(buffer, limit) {
  ${body}
  return run(buffer, limit);
}
${transferProblems.right["the worked solution's way"]}`;
}

/** The copies below, graded as one class (once, when a test first asks): learner folder name to results. */
let graded: Promise<Map<string, Results>> | undefined;
const copies = () =>
  graded ??= (async () => {
    const stalling = await splitFramesCopy("if (++calls >= 10) for (;;);");
    const sending = await splitFramesCopy('if (++calls >= 10) return "x".repeat(200_000);');
    const loading = (await splitFramesCopy("")).replace(
      "\nconst { splitFrames: run }",
      "\nif (Math.random() < 0.5) for (;;);\nconst { splitFrames: run }",
    );
    const files: Record<string, string> = { "sending/ch14-b.ts": sending };
    for (const name of ["a", "b", "c", "d"]) files[`stalling-${name}/ch14-b.ts`] = stalling;
    for (const name of ["a", "b", "c", "d", "e"]) files[`loading-${name}/ch14-b.ts`] = loading;
    const { list } = await grade([await tree(files), "--jobs", "2"]);
    assert.equal(list.length, Object.keys(files).length);
    return new Map(list.map((results) => [results.submission.split("/").at(-1)!, results]));
  })();

/** The names of the splitFrames cases `results` earned a mark for. */
const splitFramesKept = (results: Results) =>
  results.tests.filter((t) => t.name.startsWith("splitFrames: ") && t.score > 0).map((t) => t.name);

Deno.test("a copy of a sealed function that stalls on a call of its choosing earns nothing for it", async () => {
  // Before: a probe not tried after the function's own time-out or stops sent it to no second
  // run, and its learner's time had not run out: a copy of splitFrames' seal that loops from its
  // tenth call in a realm on kept the 7 visible cases and the 9 hidden ones it met first (16 of
  // 31), whenever the sifting probes (drawn among the 24 hidden places) came after: 6 copies in
  // 10 (here 4 copies, one class run). Now such a function is run again with its probes, as one
  // whose probe came to no answer is: there they are answered as the seal answers them, or the
  // check stalls among them.
  for (const [name, results] of await copies()) {
    if (name.startsWith("stalling-")) assert.deepEqual(splitFramesKept(results), [], name);
  }
});

Deno.test("a copy of a sealed function that spends its unit's bytes before its probes earns nothing for it", async () => {
  // Before: a copy of splitFrames' seal that sends 200 KB from its tenth call in a realm on
  // spends the 2 MB its unit's replies may come in, and each case after is "not tried" for
  // that, the probes too; in the second run (with the fix above) every call was so, which
  // stopped nothing, and it kept 8 of 31 (16 before the fix above, when no probe not tried sent
  // a function to a second run). Now a mark not tried for the unit's bytes stops its function,
  // as one not tried for the learner's time does.
  const results = (await copies()).get("sending")!;
  assert.deepEqual(splitFramesKept(results), []);
  assert.ok(
    results.tests.some((t) =>
      /splitFrames's check against the library's seals came to no answer \((not tried: )?what this unit's code sent back/
        .test(t.output)
    ),
  );
});

Deno.test("a copy of a sealed function whose module loads at random earns nothing for it", async () => {
  // Before: each realm loads the module again, and a copy whose load loops one time in two kept
  // what it passed where its second run's probes met a realm that did not load (their calls
  // never reached it: "not tried: the module did not finish loading", which stopped nothing):
  // 8 or 15 of 31 in 4 gradings of 10 (here 5 copies, in the class above: with the fix reverted,
  // one kept marks in 2 class runs of 3). Now a mark whose calls no loaded module heard stops its
  // function, as one its learner's time left untried does.
  for (const [name, results] of await copies()) {
    if (name.startsWith("loading-")) assert.deepEqual(splitFramesKept(results), [], name);
  }
});

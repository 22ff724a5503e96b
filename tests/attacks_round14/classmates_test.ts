// Round 14 of issue 38's red team: round 13's new defences (the bytes a
// learner's replies may come in, the written size a reply may take, the gap
// between two readings a learner is charged, the longest command line),
// attacked by a hostile classmate and checked against honest learners they
// might wrong. Run:
//   deno test -A tests/attacks_round14/classmates_test.ts

import assert from "node:assert/strict";
import { cpuUsage } from "node:process";
import { grade, tree, UNIT_A } from "../_grading.ts";
import { honestWork } from "../_neighbours.ts";
import { gradeLearner } from "../../tools/grading/grade_learner.ts";

const honest = await honestWork();

/** Unit A with `answerFor` returning `value` (an expression) in every case: a bug of its own. */
const answering = (value: string) => UNIT_A.replace("return message.result;", `return ${value};`);

/** Each unit's score, by unit, of one learner folder of `files` graded alone. */
async function scores(files: Record<string, string>): Promise<Record<string, string>> {
  const { list } = await grade([await tree(files)]);
  return Object.fromEntries(list.map((r) => [r.unit, `${r.score}/${r.max_score}`]));
}

Deno.test("a function that returns a long string by mistake costs its own cases, not the learner's other units", async () => {
  // Before: the 2 MiB a learner's replies may come in was taken by three of Unit A's answerFor
  // cases, each returning 700 KB (a wrong answer): every case after them, of every unit, was
  // "not tried", so that honest Lab 02 scored 71/206 (206/206 without the bug) and Unit A's
  // right authorize lost its hidden cases (5/48). Now a reply of more than 256 KB is a problem
  // of its own case, not held, and not taken from the learner's bytes.
  const said = await scores({ "ch14-a.ts": answering('"x".repeat(700_000)'), ...honest.lab02 });
  assert.equal(said["lab-02"], "206/206");
  // Unit A's own: authorize's 25 cases, and answerFor's 3 that expect it to throw.
  assert.equal(said["ch14-a"], "28/48");
});

Deno.test("a function whose replies are all long by mistake costs its own unit, not the learner's others", async () => {
  // Before: the 2 MiB a learner's replies may come in were the learner's, over all their units
  // (the round 13 fix meant "a unit's, where a learner is graded alone", and weighed the grader's
  // memory so), so that Unit A's answerFor returning 150 KB in each of its 23 cases took them,
  // and honest Lab 02 scored 71/206. Now each unit's replies may come in 2 MiB.
  const said = await scores({ "ch14-a.ts": answering('"x".repeat(150_000)'), ...honest.lab02 });
  assert.equal(said["lab-02"], "206/206");
});

Deno.test("a reply nested thousands deep costs the grader's event loop no more than a shallow one", async () => {
  // Before: writtenSize kept the objects on its way in a Set, which each object entered and left
  // over and over; a few thousand deep, each of those steps cost about the depth, so that Maps
  // nested 2,500 deep (each of its one key and value the next: 15 KB sent) took 2.6 s of the
  // grader's own event loop a case where one 25 deep took 0.13 s. That time is charged to no
  // learner past 250 ms between two readings, so the learner's own process went on uncharged:
  // a class run with this learner beside three others was held past 15 minutes. Measured here
  // as the grader's own CPU time (this process's), which a busy machine does not change: answerFor's
  // cases took it past 60 s; now a few.
  const nested =
    "(() => { let x = 1; for (let i = 0; i < 2500; i++) x = new Map([[x, x]]); return x; })()";
  const folder = await tree({ "ch14-a.ts": answering(nested) });
  const before = cpuUsage();
  const [results] = await gradeLearner(
    {
      name: "nested",
      submissions: [{ unit: "ch14-a", code: { kind: "module", path: `${folder}/ch14-a.ts` } }],
    },
    undefined,
    { functions: ["answerFor"] },
  );
  const { user, system } = cpuUsage(before);
  const outputs = results.tests.map((t) => t.output);
  assert.ok(outputs.some((o) => /too large to judge/.test(o)), JSON.stringify(outputs));
  assert.ok((user + system) / 1e6 < 20, `the grader's CPU time: ${(user + system) / 1e6} s`);
});

// Round 14 of issue 38's red team: round 13's new defences (the bytes a
// learner's replies may come in, the written size a reply may take, the gap
// between two readings a learner is charged, the longest command line),
// attacked by a hostile classmate and checked against honest learners they
// might wrong. Run:
//   deno test -A tests/attacks_round14/classmates_test.ts

import assert from "node:assert/strict";
import { grade, tree, UNIT_A } from "../_grading.ts";
import { honestWork } from "../_neighbours.ts";

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

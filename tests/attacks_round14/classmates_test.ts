// Round 14 of issue 38's red team: round 13's new defences (the bytes a
// learner's replies may come in, the written size a reply may take, the gap
// between two readings a learner is charged, the longest command line),
// attacked by a hostile classmate and checked against honest learners they
// might wrong. Succeeded and fixed (each test fails before its fix): a reply
// cap spent by one function's mistake, for every unit (the first two tests);
// replies nested thousands deep, whose written size cost the grader's loop
// the depth a step, held 250 ms at a time charged (the third). Held: replies
// as deep as the sandbox sends (the fourth); a whole worked learner sends
// 445 KB of the 2 MiB, its largest case 70 KB; a class of four learners
// returning 1,200 to 2,500-deep arrays, objects and Maps in every function of
// every unit, beside a worked learner, in 146 s with the worked learner's
// every mark. A reply past what a case may send, dropped unnamed with its
// line, is named for its case (the last test, open at the round's end). Run:
//   deno test -A tests/attacks_round14/classmates_test.ts

import assert from "node:assert/strict";
import { cpuUsage } from "node:process";
import { grade, tree, UNIT_A } from "../_grading.ts";
import { gradedAlone, honestWork } from "../_neighbours.ts";
import { gradeLearner } from "../../tools/grading/grade_learner.ts";

const honest = await honestWork();

/** Unit A with `answerFor` returning `value` (an expression) in every case: a bug of its own. */
const answering = (value: string) => UNIT_A.replace("return message.result;", `return ${value};`);

/** Each unit's score, by unit, of one learner folder of `files` graded alone. */
async function scores(files: Record<string, string>): Promise<Record<string, string>> {
  const { list } = await grade([await tree(files)]);
  return Object.fromEntries(list.map((r) => [r.unit, `${r.score}/${r.max_score}`]));
}

/** Honest Lab 02's score graded alone, full marks (counted from its cases, never written down). */
async function honestLab02(): Promise<string> {
  const [results] = await gradedAlone(honest.lab02);
  const said = `${results.score}/${results.max_score}`;
  assert.match(said, /^(\d+)\/\1$/, `honest Lab 02 alone: ${said}`);
  return said;
}

Deno.test("a function that returns a long string by mistake costs its own cases, not the learner's other units", async () => {
  // Before: the 2 MiB a learner's replies may come in was taken by three of Unit A's answerFor
  // cases, each returning 700 KB (a wrong answer): every case after them, of every unit, was
  // "not tried", so that honest Lab 02 scored 71/206 (206/206 without the bug) and Unit A's
  // right authorize lost its hidden cases (5/48). Now a reply of more than 256 KB is a problem
  // of its own case, not held, and not taken from the learner's bytes.
  const said = await scores({ "ch14-a.ts": answering('"x".repeat(700_000)'), ...honest.lab02 });
  assert.equal(said["lab-02"], await honestLab02());
  // Unit A's own: as many as a short wrong answer earns (authorize's, and answerFor's refusals).
  assert.equal(said["ch14-a"], (await scores({ "ch14-a.ts": answering('"x"') }))["ch14-a"]);
});

Deno.test("a function whose replies are all long by mistake costs its own unit, not the learner's others", async () => {
  // Before: the 2 MiB a learner's replies may come in were the learner's, over all their units
  // (the round 13 fix meant "a unit's, where a learner is graded alone", and weighed the grader's
  // memory so), so that Unit A's answerFor returning 150 KB in each of its 23 cases took them,
  // and honest Lab 02 scored 71/206. Now each unit's replies may come in 2 MiB.
  const said = await scores({ "ch14-a.ts": answering('"x".repeat(150_000)'), ...honest.lab02 });
  assert.equal(said["lab-02"], await honestLab02());
});

/**
 * The grader's own CPU time (this process's, which a busy machine does not
 * change) for answerFor's cases of a learner whose every answer is Maps
 * nested `depth` deep, each level's one key and value the level below, and
 * what those cases' outputs say.
 */
async function nestedMaps(depth: number): Promise<{ cpu: number; outputs: string[] }> {
  const nested =
    `(() => { let x = 1; for (let i = 0; i < ${depth}; i++) x = new Map([[x, x]]); return x; })()`;
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
  return { cpu: user + system, outputs: results.tests.map((t) => t.output) };
}

Deno.test("a reply nested thousands deep costs the grader's event loop no more than a shallow one", async () => {
  // Before: writtenSize kept the objects on its way in a Set, which each object entered and left
  // over and over; a few thousand deep, each of those steps cost about the depth, so that Maps
  // nested 2,500 deep (15 KB sent) took 2.6 s of the grader's own event loop a case where the
  // same 25 deep took 0.13 s, for the same count of steps (both are too large to judge, and the
  // count stops at the limit). That time is charged to no learner past 250 ms between two
  // readings, so the learner's own process went on uncharged: a class run with this learner
  // beside three others was held past 15 minutes. Compared in one run, as a ratio: about 20
  // times the shallow one's before, about the same now.
  const shallow = await nestedMaps(25);
  const deep = await nestedMaps(2500);
  for (const { outputs } of [shallow, deep]) {
    assert.ok(outputs.some((o) => /too large to judge/.test(o)), JSON.stringify(outputs));
  }
  assert.ok(deep.cpu < 3 * shallow.cpu, `${deep.cpu / 1e6} s deep, ${shallow.cpu / 1e6} s shallow`);
});

Deno.test("replies nested as deep as the sandbox can send are judged, or named, and never throw out of the grader", async () => {
  // Held (a regression test): Node's isDeepStrictEqual, JSON.stringify and String give up with
  // a RangeError between 2,000 and 3,000 levels, where the sandbox still sends a value; the
  // grader compares a reply only as deep as what the case expects, and writes it within a try.
  const arrays = "(() => { let x = 1; for (let i = 0; i < 1900; i++) x = [x]; return x; })()";
  const objects =
    "(() => { let x = {}; for (let i = 0; i < 1900; i++) x = { content: [x] }; return x; })()";
  const hostile = `let n = 0;
export function answerFor() { return n++ % 2 === 0 ? ${arrays} : ${objects}; }
export function authorize() { throw Object.assign(new Error("deep"), { code: ${objects} }); }
`;
  const folder = await tree({ "ch14-a.ts": hostile });
  const [results] = await gradeLearner(
    {
      name: "deep",
      submissions: [{ unit: "ch14-a", code: { kind: "module", path: `${folder}/ch14-a.ts` } }],
    },
    undefined,
  );
  assert.equal(results.score, 0);
  const outputs = results.tests.map((t) => t.output).join("\n");
  assert.match(outputs, /observed \[\[\[\[/);
  // Objects 1,900 deep, each in an array (3,800 levels), cannot leave the realm: named so.
  assert.match(outputs, /the result cannot be copied out/);
});

Deno.test("a reply longer than a case may send is named for its case, and costs what a wrong answer costs", async () => {
  // Before: a reply of more than 768 KB (1 MiB as base64) was dropped with its line by the
  // grader's reader, unnamed; the case ran again in new processes until two of them were stopped,
  // and answerFor's visible cases then said "not tried after 2 cases that were stopped": the
  // learner was never told that what their code returned was too long. Now the sandbox's runner
  // sends, in a reply's place, that it passed the 256 KB a case may send.
  const { list: [long] } = await grade([
    await tree({ "ch14-a.ts": answering('"x".repeat(900_000)') }),
  ]);
  assert.equal(
    `${long.score}/${long.max_score}`,
    (await scores({ "ch14-a.ts": answering('"x"') }))["ch14-a"],
  );
  const outputs = long.tests.map((t) => t.output).join("\n");
  assert.match(outputs, /what it sent back passed the 256 KB a case may/);
});

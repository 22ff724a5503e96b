// Units A and B, run by the real Deno kernel through Jupyter's executor: the
// worked editions pass every check, hidden holdouts included, and save
// schema-valid evidence; the student editions run to their end and report the
// unfinished work honestly.

import assert from "node:assert/strict";
import { evidenceProblems } from "../lib/course/evidence.ts";
import { REFERENCE_HANDOFF } from "../lib/course/reference_handoff.ts";
import { pictures, reportLine, run } from "./_notebooks.ts";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(path));
}

/** The worked Unit A, run once for this file's tests. */
let workedA: ReturnType<typeof run> | undefined;
const runWorkedA = () => workedA ??= run("solutions/ch14-a.ipynb");

Deno.test("the worked Unit A passes its checks and hands over the reference handoff", async () => {
  const { text, work } = await runWorkedA();
  assert.deepEqual(reportLine(text, "HOLDOUT_RESULT"), { status: "PASSED", unit: "ch14-a" });
  assert.match(text, /ANSWER_CHECK PASSED/);
  assert.match(text, /AUTHORIZE_CHECK PASSED/);
  assert.match(text, /calls the old server received: 0/);
  const { predictions, ...handoff } = await readJson(`${work}/ch14-a/ch14-unit-a-handoff-v1.json`);
  assert.deepEqual(handoff, REFERENCE_HANDOFF);
  const checked = predictions as { name: string; matched: boolean }[];
  assert.ok(checked.length >= 3 && checked.every((prediction) => prediction.matched), text);
});

Deno.test("the student Unit A runs to its end and reports the unfinished work", async () => {
  const { text, work } = await run("notebooks/ch14-a.ipynb");
  assert.match(text, /ANSWER_CHECK NEEDS_WORK/);
  assert.match(text, /UNFINISHED/);
  assert.match(text, /↷ The handshake waits for answerFor \(not written yet/);
  assert.ok(
    !text.includes("You wrote no prediction first"),
    "a step revealed before its prediction",
  );
  assert.ok(!text.includes("HOLDOUT_RESULT"));
  const handoff = await readJson(`${work}/ch14-a/ch14-unit-a-handoff-v1.json`);
  assert.equal(handoff.status, "INCOMPLETE");
  assert.deepEqual(await evidenceProblems("ch14-a-handoff", handoff), []);
});

Deno.test("the worked Unit B passes every check, holdouts included, and saves its submission", async () => {
  const { text, work, notebook } = await run("solutions/ch14-b.ipynb");
  assert.deepEqual(reportLine(text, "HOLDOUT_RESULT"), { status: "PASSED", unit: "ch14-b" });
  assert.equal(
    pictures(notebook.cells),
    2,
    "the stale-server sequence diagram and the hung-call timeline",
  );
  assert.match(text, /client <- server {2}result #3: "4" {2}\(taken as the answer to #4\)/);
  assert.match(text, /SIGTERM to the process group/);
  assert.deepEqual(reportLine(text, "COURSE_REPORT"), {
    edition: "instructor",
    starting_evidence: "SUPPLIED_REFERENCE",
    transfer_passed: true,
    unit: "ch14-b",
  });
  assert.match(text, /the client reported: 4 4/);
  assert.match(text, /the server's grandchild is gone/);
  assert.match(text, /hung server exit status: 143 \(SIGTERM\)/);
  assert.match(text, /NEGATIVE_CONTROL FAILED_AS_EXPECTED/);
  const submission = await readJson(`${work}/ch14-b/ch14-b-submission-v1.json`);
  assert.deepEqual(await evidenceProblems("ch14-b-submission", submission), []);
  assert.deepEqual(reportLine(text, "EXERCISE_REPORT"), submission.core_report);
  assert.equal(
    (submission.failures as Record<string, { outcome: string }>).stale.outcome,
    "ProtocolError",
  );
});

Deno.test("the student Unit B runs to its end and reports the unfinished work", async () => {
  const { text, work } = await run("notebooks/ch14-b.ipynb");
  assert.ok(!text.includes("HOLDOUT_RESULT"));
  assert.match(text, /VISIBLE_CONTRACT NEEDS_WORK/);
  assert.match(text, /↷ The failure-mode table waits for splitFrames/);
  assert.match(text, /TRANSFER_STATUS NEEDS_WORK/);
  // Run All on a fresh copy reveals no answer before its prediction: each step waits for it.
  assert.ok(
    !text.includes("You wrote no prediction first"),
    "a step revealed before its prediction",
  );
  // Beside the handouts' Unit A, the starter, every Client step waits for its answerFor and authorize.
  for (
    const step of [
      "The careless client",
      "The lingering step",
      "The hung step",
      "The negative control",
    ]
  ) {
    assert.match(
      text,
      new RegExp(
        `↷ ${step} waits for answerFor \\(not written yet, in the ✏️ cell of section 1 of notebooks/ch14-a\\.ipynb\\) and authorize`,
      ),
    );
  }
  assert.ok(!/the client reported:|NEGATIVE_CONTROL|grandchild is/.test(text));
  assert.deepEqual(reportLine(text, "COURSE_REPORT"), {
    edition: "student",
    starting_evidence: "SUPPLIED_REFERENCE",
    transfer_passed: false,
    unit: "ch14-b",
  });
  const submission = await readJson(`${work}/ch14-b/ch14-b-submission-v1.json`);
  assert.deepEqual(await evidenceProblems("ch14-b-submission", submission), []);
  assert.equal(submission.failures, null);
});

Deno.test("Unit B starts from the learner's own handoff when one is chosen", async () => {
  const { work } = await runWorkedA();
  const learnerHandoff = `${work}/ch14-a/ch14-unit-a-handoff-v1.json`;
  const source = await Deno.readTextFile(`${root}solutions/ch14-b.ipynb`);
  const chosen = source.replace(
    '"const LEARNER_HANDOFF: string | null = null;"',
    JSON.stringify(`const LEARNER_HANDOFF: string | null = ${JSON.stringify(learnerHandoff)};`),
  );
  assert.notEqual(chosen, source, "the LEARNER_HANDOFF cell was not found");
  const copy = `${root}solutions/.learner-handoff-test.ipynb`;
  await Deno.writeTextFile(copy, chosen);
  try {
    const { text } = await run("solutions/.learner-handoff-test.ipynb", work);
    assert.match(text, /Starting evidence: LEARNER_SELECTED/);
    assert.match(text, /UNIT_A_HANDOFF VERIFIED/);
    assert.equal(reportLine(text, "COURSE_REPORT").starting_evidence, "LEARNER_SELECTED");
    const saved = JSON.parse(await Deno.readTextFile(`${work}/ch14-b/ch14-b-submission-v1.json`));
    assert.equal(saved.starting_evidence, "LEARNER_SELECTED");
  } finally {
    await Deno.remove(copy);
  }
});

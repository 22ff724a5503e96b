// The autograder checks Lab 02's saved files when the learner's work holds
// them: the transcript is the canonical flow with the reference's client lines,
// and results.json is valid and agrees with it. A results.json that claims
// what its transcript does not show loses its mark, with a sentence saying why.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { REFERENCE_TRANSCRIPT } from "../lib/course/transcript_check.ts";
import { collectLearners } from "../tools/grading/collect.ts";
import { gradeLearner } from "../tools/grading/grade_learner.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const RESULTS = {
  tools_discovered: 4,
  calls_made: 4,
  calls_failed: 0,
  transcript_path: "transcript.txt",
};

/** A learner's folder: the worked Lab 02 as their copy, and `results` beside the reference transcript. */
async function learner(results: Record<string, unknown>): Promise<string> {
  const folder = await Deno.makeTempDir({ prefix: "lab02-files-" });
  await Deno.mkdir(`${folder}/work/lab-02`, { recursive: true });
  await Deno.copyFile(`${root}solutions/lab-02.ipynb`, `${folder}/work/lab-02.ipynb`);
  await Deno.copyFile(fileURLToPath(REFERENCE_TRANSCRIPT), `${folder}/work/lab-02/transcript.txt`);
  await Deno.writeTextFile(`${folder}/work/lab-02/results.json`, JSON.stringify(results));
  return folder;
}

async function fileTests(results: Record<string, unknown>) {
  const folder = await learner(results);
  try {
    const { learners, problems } = await collectLearners([folder]);
    assert.deepEqual(problems, []);
    const [graded] = await gradeLearner(learners[0], undefined);
    return graded.tests.filter((test) => test.name.startsWith("lab-02 files: "));
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
}

Deno.test("the transcript and results.json a learner saved are each graded", async () => {
  const tests = await fileTests(RESULTS);
  assert.equal(tests.length, 2);
  assert.ok(tests.every((test) => test.score === 1), JSON.stringify(tests));
});

Deno.test("a results.json that claims what its transcript does not show loses its mark", async () => {
  const [transcript, results] = await fileTests({ ...RESULTS, tools_discovered: 5 });
  assert.equal(transcript.score, 1);
  assert.equal(results.score, 0);
  assert.equal(
    results.output,
    "results.json says tools_discovered 5; the transcript's tools/list answered 4",
  );
});

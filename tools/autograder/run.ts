// Inside the autograder package: `run_autograder` calls this with the
// platform's root (`/autograder` on Gradescope). It grades everything in
// ROOT/submission/ as one learner's work, hidden cases included, and writes
// ROOT/results/results.json in Gradescope's format. It never ends without
// writing results: a submission it cannot grade gets a score of 0 and an
// output that says why.

import { collectLearners } from "../grading/collect.ts";
import { gradeLearner } from "../grading/grade_learner.ts";
import type { Results } from "../grading/score.ts";
import { loadHoldouts } from "../grading/units/mod.ts";
import { gradescopeResults } from "./gradescope.ts";

const root = Deno.args[0] ?? "/autograder";
const started = performance.now();
const graded: Results[] = [];
const messages: string[] = [];
try {
  const holdouts = await loadHoldouts();
  if (holdouts === undefined) throw new Error("the package holds no hidden cases: rebuild it");
  const { learners, problems, notes } = await collectLearners([`${root}/submission`]);
  for (const learner of learners) graded.push(...await gradeLearner(learner, holdouts));
  for (const { path, problem } of problems) {
    messages.push(`${path.slice(`${root}/submission/`.length) || path}: ${problem}`);
  }
  messages.push(...notes);
  if (graded.length === 0) {
    messages.push("Nothing to grade: submit your notebook (.ipynb) and the JSON it saved.");
  }
} catch (error) {
  messages.push(`The autograder could not grade this submission: ${(error as Error).message}`);
}
const results = gradescopeResults(graded, messages, (performance.now() - started) / 1000);
await Deno.mkdir(`${root}/results`, { recursive: true });
await Deno.writeTextFile(`${root}/results/results.json`, JSON.stringify(results, null, 2) + "\n");
console.log(`autograder: ${results.score} points; ${root}/results/results.json written`);

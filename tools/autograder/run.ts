// Inside the autograder package: `run_autograder` calls this with the
// platform's root (`/autograder` on Gradescope). It grades the package's one
// unit (`assignment.json`, written by `deno task autograder --unit UNIT`) in
// ROOT/submission/, hidden cases included, and writes
// ROOT/results/results.json in Gradescope's format. Work on other units is
// ignored, with a note the learner sees. When the grader itself fails, this
// exits non-zero without writing results, and `run_autograder` writes them:
// a visible "autograder error" test, and the details in a hidden one.

import { collectLearners } from "../grading/collect.ts";
import { removeTempFolder } from "../../lib/course/temp_folders.ts";
import { gradeLearner } from "../grading/grade_learner.ts";
import { predictionNote } from "../../lib/containment/effect.ts";
import { loadHoldouts, UNITS } from "../grading/units/mod.ts";
import {
  type Assignment,
  type GradescopeResults,
  gradescopeResults,
  VISIBILITIES,
} from "./gradescope.ts";

const root = Deno.args[0] ?? "/autograder";
const started = performance.now();
const seconds = () => (performance.now() - started) / 1000;

/** The assignment this package grades, checked. */
async function assignment(): Promise<Assignment> {
  const text = await Deno.readTextFile(new URL("../../assignment.json", import.meta.url));
  const { unit, points, hidden } = JSON.parse(text);
  if (!UNITS.has(unit)) throw new Error(`assignment.json names no unit the grader knows: ${unit}`);
  if (points !== undefined && !(typeof points === "number" && points > 0)) {
    throw new Error(`assignment.json's points must be a positive number, not ${points}`);
  }
  if (!VISIBILITIES.includes(hidden)) throw new Error(`assignment.json's hidden is ${hidden}`);
  return { unit, points, hidden };
}

async function grade(): Promise<GradescopeResults> {
  const pinned = await assignment();
  const holdouts = await loadHoldouts();
  if (holdouts === undefined) throw new Error("the package holds no hidden cases: rebuild it");
  const submitted = `${root}/submission`;
  const { learners, problems, notes, links } = await collectLearners([submitted]);
  // The learner sees paths as in what they handed in, not under the platform's root.
  const shown = (text: string) =>
    text.replaceAll(`${submitted}/`, "").replaceAll(submitted, "your submission");
  const messages = problems.map(({ path, problem }) => `${shown(path)}: ${problem}`);
  messages.push(...notes.map(shown));
  const submissions = learners.flatMap((learner) => learner.submissions);
  for (const other of submissions.filter((submission) => submission.unit !== pinned.unit)) {
    const files = [other.code?.path, other.evidence?.path].filter((path) => path !== undefined);
    messages.push(
      `Ignored ${files.map((path) => shown(path!)).join(" and ")}: this assignment grades ` +
        `${pinned.unit}, not ${other.unit}.`,
    );
  }
  let mine = submissions.filter((submission) => submission.unit === pinned.unit);
  if (mine.length > 1) {
    const paths = mine.map((submission) =>
      shown(submission.code?.path ?? submission.evidence!.path)
    );
    messages.push(`Found ${pinned.unit} more than once (${paths.join(", ")}): submit one.`);
    mine = [];
  } else if (mine.length === 0) {
    messages.push(
      `Nothing to grade for ${pinned.unit}: submit your notebook (${pinned.unit}.ipynb) and the JSON it saved.`,
    );
  }
  const [results] = mine.length === 0
    ? [{ submission: "", unit: pinned.unit, score: 0, max_score: 0, output: "", tests: [] }]
    : await gradeLearner({ name: "submission", submissions: mine }, holdouts);
  if (links !== undefined) await removeTempFolder(links);
  const predicted = mine.length > 0 && pinned.unit === "ch15" ? await predictionNote() : undefined;
  if (predicted !== undefined) messages.push(predicted);
  return gradescopeResults(results, pinned, messages, seconds());
}

const results = await grade();
await Deno.mkdir(`${root}/results`, { recursive: true });
await Deno.writeTextFile(`${root}/results/results.json`, JSON.stringify(results, null, 2) + "\n");
console.log(`autograder: ${results.score} points; ${root}/results/results.json written`);

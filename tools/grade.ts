// `deno task grade PATH... [--json FILE] [--unit UNIT] [--jobs N]`
//
// Grade learners' work. A PATH is a submission JSON, a learner's notebook, a
// learner's TypeScript module exporting the graded functions, a learner's
// folder of these, or a class folder of learners' folders. Each learner's
// code is re-run, visible and hidden cases, in a sandboxed `deno run` that
// serves a few learners one after another, each in realms of their own that
// may read only their own folder; a claim in a JSON file earns nothing by
// itself. N such processes run at a time (default: the number of CPUs), and
// learners are reported in order. Prints a
// report for people; with --json, writes the results in the format
// autograding platforms read (one object for one submission, an array for
// several). A path that cannot be graded is reported in one line, the others
// are still graded, and the exit status is then 2.

import { parseArgs } from "node:util";
import { predictionNote } from "../lib/containment/effect.ts";
import { collectLearners } from "./grading/collect.ts";
import { gradeLearner, gradeTogether } from "./grading/grade_learner.ts";
import { inOrder } from "./grading/pool.ts";
import { printable, textReport } from "./grading/report.ts";
import type { Results } from "./grading/score.ts";
import { loadHoldouts, UNITS } from "./grading/units/mod.ts";

const USAGE = `usage: deno task grade PATH... [--json FILE] [--unit ${
  [...UNITS.keys()].join("|")
}] [--jobs N]`;

/** How many learners share a sandbox process. */
const BATCH = 8;

let parsed;
try {
  parsed = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: { json: { type: "string" }, unit: { type: "string" }, jobs: { type: "string" } },
  });
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
if (parsed.positionals.length === 0) fail(`name at least one PATH\n${USAGE}`);
const asked = Number(parsed.values.jobs ?? navigator.hardwareConcurrency);
if (!Number.isInteger(asked) || asked < 1) fail(`--jobs must be a positive whole number\n${USAGE}`);
// More sandboxes than cores would only make each learner's cases wait for a core.
const jobs = Math.min(asked, navigator.hardwareConcurrency);

const { learners, problems, notes, copies } = await collectLearners(
  parsed.positionals,
  parsed.values.unit,
);
const holdouts = await loadHoldouts();
if (jobs < asked) {
  notes.push(`--jobs ${asked} is more than the ${jobs} cores: grading ${jobs} at a time`);
}
if (holdouts === undefined && learners.length > 0) {
  notes.push("this copy of the course has no hidden cases (holdouts/): visible cases only");
}
const all: Results[] = [];
// A few learners to a sandbox process, each in realms of their own: one process start serves them all.
const batches = Array.from(
  { length: Math.ceil(learners.length / BATCH) },
  (_, index) => learners.slice(index * BATCH, (index + 1) * BATCH),
);
const graded = inOrder(batches, jobs, async (batch) => {
  try {
    return await gradeTogether(batch, holdouts);
  } catch {
    // Which learner could not be graded is found by grading each alone.
    return await Promise.all(
      batch.map((learner) => gradeLearner(learner, holdouts).catch((error) => error)),
    );
  }
});
let index = -1;
for await (const settled of graded) {
  index++;
  const each = settled.status === "fulfilled"
    ? settled.value
    : batches[index].map(() => settled.reason);
  for (const [at, results] of each.entries()) {
    if (!Array.isArray(results)) {
      const why = results instanceof Error ? results.message : String(results);
      problems.push({ path: batches[index][at].name, problem: `could not be graded: ${why}` });
      continue;
    }
    for (const one of results) {
      all.push(one);
      console.log(textReport(one) + "\n");
    }
  }
}
const predicted = all.some((results) => results.unit === "ch15")
  ? await predictionNote()
  : undefined;
if (predicted !== undefined) notes.push(predicted);
for (const note of notes) console.error(printable(`grade: note: ${note}`));
for (const { path, problem } of problems) console.error(printable(`grade: ${path}: ${problem}`));
if (copies !== undefined) await Deno.remove(copies, { recursive: true }).catch(() => {});
if (parsed.values.json !== undefined) {
  await Deno.writeTextFile(
    parsed.values.json,
    JSON.stringify(all.length === 1 ? all[0] : all, null, 2) + "\n",
  );
}
if (learners.length === 0 && problems.length === 0) fail("no submissions found");
Deno.exit(problems.length > 0 ? 2 : 0);

function fail(message: string): never {
  console.error(`grade: ${message}`.split("\n").map(printable).join("\n"));
  Deno.exit(2);
}

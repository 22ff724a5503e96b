// `deno task grade PATH... [--json FILE] [--unit UNIT] [--jobs N]`
//
// Grade learners' work. A PATH is a submission JSON, a learner's notebook, a
// learner's TypeScript module exporting the graded functions, a learner's
// folder of these, or a class folder of learners' folders. Each learner's
// code is analysed in a process with a budget of its own (the module it
// makes, the library copies in it), then re-run, visible and hidden cases, in
// sandboxed `deno run` processes that serve that learner alone, in realms
// that may read only their own folder: whatever a learner's code does, its
// limits are its own, and nothing it starts outlives its turn. A claim in a
// JSON file earns nothing by itself. N learners are graded at a time
// (default: the number of CPUs), and reported in order. Prints a
// report for people; with --json, writes the results in the format
// autograding platforms read (one object for one submission, an array for
// several). A path that cannot be graded is reported in one line, the others
// are still graded, and the exit status is then 2.

import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { predictionNote } from "../lib/containment/effect.ts";
import { collectLearners } from "./grading/collect.ts";
import { Analysis } from "./grading/analysis.ts";
import { gradeLearner } from "./grading/grade_learner.ts";
import { inOrder } from "./grading/pool.ts";
import { printable, textReport } from "./grading/report.ts";
import type { Results } from "./grading/score.ts";
import { loadHoldouts, UNITS } from "./grading/units/mod.ts";
import { typedPath } from "./grading/typed_path.ts";

const USAGE = `usage: deno task grade PATH... [--json FILE] [--unit ${
  [...UNITS.keys()].join("|")
}] [--jobs N]`;

let parsed;
try {
  parsed = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      json: { type: "string" },
      unit: { type: "string" },
      jobs: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
} catch (error) {
  // Node's own words for an unknown option advise `-- "--help"`, which names a file here.
  const unknown = (error as Error).message.match(/^Unknown option '([^']*)'/);
  fail(`${unknown === null ? (error as Error).message : `unknown option ${unknown[1]}`}\n${USAGE}`);
}
if (parsed.values.help) {
  console.log(
    `${USAGE}\nGrades each PATH (your notebook, work/UNIT.ipynb; a submission JSON; a folder of ` +
      "them) on the course's cases, in a sandbox, and says which pass.",
  );
  Deno.exit(0);
}
if (parsed.positionals.length === 0) fail(`name at least one PATH\n${USAGE}`);
const asked = Number(parsed.values.jobs ?? navigator.hardwareConcurrency);
if (!Number.isInteger(asked) || asked < 1) fail(`--jobs must be a positive whole number\n${USAGE}`);
// More sandboxes than cores would only make each learner's cases wait for a core.
const jobs = Math.min(asked, navigator.hardwareConcurrency);

// `deno task grade` runs in the course's folder, wherever it was typed: a path is taken from where
// it was typed (INIT_CWD), so that `deno task grade .` in work/ grades work/, not the course. Only
// when run there: a program started otherwise may have inherited an INIT_CWD of another command.
const folders = {
  typedIn: Deno.cwd() === fileURLToPath(new URL("../", import.meta.url)).replace(/\/$/, "")
    ? Deno.env.get("INIT_CWD")
    : undefined,
  runIn: Deno.cwd(),
};
const json = parsed.values.json === undefined ? undefined : typedPath(parsed.values.json, folders);
// Before anyone is graded: a results file that cannot be written would waste the whole run.
if (json !== undefined) {
  const [folder, target] = await Promise.all(
    [dirname(json), json].map((path) => Deno.stat(path).catch(() => undefined)),
  );
  if (folder?.isDirectory !== true) fail(`--json: no folder ${dirname(json)} to write ${json} in`);
  if (target?.isDirectory) fail(`--json: ${json} is a folder: name the results file`);
}
// Ctrl-C, a stop, or the terminal closed: an ending like any other, so that the grader's scratch
// folders go as at the end of a run (their `unload` handlers), where the signal left them in TMPDIR.
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]] as const) {
  Deno.addSignalListener(signal, () => Deno.exit(code));
}
const { learners, problems, notes } = await collectLearners(
  parsed.positionals.map((path) => typedPath(path, folders)),
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
// Each learner alone: their own analysis and sandbox processes, their own limits.
const analysis = new Analysis({ processes: jobs });
const graded = inOrder(learners, jobs, (learner) => gradeLearner(learner, holdouts, { analysis }));
let index = -1;
for await (const settled of graded) {
  index++;
  if (settled.status === "rejected") {
    const why = settled.reason instanceof Error ? settled.reason.message : String(settled.reason);
    problems.push({ path: learners[index].name, problem: `could not be graded: ${why}` });
    continue;
  }
  for (const one of settled.value) {
    all.push(one);
    console.log(textReport(one) + "\n");
  }
}
await analysis.close();
const predicted = all.some((results) => results.unit === "ch15")
  ? await predictionNote()
  : undefined;
if (predicted !== undefined) notes.push(predicted);
for (const note of notes) console.error(printable(`grade: note: ${note}`));
for (const { path, problem } of problems) {
  console.error(printable(`grade: ${path}: ${problem}${notMadeYet(path, problem)}`));
}
if (json !== undefined) {
  await Deno.writeTextFile(json, JSON.stringify(all.length === 1 ? all[0] : all, null, 2) + "\n")
    .catch((error) => fail(`--json: cannot write ${json}: ${error.message}`));
}
if (learners.length === 0 && problems.length === 0) fail("no submissions found");
Deno.exit(problems.length > 0 ? 2 : 0);

/** For a learner's copy in the course's folder (`work/UNIT.ipynb`) that is not there: what makes it. */
function notMadeYet(path: string, problem: string): string {
  const unit = path.match(/^work\/([\w-]+)\.ipynb$/)?.[1];
  if (problem !== "no such file or folder" || unit === undefined || !UNITS.has(unit)) return "";
  return `; \`deno task lab\` makes your copy of each unit in work/, or \`deno task starter ${unit}\` this one`;
}

function fail(message: string): never {
  console.error(`grade: ${message}`.split("\n").map(printable).join("\n"));
  Deno.exit(2);
}

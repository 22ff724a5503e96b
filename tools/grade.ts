// `deno task grade PATH... [--json FILE] [--unit ch14-a|ch14-b|lab-02]`
//
// Grade learners' work. A PATH is a submission JSON, a learner's notebook, a
// learner's TypeScript module exporting the graded functions, or a folder of
// these (each folder's files are one learner's work). The graded functions
// are re-run, visible and hidden cases, in a sandboxed `deno run`; a claim in
// a JSON file earns nothing by itself. Prints a report for people; with
// --json, writes the results in the format autograding platforms read (one
// object for one submission, an array for several). A path that cannot be
// graded is reported in one line, and the exit status is then 2.

import { parseArgs } from "node:util";
import { parseNotebook } from "./editions/notebook.ts";
import { collectSubmissions, type Submission } from "./grading/collect.ts";
import { learnerModule, libraryFiles } from "./grading/extract.ts";
import { textReport } from "./grading/report.ts";
import { runSandbox } from "./grading/sandbox.ts";
import { type Results, scoreSubmission } from "./grading/score.ts";
import { UNITS } from "./grading/units/mod.ts";

const USAGE = "usage: deno task grade PATH... [--json FILE] [--unit ch14-a|ch14-b|lab-02]";

let parsed;
try {
  parsed = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: { json: { type: "string" }, unit: { type: "string" } },
  });
} catch (error) {
  console.error(`grade: ${(error as Error).message}\n${USAGE}`);
  Deno.exit(2);
}
if (parsed.positionals.length === 0) {
  console.error(`grade: name at least one PATH\n${USAGE}`);
  Deno.exit(2);
}

const { submissions, problems } = await collectSubmissions(parsed.positionals, parsed.values.unit);
const all: Results[] = [];
for (const submission of submissions) {
  const results = await grade(submission);
  all.push(results);
  console.log(textReport(results) + "\n");
}
for (const { path, problem } of problems) console.error(`grade: ${path}: ${problem}`);
if (parsed.values.json !== undefined) {
  await Deno.writeTextFile(
    parsed.values.json,
    JSON.stringify(all.length === 1 ? all[0] : all, null, 2) + "\n",
  );
}
if (submissions.length === 0 && problems.length === 0) {
  console.error("grade: no submissions found");
  Deno.exit(2);
}
Deno.exit(problems.length > 0 ? 2 : 0);

/** Re-run the submission's code (if any) and score it against its claims. */
async function grade(submission: Submission): Promise<Results> {
  const spec = UNITS[submission.unit];
  let cases;
  if (submission.code !== undefined) {
    let module = submission.code.path;
    let folder: string | undefined;
    if (submission.code.kind === "notebook") {
      folder = await Deno.makeTempDir({ prefix: "grade-" });
      module = `${folder}/learner.ts`;
      const notebook = parseNotebook(
        await Deno.readTextFile(submission.code.path),
        submission.code.path,
      );
      await Deno.writeTextFile(module, learnerModule(notebook, spec));
    }
    try {
      cases = await runSandbox(spec, module, { readable: libraryFiles(spec) });
    } finally {
      if (folder !== undefined) await Deno.remove(folder, { recursive: true });
    }
  }
  return scoreSubmission({
    name: submission.name,
    spec,
    cases,
    evidence: submission.evidence?.value,
  });
}

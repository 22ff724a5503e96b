// `deno task mutants [--unit UNIT]... [--function NAME]... [--leave-out UNIT/FUNCTION/LABEL]...
//                    [--concurrency N] [--json FILE]`
//
// Mutation testing of every graded function's worked solution, judged by the
// grader's own sandbox on the grader's cases (visible and hidden). Prints a
// table per function and every problem: a surviving mutant that
// tools/mutants/equivalents.ts does not list is a missing case. Exits 1 when
// there is a problem, 2 when the run itself cannot start. --leave-out drops a
// case from the judging, to see what it alone kills; --json writes every
// mutant's outcome.

import { parseArgs } from "node:util";
import { UNITS } from "../grading/units/mod.ts";
import { UNKILLABLE } from "./equivalents.ts";
import { summarize, summaryTable } from "./report.ts";
import { runMutants } from "./run.ts";

const USAGE = "usage: deno task mutants [--unit UNIT]... [--function NAME]... " +
  "[--leave-out UNIT/FUNCTION/LABEL]... [--concurrency N] [--json FILE]";

let values;
try {
  ({ values } = parseArgs({
    args: Deno.args,
    options: {
      unit: { type: "string", multiple: true },
      function: { type: "string", multiple: true },
      "leave-out": { type: "string", multiple: true },
      concurrency: { type: "string" },
      json: { type: "string" },
    },
  }));
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
const concurrency = Number(values.concurrency ?? navigator.hardwareConcurrency);
if (!Number.isInteger(concurrency) || concurrency < 1) {
  fail(`--concurrency must be a positive whole number\n${USAGE}`);
}
for (const unit of values.unit ?? []) {
  if (!UNITS.has(unit)) fail(`unknown unit ${unit}; known: ${[...UNITS.keys()].join(", ")}`);
}
const known = [...UNITS.values()].flatMap((spec) => spec.functions.map((fn) => fn.name));
for (const name of values.function ?? []) {
  if (!known.includes(name)) fail(`unknown function ${name}; known: ${known.join(", ")}`);
}

const started = performance.now();
let outcomes;
try {
  outcomes = await runMutants({
    units: values.unit,
    functions: values.function,
    leaveOut: values["leave-out"],
    concurrency,
  });
} catch (error) {
  fail((error as Error).message);
}
const seconds = (performance.now() - started) / 1000;
if (values.json !== undefined) {
  await Deno.writeTextFile(values.json, JSON.stringify(outcomes, null, 2) + "\n");
}
const { rows, problems } = summarize(outcomes, UNKILLABLE);
console.log(summaryTable(rows));
console.log(
  `\n${outcomes.length} mutants judged in ${seconds.toFixed(1)} s, ${concurrency} at a time`,
);
if (problems.length > 0) {
  console.log(
    `\n${problems.length} problem(s):\n${problems.map((line) => `- ${line}`).join("\n")}`,
  );
  Deno.exit(1);
}
console.log("every mutant is killed, or listed as unkillable with its reason");

function fail(message: string): never {
  console.error(`mutants: ${message}`);
  Deno.exit(2);
}

// `deno task similarity DIR [--json FILE] [--threshold T]`
//
// Which learners' graded code is similar: DIR is a class folder as `deno task
// grade` reads it (a folder of learners' folders). Every two learners who
// submitted the same unit are compared function by function by winnowing,
// the algorithm MOSS and Dolos use (tools/similarity/), names, formatting and
// the student edition's starter code aside. Prints each pair whose code for
// some function is at least T similar (default 0.65), with the lines that
// match; with --json, writes {"pairs": [{"a", "b", "similarity", "functions"}]}
// with learners named by their folder. A pair is a lead for an instructor to
// read, never a mark.

import { parseArgs } from "node:util";
import { relative } from "node:path";
import { parseNotebook } from "./editions/notebook.ts";
import { collectLearners, type Learner } from "./grading/collect.ts";
import { printable } from "./grading/report.ts";
import { learnerModule } from "./grading/scratch.ts";
import { removeTempFolder } from "../lib/course/temp_folders.ts";
import { UNITS } from "./grading/units/mod.ts";
import { classPairs, submittedSource } from "./similarity/class_pairs.ts";

const USAGE = "usage: deno task similarity DIR [--json FILE] [--threshold T]";

let parsed;
try {
  parsed = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: { json: { type: "string" }, threshold: { type: "string" } },
  });
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
if (parsed.positionals.length !== 1) fail(`name one class folder\n${USAGE}`);
const [folder] = parsed.positionals;
const threshold = Number(parsed.values.threshold ?? 0.65);
if (!(threshold > 0 && threshold <= 1)) {
  fail(`--threshold must be a number above 0, at most 1\n${USAGE}`);
}

const { learners, problems, notes, links } = await collectLearners([folder], undefined);
const sources = new Map<Learner, Map<string, string>>();
for (const learner of learners) {
  const byUnit = new Map<string, string>();
  for (const { unit } of learner.submissions) {
    const spec = UNITS.get(unit);
    if (spec === undefined) continue;
    try {
      const source = await submittedSource(learner, spec);
      if (source !== undefined) byUnit.set(unit, source);
    } catch (error) {
      problems.push({
        path: learner.name,
        problem: `could not be read: ${(error as Error).message}`,
      });
    }
  }
  sources.set(learner, byUnit);
}
// The student edition's starter code for each unit: fingerprints every learner was given.
const starters = new Map<string, string>();
for (const spec of UNITS.values()) {
  try {
    const path = new URL(`../notebooks/${spec.unit}.ipynb`, import.meta.url);
    starters.set(
      spec.unit,
      learnerModule(parseNotebook(await Deno.readTextFile(path), spec.unit), spec),
    );
  } catch {
    // This copy of the course has no student edition of it.
  }
}
const named = (learner: Learner) => relative(folder, learner.name) || learner.name;
const pairs = classPairs(learners, UNITS, (learner, unit) => sources.get(learner)?.get(unit), {
  threshold,
  starters,
}).map((pair) => ({
  ...pair,
  a: named(learners.find((learner) => learner.name === pair.a)!),
  b: named(learners.find((learner) => learner.name === pair.b)!),
}));

console.log(`${learners.length} learners, ${pairs.length} similar pairs (threshold ${threshold})`);
for (const pair of pairs) {
  console.log("\n" + printable(`${pair.a} ~ ${pair.b}: ${pair.similarity}`));
  for (const fn of pair.functions) {
    const lines = (spans: [number, number][]) =>
      spans.map(([from, to]) => from === to ? `${from}` : `${from}-${to}`).join(", ");
    console.log(
      printable(
        `  ${fn.unit} ${fn.name}: ${fn.similarity} (lines ${lines(fn.lines.a)} ~ ${
          lines(fn.lines.b)
        })`,
      ),
    );
  }
}
for (const note of notes) console.error(printable(`similarity: note: ${note}`));
for (const { path, problem } of problems) {
  console.error(printable(`similarity: ${path}: ${problem}`));
}
if (links !== undefined) await removeTempFolder(links);
if (parsed.values.json !== undefined) {
  await Deno.writeTextFile(parsed.values.json, JSON.stringify({ pairs }, null, 2) + "\n");
}

function fail(message: string): never {
  console.error(`similarity: ${message}`);
  Deno.exit(2);
}

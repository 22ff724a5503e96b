// `deno task course`: the course's main job, end to end and headless.
//
// First every mode of the teaching server through the careful client, as the
// failure table, a row as each mode finishes. Then every worked edition in
// solutions/, run by the Deno kernel through Jupyter's executor, with its
// report lines. Work goes to work/course-run/, never over a learner's work.
// Exits non-zero if any outcome differs from the one the course expects, any
// process was left running, or any notebook failed.

import { EXPECTED_OUTCOMES, type TeachingMode, tryModes } from "../lib/course/failure_modes.ts";
import { runNotebook } from "./run_notebook.ts";
import { fileURLToPath } from "node:url";

const root = new URL("../", import.meta.url);
const WIDTHS = [12, 17, 8, 14, 15, 14, 0];
const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(WIDTHS[i])).join("");

console.log("Every mode of the teaching server, through the careful client (deadline 1 s):\n");
console.log(
  line(["mode", "outcome", "seconds", "server calls", "exit", "left running", "verdict"]),
);
let problems = 0;
for await (const row of tryModes()) {
  const expected = EXPECTED_OUTCOMES[row.mode as TeachingMode];
  const asExpected = row.outcome === expected && row.leftRunning === 0;
  if (!asExpected) problems++;
  console.log(line([
    row.mode,
    row.outcome,
    row.seconds.toFixed(1),
    String(row.serverCalls),
    row.exit,
    String(row.leftRunning),
    asExpected ? "as expected" : `UNEXPECTED (expected ${expected}) ${row.detail}`,
  ]));
}

const work = fileURLToPath(new URL("work/course-run/", root));
const notebooks = [...Deno.readDirSync(new URL("solutions/", root))]
  .map((entry) => entry.name)
  .filter((name) => name.endsWith(".ipynb") && !name.startsWith("."))
  .sort();
console.log(`\nThe worked editions, run by the Deno kernel (work in ${work}):\n`);
for (const name of notebooks) {
  const started = performance.now();
  try {
    const { text } = await runNotebook(fileURLToPath(new URL(`solutions/${name}`, root)), {
      env: { COURSE_WORK: work },
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const reports = text.split("\n").filter((line) => /^[A-Z_]+=/.test(line));
    console.log(`${name}: ran in ${seconds} s`);
    for (const report of reports) console.log(`  ${report}`);
  } catch (error) {
    problems++;
    console.log(`${name}: FAILED\n${(error as Error).message}`);
  }
}

console.log(
  problems === 0
    ? "\nEvery failure ended in an error or in the right answer, nothing was left running, and every worked edition passed."
    : `\n${problems} problem(s): see above.`,
);
Deno.exit(problems === 0 ? 0 : 1);

// `deno task course`: run every mode of the teaching server through the
// careful client, print the failure table a row at a time as each mode
// finishes, and exit non-zero if any outcome differs from the one the course
// expects or any process was left running.

import { EXPECTED_OUTCOMES, type TeachingMode, tryModes } from "../lib/failure_modes.ts";

const WIDTHS = [12, 17, 8, 14, 15, 14, 0];
const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(WIDTHS[i])).join("");

console.log("Every mode of the teaching server, through the careful client (deadline 1 s):\n");
console.log(
  line(["mode", "outcome", "seconds", "server calls", "exit", "left running", "verdict"]),
);
let unexpected = 0;
for await (const row of tryModes()) {
  const expected = EXPECTED_OUTCOMES[row.mode as TeachingMode];
  const asExpected = row.outcome === expected && row.leftRunning === 0;
  if (!asExpected) unexpected++;
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
console.log(
  unexpected === 0
    ? "\nEvery failure ended in an error or in the right answer, and nothing was left running."
    : `\n${unexpected} mode(s) did not end as the course expects.`,
);
Deno.exit(unexpected === 0 ? 0 : 1);

// The kernel's output race, measured: a control notebook whose cells each end
// with plain console.log lines, run RUNS times (default 20) by Jupyter's
// executor (nbconvert), without the course's flush ("plain") and with it
// ("course": its first cell imports lib/notebook/display.ts). With --browser, the same
// in JupyterLab in headless Chromium (Restart Kernel and Run All Cells).
//
//     deno task bench:console                 20 runs of each, nbconvert
//     deno task bench:console --browser       and 20 of each in JupyterLab
//     deno task bench:console --runs 5        fewer runs
//
// It prints, for each variant and frontend, the lines lost and the lines shown
// under the wrong cell, out of CELLS × LINES per run.

import { parseArgs } from "node:util";
import { runNotebook } from "../tools/run_notebook.ts";
import {
  CELLS,
  consoleLinesNotebook,
  countLines,
  type LineCount,
  LINES,
  type Variant,
} from "../tests/_console_lines.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { runs: { type: "string", default: "20" }, browser: { type: "boolean" } },
});
const runs = Number(values.runs);
const folder = await Deno.makeTempDir({ prefix: "console-lines-" });

function report(frontend: string, variant: Variant, counts: LineCount[]) {
  const lost = counts.reduce((sum, count) => sum + count.lost, 0);
  const misplaced = counts.reduce((sum, count) => sum + count.misplaced, 0);
  const total = counts.length * CELLS * LINES;
  const percent = (n: number) => `${(100 * n / total).toFixed(1)} %`;
  console.log(
    `${frontend.padEnd(10)} ${variant.padEnd(7)} ${counts.length} runs, ${total} lines: ` +
      `${lost} lost (${percent(lost)}), ${misplaced} under the wrong cell (${percent(misplaced)})` +
      `; per run, lost/misplaced: ${
        counts.map((count) => `${count.lost}/${count.misplaced}`).join(" ")
      }`,
  );
}

try {
  for (const variant of ["plain", "course"] as const) {
    const path = `${folder}/${variant}.ipynb`;
    await Deno.writeTextFile(path, consoleLinesNotebook(variant));
    const counts: LineCount[] = [];
    for (let run = 0; run < runs; run++) {
      const { outputs } = await runNotebook(path, { cellTimeoutSeconds: 60 });
      counts.push(countLines(
        new Map([...outputs].map(([id, text]) => [id, text.split("\n").filter(Boolean)])),
      ));
    }
    report("nbconvert", variant, counts);
  }
  if (values.browser) {
    const { browserCounts } = await import("../tests/browser/console_lines.ts");
    for (const variant of ["plain", "course"] as const) {
      report("JupyterLab", variant, await browserCounts(variant, runs));
    }
  }
} finally {
  await Deno.remove(folder, { recursive: true });
}

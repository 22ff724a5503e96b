// The kernel's output race, fixed: a notebook whose cells end with plain
// console.log shows every line under its own cell once the course's display
// module is imported (it installs the flush in lib/notebook/output_order.ts). Run by
// the real Deno kernel through Jupyter's executor; `deno task bench:console`
// runs it 20 times, with and without the flush, and in the browser.

import assert from "node:assert/strict";
import { runNotebook } from "../tools/run_notebook.ts";
import { CELLS, consoleLinesNotebook, countLines, LINES } from "./_console_lines.ts";

Deno.test("a cell's last console.log lines are all shown under it, run after run", async () => {
  const folder = await Deno.makeTempDir({ prefix: "console-lines-" });
  try {
    const path = `${folder}/console-lines.ipynb`;
    await Deno.writeTextFile(path, consoleLinesNotebook("course"));
    for (let run = 0; run < 3; run++) {
      const { outputs } = await runNotebook(path, { cellTimeoutSeconds: 60 });
      const shown = new Map(
        [...outputs].map(([id, text]) => [id, text.split("\n").filter((line) => line !== "")]),
      );
      assert.deepEqual(countLines(shown), { lost: 0, misplaced: 0 }, `run ${run + 1}`);
      assert.equal([...shown.values()].flat().length, CELLS * LINES, "no other output");
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

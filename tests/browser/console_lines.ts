// The control notebook for the kernel's output race (tests/_console_lines.ts),
// run in JupyterLab: Restart Kernel and Run All Cells, then the lines each
// cell shows are counted, lost and misplaced. Used by the browser test and by
// `deno task bench:console --browser`.

import { fileURLToPath } from "node:url";
import {
  consoleLinesNotebook,
  countLines,
  type LineCount,
  type Variant,
} from "../_console_lines.ts";
import { type Chromium, launchChromium } from "./chromium.ts";
import { type LabServer, startLabServer } from "./lab_server.ts";
import { openNotebook, readNotebook, restartAndRunAll, screenshotNotebook } from "./lab_page.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Run the control notebook `runs` times in one page (a restart before each
 * run), and count each run's lines. The notebook is written under
 * work/browser/, inside the folder the server serves; a screenshot of the last
 * run is saved beside it.
 */
export async function countInBrowser(
  chromium: Chromium,
  server: LabServer,
  variant: Variant,
  runs: number,
): Promise<LineCount[]> {
  const name = `work/browser/console-lines-${variant}.ipynb`;
  await Deno.mkdir(`${root}work/browser`, { recursive: true });
  await Deno.writeTextFile(`${root}${name}`, consoleLinesNotebook(variant));
  const page = await chromium.context.newPage();
  try {
    await openNotebook(page, server.notebookUrl(name));
    const counts = [];
    for (let run = 0; run < runs; run++) {
      await restartAndRunAll(page);
      const { cells } = await readNotebook(page);
      counts.push(countLines(new Map(cells.map((cell) => [cell.id, cell.lines]))));
    }
    await screenshotNotebook(page, `${root}work/browser/console-lines-${variant}.png`);
    return counts;
  } finally {
    await page.close();
  }
}

/** {@linkcode countInBrowser} with a JupyterLab server and a Chromium of its own. */
export async function browserCounts(variant: Variant, runs: number): Promise<LineCount[]> {
  const server = await startLabServer(root, { log: `${root}work/browser/lab-server.log` });
  try {
    await using chromium = await launchChromium();
    return await countInBrowser(chromium, server, variant, runs);
  } finally {
    await server.close();
  }
}

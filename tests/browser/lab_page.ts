// A notebook open in the classic Jupyter Notebook page, as a person uses it:
// opened, run with Kernel → Restart & Run All, and read back from what the
// page renders (not from the notebook file).

import type { Page } from "playwright-core";

/** An HTML table a cell's output rendered: its caption, column names and rows. */
export interface RenderedTable {
  caption: string;
  columns: string[];
  rows: Record<string, string>[];
}

/** What the page shows once the cells have run. */
export interface RenderedNotebook {
  /** Each code cell's prompt, such as `In [3]:` (`In [*]:` while it runs). */
  prompts: string[];
  /** The tables rendered from the cells' HTML outputs, in order. */
  tables: RenderedTable[];
  /** The lines the cells printed, in order. */
  lines: string[];
  /** Every error and stderr output the page shows. */
  errors: string[];
  /** The text of each picture (SVG output) the page shows, its title first. */
  pictures: string[];
}

// The page's own globals, as far as the functions run in it use them (Deno's
// types have no DOM; these declarations stay in this module).
interface PageElement {
  textContent: string | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
}
declare const document: PageElement;
declare const Jupyter: { notebook: { autosave_interval: number; writable: boolean } };

/**
 * Open the notebook at `url` and wait until its kernel has started. Throws
 * when the page could save the notebook (it must be served read-only).
 */
export async function openNotebook(page: Page, url: string, timeoutMs = 120_000): Promise<void> {
  await page.goto(url, { timeout: timeoutMs });
  await page.locator("#kernel_indicator_icon.kernel_idle_icon").waitFor({ timeout: timeoutMs });
  const saving = await page.evaluate(
    () => [Jupyter.notebook.writable, Jupyter.notebook.autosave_interval],
  );
  if (saving[0] !== false || saving[1] !== 0) {
    throw new Error(`The page could save the notebook (writable, autosave: ${saving})`);
  }
}

/**
 * Kernel → Restart & Run All, confirmed in its dialog; resolve when the
 * kernel is idle again and every code cell has run (numbered 1 to N after the
 * restart), or a cell has failed. Throws, saying where the run stood, when
 * that takes longer than `timeoutMs`.
 */
export async function restartAndRunAll(page: Page, timeoutMs = 300_000): Promise<void> {
  await page.locator("#kernellink").click();
  await page.locator("#restart_run_all").click();
  await page.getByRole("button", { name: "Restart and Run All Cells" }).click();
  try {
    await page.waitForFunction(
      () => {
        if (document.querySelector("#kernel_indicator_icon.kernel_idle_icon") === null) {
          return false;
        }
        const prompts = [...document.querySelectorAll(".code_cell .input_prompt")]
          .map((prompt) => (prompt.textContent ?? "").replace(/\s/g, ""));
        if (prompts.some((prompt) => prompt.includes("*"))) return false;
        const failed = document.querySelector(".output_error") !== null;
        return failed || prompts.every((prompt, i) => prompt === `In[${i + 1}]:`);
      },
      undefined,
      { timeout: timeoutMs, polling: 250 },
    );
  } catch (error) {
    const { prompts } = await readNotebook(page);
    const kernel = await page.locator("#kernel_indicator_icon").getAttribute("class");
    throw new Error(
      `The cells did not all run within ${timeoutMs} ms (kernel: ${kernel}; prompts: ${
        prompts.join(" ")
      }): ${(error as Error).message.split("\n")[0]}`,
    );
  }
}

/** Read what the page shows: prompts, rendered tables, printed lines and errors. */
export function readNotebook(page: Page): Promise<RenderedNotebook> {
  return page.evaluate(() => {
    const text = (element: PageElement | null) => (element?.textContent ?? "").trim();
    const all = (root: PageElement, selector: string) => [...root.querySelectorAll(selector)];
    return {
      prompts: all(document, ".code_cell .input_prompt").map((prompt) => text(prompt)),
      tables: all(document, ".output_html table").map((table) => {
        const columns = all(table, "thead th").map(text);
        return {
          caption: text(table.querySelector("caption")),
          columns,
          rows: all(table, "tbody tr").map((row) =>
            Object.fromEntries(all(row, "td").map((cell, i) => [columns[i] ?? `${i}`, text(cell)]))
          ),
        };
      }),
      lines: all(document, ".output_stdout").flatMap((output) =>
        (output.textContent ?? "").split("\n").filter((line) => line !== "")
      ),
      errors: all(document, ".output_error, .output_stderr").map(text),
      pictures: all(document, ".output_svg svg").map((svg) =>
        all(svg, "text").map((part) => text(part)).join("\n")
      ),
    };
  });
}

/** What {@linkcode settledProblems} found. */
export interface Settled {
  /** The problems left when the page settled or the time ran out. */
  problems: string[];
  /** Problems of the first reading that later outputs put right (they came late). */
  late: string[];
}

/**
 * Read the page until `problems` finds nothing wrong with it, reading again
 * whenever it changes, for at most `timeoutMs`: an output can reach the page
 * after the kernel went idle.
 */
export async function settledProblems(
  page: Page,
  problems: (notebook: RenderedNotebook) => string[],
  timeoutMs = 15_000,
): Promise<Settled> {
  const deadline = Date.now() + timeoutMs;
  const first = problems(await readNotebook(page));
  let found = first;
  while (found.length > 0 && Date.now() < deadline) {
    const shown = await page.evaluate(() =>
      document.querySelector("#notebook-container")?.textContent
    );
    await page.waitForFunction(
      (before) => document.querySelector("#notebook-container")?.textContent !== before,
      shown,
      { timeout: Math.max(deadline - Date.now(), 1), polling: 250 },
    ).catch(() => {}); // the time ran out: read once more, and report what is still wrong
    found = problems(await readNotebook(page));
  }
  return { problems: found, late: first.filter((problem) => !found.includes(problem)) };
}

/**
 * Save a picture of the whole notebook at `path`. The classic Notebook scrolls
 * its cells inside a fixed-height panel; a print-like style lets the page grow
 * to its full length first.
 */
export async function screenshotNotebook(page: Page, path: string): Promise<void> {
  await page.addStyleTag({
    content: "body { position: static !important; overflow: visible !important; }" +
      " #site { height: auto !important; overflow: visible !important; }",
  });
  await page.screenshot({ path, fullPage: true });
}

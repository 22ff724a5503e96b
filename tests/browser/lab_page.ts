// A notebook open in JupyterLab 4, as a person uses it: opened, run with
// Kernel → Restart Kernel and Run All Cells…, its hints opened by a click,
// and read back from what the page renders (not from the notebook file).
// The page's `window.jupyterapp` (exposed by lab_config.py) is asked only
// what a person sees in the status bar: whether the kernel is busy, and
// which cell is which.

import type { Page } from "playwright-core";

/** An HTML table a cell's output rendered: its caption, column names and rows. */
export interface RenderedTable {
  caption: string;
  columns: string[];
  rows: Record<string, string>[];
}

/** What one code cell shows. */
export interface RenderedCell {
  /** The cell's id in the notebook. */
  id: string;
  /** Its prompt, such as `[3]:` (`[*]:` while it runs). */
  prompt: string;
  /** The lines it printed (stdout), in order. */
  lines: string[];
  /** Its error outputs (an uncaught exception's name, message and stack). */
  errors: string[];
  /** What it wrote to stderr (Lab 02 shows its server's stderr there). */
  stderr: string[];
  /** Execute results (`Out[n]`), as text. */
  results: string[];
}

/** What the page shows once the cells have run. */
export interface RenderedNotebook {
  cells: RenderedCell[];
  /** The tables rendered from the cells' HTML outputs, in order. */
  tables: RenderedTable[];
  /** The lines the cells printed, in order. */
  lines: string[];
  /** Every error output the page shows. */
  errors: string[];
  /** The text of each picture the page shows (its SVG's text, title first). */
  pictures: string[];
  /** The notices the cells showed (skipped steps, warnings, predictions checked), as text. */
  notices: string[];
  /** The lines for programs (`NAME={...}`) the cells showed folded away, as text. */
  reports: string[];
}

// The page's own globals, as far as the functions run in it use them (Deno's
// types have no DOM; these declarations stay in this module).
interface PageElement {
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  closest(selector: string): PageElement | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  scrollHeight: number;
  clientHeight: number;
  open?: boolean;
  parentElement: PageElement;
}
declare const document: PageElement;
declare const atob: (text: string) => string;
declare const DOMParser: new () => {
  parseFromString(text: string, type: string): PageElement;
};
interface LabNotebookPanel {
  context: {
    contentsModel: { writable: boolean } | null;
    model: { dirty: boolean; getMetadata(key: string): { version?: string } | undefined };
  };
  sessionContext: { session: { kernel: { status: string } | null } | null };
  content: {
    widgets: {
      model: {
        id: string;
        type: string;
        outputs?: { toJSON(): { output_type: string; ename?: string; evalue?: string }[] };
      };
    }[];
  };
}
declare const window: { jupyterapp?: { shell: { currentWidget: LabNotebookPanel | null } } };

/**
 * Open the notebook at `url` and wait until its kernel is idle. Throws when
 * the page could save the notebook (it must be served read-only).
 */
export async function openNotebook(page: Page, url: string, timeoutMs = 120_000): Promise<void> {
  await page.goto(url, { timeout: timeoutMs });
  await page.waitForFunction(
    () =>
      window.jupyterapp?.shell.currentWidget?.sessionContext?.session?.kernel?.status === "idle",
    undefined,
    { timeout: timeoutMs, polling: 250 },
  );
  const writable = await page.evaluate(() =>
    window.jupyterapp?.shell.currentWidget?.context.contentsModel?.writable
  );
  if (writable !== false) {
    throw new Error(`The page could save the notebook (writable: ${writable})`);
  }
}

/**
 * Whether the open notebook shows as modified once JupyterLab has written its
 * kernel's `language_info` into it (which it does when the kernel answers):
 * a notebook that held another showed modified before anything was done.
 */
export async function openedModified(page: Page, timeoutMs = 60_000): Promise<boolean> {
  await page.waitForFunction(
    () =>
      window.jupyterapp?.shell.currentWidget?.context.model.getMetadata("language_info")
        ?.version !== undefined,
    undefined,
    { timeout: timeoutMs, polling: 250 },
  );
  return await page.evaluate(() => window.jupyterapp?.shell.currentWidget?.context.model.dirty) ??
    true;
}

/**
 * Kernel → Restart Kernel and Run All Cells…, confirmed in its dialog; resolve
 * when the kernel is idle again and every code cell has run (numbered 1 to N
 * after the restart). Throws, saying where the run stood, when that takes
 * longer than `timeoutMs`.
 */
export async function restartAndRunAll(page: Page, timeoutMs = 300_000): Promise<void> {
  await page.locator("#jp-MainMenu").getByText("Kernel", { exact: true }).click();
  await page.getByRole("menuitem", { name: /^Restart Kernel and Run All Cells/ }).click();
  await page.locator(".jp-Dialog .jp-Dialog-button.jp-mod-accept").click();
  try {
    await page.waitForFunction(
      () => {
        const kernel = window.jupyterapp?.shell.currentWidget?.sessionContext?.session?.kernel;
        if (kernel?.status !== "idle") return false;
        const prompts = [...document.querySelectorAll(".jp-CodeCell .jp-InputArea-prompt")]
          .map((prompt) => (prompt.textContent ?? "").replace(/\s/g, ""));
        return prompts.every((prompt, i) => prompt === `[${i + 1}]:`);
      },
      undefined,
      { timeout: timeoutMs, polling: 250 },
    );
  } catch (error) {
    const { cells } = await readNotebook(page);
    throw new Error(
      `The cells did not all run within ${timeoutMs} ms (prompts: ${
        cells.map((cell) => cell.prompt).join(" ")
      }): ${(error as Error).message.split("\n")[0]}`,
    );
  }
}

/** Read what the page shows: each cell's prompt and outputs, tables, pictures and notices. */
export function readNotebook(page: Page): Promise<RenderedNotebook> {
  return page.evaluate(() => {
    const text = (element: PageElement | null) => (element?.textContent ?? "").trim();
    const all = (root: PageElement, selector: string) => [...root.querySelectorAll(selector)];
    const models = window.jupyterapp?.shell.currentWidget?.content.widgets.map((cell) =>
      cell.model
    ) ?? [];
    const cellElements = all(document, ".jp-Notebook .jp-Cell");
    const mime = (type: string) => `.jp-OutputArea-output[data-mime-type="${type}"]`;
    const cells = cellElements.flatMap((cell, i) => {
      if (cell.querySelector(".jp-InputArea-prompt") === null) return [];
      if (!(cell.getAttribute("class") ?? "").includes("jp-CodeCell")) return [];
      return [{
        id: models[i]?.id ?? `${i}`,
        prompt: text(cell.querySelector(".jp-InputArea-prompt")).replace(/\s/g, ""),
        lines: all(cell, mime("application/vnd.jupyter.stdout")).flatMap((output) =>
          (output.textContent ?? "").split("\n").filter((line) => line !== "")
        ),
        // JupyterLab renders an error as stderr text: the cell's model says which it is.
        errors: (models[i]?.outputs?.toJSON() ?? [])
          .filter((output) => output.output_type === "error")
          .map((output) => `${output.ename}: ${output.evalue}`),
        stderr: all(cell, mime("application/vnd.jupyter.stderr")).map(text),
        results: all(cell, ".jp-OutputArea-executeResult").map(text),
      }];
    });
    const svgText = (source: string) => {
      const svg = new DOMParser().parseFromString(source, "image/svg+xml");
      return all(svg, "text").map(text).join("\n");
    };
    const pictures = all(document, ".jp-OutputArea-output img").flatMap((image) => {
      const src = image.getAttribute("src") ?? "";
      const comma = src.indexOf(",");
      if (!src.startsWith("data:image/svg+xml") || comma < 0) return [];
      const data = src.slice(comma + 1);
      const svg = src.slice(0, comma).endsWith(";base64")
        ? new TextDecoder().decode(Uint8Array.from(atob(data), (c) => c.charCodeAt(0)))
        : decodeURIComponent(data);
      return [svgText(svg)];
    });
    return {
      cells,
      tables: all(document, ".jp-OutputArea-output table").map((table) => {
        const columns = all(table, "thead th").map(text);
        return {
          caption: text(table.querySelector("caption")),
          columns,
          rows: all(table, "tbody tr").map((row) =>
            Object.fromEntries(all(row, "td").map((cell, i) => [columns[i] ?? `${i}`, text(cell)]))
          ),
        };
      }),
      lines: cells.flatMap((cell) => cell.lines),
      errors: cells.flatMap((cell) => cell.errors),
      pictures,
      notices: all(document, ".jp-OutputArea-output div[style*='border-left']").map(text),
      reports: all(document, ".jp-OutputArea-output details[data-report] code").map(text),
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
 * whenever it changes, for at most `timeoutMs`: an output that reached the
 * page after the kernel went idle is reported as late.
 */
export async function settledProblems(
  page: Page,
  problems: (notebook: RenderedNotebook) => string[],
  timeoutMs = 5_000,
): Promise<Settled> {
  const deadline = Date.now() + timeoutMs;
  const first = problems(await readNotebook(page));
  let found = first;
  while (found.length > 0 && Date.now() < deadline) {
    const shown = await page.evaluate(() => document.querySelector(".jp-Notebook")?.textContent);
    await page.waitForFunction(
      (before) => document.querySelector(".jp-Notebook")?.textContent !== before,
      shown,
      { timeout: Math.max(deadline - Date.now(), 1), polling: 250 },
    ).catch(() => {}); // the time ran out: read once more, and report what is still wrong
    found = problems(await readNotebook(page));
  }
  return { problems: found, late: first.filter((problem) => !found.includes(problem)) };
}

/**
 * Open every hint (`<details>` in a Markdown cell) by clicking its summary,
 * as a learner does, and photograph it open at `shot(i)` when given; return
 * each hint's summary and whether it is open now, with its text shown.
 */
export async function openHints(
  page: Page,
  shot?: (index: number) => string,
): Promise<{ summary: string; open: boolean }[]> {
  const summaries = page.locator(".jp-MarkdownCell details > summary");
  const opened = [];
  for (let i = 0; i < await summaries.count(); i++) {
    const summary = summaries.nth(i);
    await summary.scrollIntoViewIfNeeded();
    await summary.click();
    const open = await summary.evaluate((element) => {
      const details = (element as unknown as { parentElement: PageElement }).parentElement;
      const body = [...details.querySelectorAll("p")].filter((p) => (p.textContent ?? "") !== "");
      return details.open === true && body.length > 0;
    });
    if (shot) await summary.locator("..").screenshot({ path: shot(i) });
    opened.push({ summary: (await summary.textContent() ?? "").trim(), open });
  }
  return opened;
}

/**
 * Photograph, at `shot(i)`, each table the cells show in which a row is
 * marked ✗ (a grade table with a failure); return their captions.
 */
export function photographFailures(
  page: Page,
  shot: (index: number) => string,
): Promise<string[]> {
  const tables = page.locator(".jp-OutputArea-output table");
  return withWholeNotebook(page, async () => {
    const photographed = [];
    for (let i = 0; i < await tables.count(); i++) {
      const table = tables.nth(i);
      if (!(await table.locator("tbody td").allTextContents()).some((cell) => cell.includes("✗"))) {
        continue;
      }
      await table.screenshot({ path: shot(photographed.length) });
      photographed.push((await table.locator("caption").textContent().catch(() => "")) ?? "");
    }
    return photographed;
  });
}

/**
 * The tables wider than the notebook has room for: each one's caption and
 * widths, when it is wider than the output area it is shown in (so that it
 * would scroll sideways, its status out of sight).
 */
export function tablesTooWide(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll(".jp-OutputArea-output table")].flatMap((table) => {
      const area = table.closest(".jp-OutputArea-output");
      if (area === null || table.scrollWidth <= area.clientWidth + 1) return [];
      const caption = (table.querySelector("caption")?.textContent ?? "").trim();
      return [`"${caption}": ${table.scrollWidth} px in ${area.clientWidth} px`];
    })
  );
}

/**
 * Save a picture of the whole notebook at `path`.
 */
export async function screenshotNotebook(page: Page, path: string): Promise<void> {
  await withWholeNotebook(page, () => page.screenshot({ path }));
}

/**
 * Run `fn` with the window as tall as the notebook: JupyterLab scrolls the
 * notebook inside a panel of the window's height, which would cut a picture
 * of it (or of a tall table in it) short. The window is put back after.
 */
async function withWholeNotebook<T>(page: Page, fn: () => Promise<T>): Promise<T> {
  const viewport = page.viewportSize() ?? { width: 1280, height: 900 };
  const extra = await page.evaluate(() => {
    const scroller = document.querySelector(".jp-NotebookPanel .jp-WindowedPanel-outer") ??
      document.querySelector(".jp-NotebookPanel .jp-Notebook");
    return scroller ? scroller.scrollHeight - scroller.clientHeight : 0;
  });
  await page.setViewportSize({
    width: viewport.width,
    height: Math.min(viewport.height + Math.max(extra, 0), 32_000),
  });
  try {
    await page.evaluate(async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const scroller = document.querySelector(".jp-NotebookPanel .jp-WindowedPanel-outer");
      if (scroller) (scroller as unknown as { scrollTop: number }).scrollTop = 0;
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    return await fn();
  } finally {
    await page.setViewportSize(viewport);
  }
}

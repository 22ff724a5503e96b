/**
 * Output for the notebooks: tables of results (laid out by `tables.ts`) as
 * HTML in a notebook (through `Deno.jupyter`), and plain text anywhere else;
 * pictures; notices (a step skipped, a warning); and `say`.
 *
 * Imported inside the Deno Jupyter kernel, this module also installs the
 * course's output flush ({@linkcode keepOutputInOrder}): from then on every
 * line a cell prints, with plain `console.log` too, is shown under that cell
 * before the cell counts as finished. Every notebook imports it in its first
 * cell.
 *
 * @module
 */

import { escapeAttribute, escapeHtml } from "./_html_escape.ts";
import { keepOutputInOrder, type OutputOrder } from "./output_order.ts";
import { htmlTable, type Row, type ShowTableOptions, textTable } from "./tables.ts";

/** Whether the flush is in place in this kernel (see the module's documentation). */
export const OUTPUT_ORDER: OutputOrder = inKernel() ? await keepOutputInOrder() : "not in a kernel";

/**
 * Without the flush (a kernel unlike Deno 2.9's), how long output is given
 * to reach the frontend before a cell goes on: it narrows the race, not more.
 */
const FORWARD_MS = 10;

/**
 * Print `parts` as `console.log` does. With the course's flush in place this
 * is `console.log`; without it, it also gives the kernel a few milliseconds to
 * pass the line on before the cell goes on.
 *
 * @example
 * ```ts
 * await say("COURSE_REPORT=" + JSON.stringify({ unit: "ch14-b" }));
 * ```
 */
export async function say(...parts: unknown[]): Promise<void> {
  console.log(...parts);
  await settle();
}

/**
 * Show `rows` as a table: as HTML with a plain-text fallback inside the Deno
 * Jupyter kernel ({@linkcode htmlTable}), and printed as text elsewhere
 * ({@linkcode textTable}). Values are written as in TypeScript (see
 * `showValue`); a value too long to read at a glance is shown briefly (see
 * `briefValue`), its whole a click away in the HTML table.
 *
 * @example
 * ```ts
 * await showTable([{ case: "one frame", status: "PASS" }], { title: "splitFrames" });
 * ```
 */
export async function showTable(rows: readonly Row[], options: ShowTableOptions = {}) {
  const text = (options.title ? `${options.title}\n` : "") + textTable(rows);
  if (inKernel()) {
    await Deno.jupyter.display(
      { "text/html": htmlTable(rows, options), "text/plain": text },
      { raw: true },
    );
    await settle();
  } else {
    console.log(text);
  }
}

/**
 * Show an SVG picture inside the Deno Jupyter kernel, with `text` beside it
 * for frontends that show no pictures; elsewhere, print `text`. The picture
 * is also offered as HTML (an image of it), which a frontend shows even in a
 * notebook it does not trust, such as a learner's collected notebook.
 *
 * @example
 * ```ts
 * await showSvg('<svg xmlns="http://www.w3.org/2000/svg"/>', "an empty picture");
 * ```
 */
export async function showSvg(svg: string, text: string): Promise<void> {
  if (inKernel()) {
    await Deno.jupyter.display(
      { "image/svg+xml": svg, "text/html": svgAsHtml(svg, text), "text/plain": text },
      { raw: true },
    );
    await settle();
  } else {
    console.log(text);
  }
}

/**
 * An SVG picture as an HTML image (a `data:` URL), with `text` as its
 * description.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const html = svgAsHtml("<svg/>", 'a "box"');
 * assert.ok(html.startsWith('<img src="data:image/svg+xml;base64,PHN2Zy8+"'));
 * assert.ok(html.includes('alt="a &quot;box&quot;"'));
 * ```
 */
export function svgAsHtml(svg: string, text: string): string {
  const base64 = btoa(String.fromCodePoint(...new TextEncoder().encode(svg)));
  return `<img src="data:image/svg+xml;base64,${base64}" alt="${escapeAttribute(text)}" ` +
    `style="max-width:100%">`;
}

/** How a notice looks: what happened, in which colour. */
export type NoticeKind = "skipped" | "warning" | "info" | "matched" | "missed";

const NOTICES: Record<NoticeKind, [symbol: string, colour: string, background: string]> = {
  skipped: ["↷", "#57606a", "#f6f8fa"],
  warning: ["⚠", "#9a6700", "#fff8c5"],
  info: ["ℹ", "#0969da", "#ddf4ff"],
  matched: ["✓", "#1a7f37", "#dafbe1"],
  missed: ["✗", "#cf222e", "#ffebe9"],
};

/**
 * Tell the learner something a cell did instead of its usual work: that it
 * was skipped and why, or a warning; or how a prediction came out. In a notebook it is a coloured box, with
 * the same words as text for frontends that show no HTML; elsewhere a line
 * starting with its symbol.
 *
 * @example
 * ```ts
 * await notice("skipped", "This step needs splitFrames to pass its table first.");
 * ```
 */
export async function notice(kind: NoticeKind, text: string): Promise<void> {
  const [symbol, colour, background] = NOTICES[kind];
  const line = `${symbol} ${text}`;
  if (inKernel()) {
    const html = `<div style="border-left:4px solid ${colour};background:${background};` +
      `color:#24292f;padding:6px 10px;margin:4px 0">${symbol} ${escapeHtml(text)}</div>`;
    await Deno.jupyter.display({ "text/html": html, "text/plain": line }, { raw: true });
    await settle();
  } else {
    console.log(line);
  }
}

/**
 * Show a long text folded away under `summary`: in a notebook a `<details>`
 * that opens on a click; elsewhere the summary, then the text.
 *
 * @example
 * ```ts
 * await showDetails("prlimit --help (click to open)", "Usage:\n prlimit [options] COMMAND");
 * ```
 */
export async function showDetails(summary: string, text: string): Promise<void> {
  if (!inKernel()) {
    console.log(`${summary}\n${text}`);
    return;
  }
  const html =
    `<details style="margin:4px 0"><summary style="cursor:pointer">${escapeHtml(summary)}` +
    `</summary><pre style="white-space:pre-wrap;overflow-wrap:anywhere">${
      escapeHtml(text)
    }</pre></details>`;
  await Deno.jupyter.display({ "text/html": html, "text/plain": `${summary}\n${text}` }, {
    raw: true,
  });
  await settle();
}

/**
 * Show the line a program reads (`NAME={...}`, for the autograder or a
 * test) as a learner would rather see it: a short summary, the line itself
 * a click away. Its plain text, for everything that reads output as text,
 * is the line exactly.
 *
 * @example
 * ```ts
 * await reportLine("UNIT_A_REPORT", { status: "INCOMPLETE", unit: "ch14-a" });
 * ```
 */
export async function reportLine(name: string, value: Record<string, unknown>): Promise<void> {
  const line = `${name}=${JSON.stringify(value)}`;
  if (!inKernel()) {
    console.log(line);
    return;
  }
  const summary = Object.entries(value)
    .map(([key, item]) => `${key} ${typeof item === "string" ? item : JSON.stringify(item)}`)
    .join(" · ");
  const html =
    `<details data-report="${escapeAttribute(name)}" style="color:#57606a;margin:4px 0">` +
    `<summary style="cursor:pointer">ℹ ${escapeHtml(summary)} <i>(the line the grader reads)</i>` +
    `</summary><code style="white-space:pre-wrap;overflow-wrap:anywhere">${
      escapeHtml(line)
    }</code></details>`;
  await Deno.jupyter.display({ "text/html": html, "text/plain": line }, { raw: true });
  await settle();
}

/** Whether this code runs in the Deno Jupyter kernel (elsewhere `Deno.jupyter` throws). */
export function inKernel(): boolean {
  try {
    return typeof Deno.jupyter?.display === "function";
  } catch {
    return false;
  }
}

/** Without the flush, give the kernel a moment to pass output on. */
async function settle(): Promise<void> {
  if (inKernel() && OUTPUT_ORDER !== "installed" && OUTPUT_ORDER !== "already installed") {
    await new Promise((resolve) => setTimeout(resolve, FORWARD_MS));
  }
}

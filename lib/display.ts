/**
 * Output for the notebooks: tables of results as HTML in a notebook (through
 * `Deno.jupyter`), with pass and fail marked, and plain text anywhere else;
 * and `say`, which prints a line and waits until the notebook has shown it.
 *
 * @module
 */

/** A row: column name to value. */
export type Row = Record<string, unknown>;

/** Options for {@linkcode showTable}. */
export interface ShowTableOptions {
  /** A caption above the table. @default {undefined} */
  title?: string;
  /** The column whose values (`PASS`, `FAIL`, `UNFINISHED`, ...) are marked. @default {"status"} */
  status?: string;
}

/**
 * How long output is given to reach the frontend before a cell goes on. One
 * turn of the event loop kept 80 of 80 last lines with two CPU hogs running;
 * a CI run still lost one, so the wait is a little longer than a turn.
 */
const FORWARD_MS = 10;

const MARKS: Record<string, [symbol: string, colour: string]> = {
  PASS: ["✓", "#1a7f37"],
  PASSED: ["✓", "#1a7f37"],
  "as expected": ["✓", "#1a7f37"],
  FAIL: ["✗", "#cf222e"],
  NEEDS_WORK: ["✗", "#cf222e"],
  UNEXPECTED: ["✗", "#cf222e"],
  UNFINISHED: ["…", "#9a6700"],
};

/**
 * Print `parts` as `console.log` does, then, inside the Deno Jupyter kernel,
 * give it a few milliseconds to pass the output on. Deno 2.9's kernel
 * can finish a cell before forwarding what the cell printed last, and a
 * frontend then never shows it; a cell that ends by awaiting `say` (or
 * {@linkcode showTable}) loses nothing.
 *
 * @example
 * ```ts
 * await say("COURSE_REPORT=" + JSON.stringify({ unit: "ch14-b" }));
 * ```
 */
export async function say(...parts: unknown[]): Promise<void> {
  console.log(...parts);
  if (inKernel()) await new Promise((resolve) => setTimeout(resolve, FORWARD_MS));
}

/**
 * Show `rows` as a table: as HTML with a plain-text fallback inside the Deno
 * Jupyter kernel, and printed as text elsewhere.
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
    await new Promise((resolve) => setTimeout(resolve, FORWARD_MS));
  } else {
    console.log(text);
  }
}

/**
 * Lay `rows` out as text, one column per key of the first row, each as wide
 * as its widest cell.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const table = textTable([{ mode: "normal", calls: 2 }, { mode: "old-version", calls: 0 }]);
 * assert.equal(table, "mode         calls\nnormal       2\nold-version  0");
 * ```
 */
export function textTable(rows: readonly Row[]): string {
  if (rows.length === 0) return "(no rows)";
  const columns = Object.keys(rows[0]);
  const lines = [columns, ...rows.map((row) => columns.map((column) => cell(row[column])))];
  const widths = columns.map((_, i) => Math.max(...lines.map((line) => line[i].length)));
  return lines
    .map((line) => line.map((text, i) => text.padEnd(widths[i])).join("  ").trimEnd())
    .join("\n");
}

/**
 * `rows` as an HTML table, with the status column's values marked by symbol
 * and colour, and every value escaped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const html = htmlTable([{ case: "<b>", status: "FAIL" }]);
 * assert.ok(html.includes("&lt;b&gt;"));
 * assert.ok(html.includes("✗ FAIL"));
 * ```
 */
export function htmlTable(rows: readonly Row[], options: ShowTableOptions = {}): string {
  const status = options.status ?? "status";
  const columns = rows.length === 0 ? [] : Object.keys(rows[0]);
  const head = columns.map((column) => `<th style="text-align:left">${escape(column)}</th>`);
  const body = rows.map((row) => {
    const cells = columns.map((column) => {
      const text = cell(row[column]);
      const mark = column === status ? MARKS[text] ?? MARKS[text.split(" ")[0]] : undefined;
      return mark === undefined
        ? `<td style="text-align:left"><code>${escape(text)}</code></td>`
        : `<td style="text-align:left;color:${mark[1]};font-weight:bold;white-space:nowrap">${
          mark[0]
        } ${escape(text)}</td>`;
    });
    return `<tr>${cells.join("")}</tr>`;
  });
  const caption = options.title
    ? `<caption style="text-align:left;font-weight:bold">${escape(options.title)}</caption>`
    : "";
  return `<table>${caption}<thead><tr>${head.join("")}</tr></thead><tbody>${
    body.join("")
  }</tbody></table>`;
}

/**
 * Show an SVG picture inside the Deno Jupyter kernel, with `text` beside it
 * for frontends that show no pictures; elsewhere, print `text`.
 *
 * @example
 * ```ts
 * await showSvg('<svg xmlns="http://www.w3.org/2000/svg"/>', "an empty picture");
 * ```
 */
export async function showSvg(svg: string, text: string): Promise<void> {
  if (inKernel()) {
    await Deno.jupyter.display({ "image/svg+xml": svg, "text/plain": text }, { raw: true });
    await new Promise((resolve) => setTimeout(resolve, FORWARD_MS));
  } else {
    console.log(text);
  }
}

/** Whether this code runs in the Deno Jupyter kernel (elsewhere `Deno.jupyter` throws). */
export function inKernel(): boolean {
  try {
    return typeof Deno.jupyter?.display === "function";
  } catch {
    return false;
  }
}

function cell(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
}

function escape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

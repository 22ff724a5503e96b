/**
 * Output for the notebooks: tables of results as HTML in a notebook (through
 * `Deno.jupyter`), with pass and fail marked, and plain text anywhere else;
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

import { keepOutputInOrder, type OutputOrder } from "./output_order.ts";
import { showArguments, showValue } from "./show_value.ts";

/** A row: column name to value. */
export type Row = Record<string, unknown>;

/** Options for {@linkcode showTable}. */
export interface ShowTableOptions {
  /** A caption above the table. @default {undefined} */
  title?: string;
  /** The column whose values (`PASS`, `FAIL`, `UNFINISHED`, ...) are marked. @default {"status"} */
  status?: string;
}

/** Whether the flush is in place in this kernel (see the module's documentation). */
export const OUTPUT_ORDER: OutputOrder = inKernel() ? await keepOutputInOrder() : "not in a kernel";

/**
 * Without the flush (a kernel unlike Deno 2.9's), how long output is given
 * to reach the frontend before a cell goes on: it narrows the race, not more.
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
 * How a grade row's fields are shown: in this order, under these headings.
 * Other columns follow in their own order.
 */
const GRADE_COLUMNS: [key: string, heading: string][] = [
  ["case", "case"],
  ["args", "input"],
  ["expected", "expected"],
  ["observed", "observed"],
  ["status", "status"],
];

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
 * Jupyter kernel, and printed as text elsewhere. Values are written as in
 * TypeScript (see {@linkcode showValue}); a grade row's `args` are shown as
 * the call's input, and a thrown error's `message` beside what was observed.
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
 * Lay `rows` out as text, one column per key (a grade row's in the order
 * case, input, expected, observed, status), each as wide as its widest cell.
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
  const columns = columnsOf(rows);
  const lines = [
    columns.map(([, heading]) => heading),
    ...rows.map((row) => columns.map(([key]) => cellText(row, key))),
  ];
  const widths = columns.map((_, i) => Math.max(...lines.map((line) => line[i].length)));
  return lines
    .map((line) => line.map((text, i) => text.padEnd(widths[i])).join("  ").trimEnd())
    .join("\n");
}

/**
 * `rows` as an HTML table, with the status column's values marked by symbol
 * and colour, and every value escaped once (never JSON inside JSON).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const html = htmlTable([{ case: "<b>", expected: ['{"a":1}'], status: "FAIL" }]);
 * assert.ok(html.includes("&lt;b&gt;"));
 * assert.ok(html.includes(`[ '{"a":1}' ]`));
 * assert.ok(html.includes("✗ FAIL"));
 * ```
 */
export function htmlTable(rows: readonly Row[], options: ShowTableOptions = {}): string {
  const status = options.status ?? "status";
  const columns = columnsOf(rows);
  const head = columns.map(([, heading]) => `<th style="text-align:left">${escape(heading)}</th>`);
  const body = rows.map((row) => {
    const cells = columns.map(([key]) => {
      const text = cellText(row, key);
      const mark = key === status ? MARKS[text] ?? MARKS[text.split(" ")[0]] : undefined;
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
export type NoticeKind = "skipped" | "warning" | "info";

const NOTICES: Record<NoticeKind, [symbol: string, colour: string, background: string]> = {
  skipped: ["↷", "#57606a", "#f6f8fa"],
  warning: ["⚠", "#9a6700", "#fff8c5"],
  info: ["ℹ", "#0969da", "#ddf4ff"],
};

/**
 * Tell the learner something a cell did instead of its usual work: that it
 * was skipped and why, or a warning. In a notebook it is a coloured box, with
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
      `color:#24292f;padding:6px 10px;margin:4px 0">${symbol} ${escape(text)}</div>`;
    await Deno.jupyter.display({ "text/html": html, "text/plain": line }, { raw: true });
    await settle();
  } else {
    console.log(line);
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

/** Without the flush, give the kernel a moment to pass output on. */
async function settle(): Promise<void> {
  if (inKernel() && OUTPUT_ORDER !== "installed" && OUTPUT_ORDER !== "already installed") {
    await new Promise((resolve) => setTimeout(resolve, FORWARD_MS));
  }
}

/** The columns of `rows` as `[key, heading]`: a grade row's first, in their order. */
function columnsOf(rows: readonly Row[]): [string, string][] {
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))]
    .filter((key) => key !== "message");
  const known = GRADE_COLUMNS.filter(([key]) => keys.includes(key));
  const others = keys.filter((key) => !GRADE_COLUMNS.some(([known]) => known === key));
  const ordered: [string, string][] = [
    ...known,
    ...others.map((key): [string, string] => [key, key]),
  ];
  // A table of grade rows reads case, input, expected, observed, status; any other table keeps its order.
  return known.length >= 3 ? ordered : keys.map((key) => [key, key]);
}

/** The text of one cell: `args` as a call's input, a thrown error with its message. */
function cellText(row: Row, key: string): string {
  const value = row[key];
  if (key === "args" && Array.isArray(value)) return showArguments(value);
  if (key === "observed" && typeof row.message === "string" && row.message !== "") {
    const shown = showValue(value);
    return shown.includes(row.message) ? shown : `${shown}: ${row.message}`;
  }
  return value === undefined ? "" : showValue(value);
}

function escape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function escapeAttribute(text: string): string {
  return escape(text).replaceAll('"', "&quot;");
}

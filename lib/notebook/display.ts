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
import { briefArguments, briefValue, prettyValue, showArguments, showValue } from "./show_value.ts";

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

/** A cell longer than this is shown briefly, with the whole value a click away. */
const SHORT = 80;

/** No cell of a table shows more than this many characters. */
const LONGEST = 160;

/** A call's arguments, for a table cell: shown as they are written between parentheses. */
export class CallArguments {
  /** Wrap `list`. */
  constructor(readonly list: readonly unknown[]) {}
}

/**
 * A value for a table cell, written as code even when it is a string (then
 * quoted, so that `"42"` never reads as `42`).
 */
export class CodeValue {
  /** Wrap `value`. */
  constructor(readonly value: unknown) {}
}

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
 * TypeScript (see {@linkcode showValue}); a value too long to read at a
 * glance is shown briefly (see {@linkcode briefValue}), its whole a click
 * away in the HTML table.
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
 * Lay `rows` out as text, one column per key in the order the keys first
 * appear, each as wide as its widest cell; a long value is shown briefly, in
 * at most 160 characters.
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
  const lines = [columns, ...rows.map((row) => columns.map((key) => cellOf(row, key).shown))];
  const widths = columns.map((_, i) => Math.max(...lines.map((line) => line[i].length)));
  return lines
    .map((line) => line.map((text, i) => text.padEnd(widths[i])).join("  ").trimEnd())
    .join("\n");
}

/**
 * `rows` as an HTML table that fits the notebook's width, with the status
 * column's values marked by symbol and colour, every value escaped once
 * (never JSON inside JSON), and each long value shown briefly, its whole
 * value in a `<details>` that opens on a click.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const html = htmlTable([{ case: "<b>", expected: ['{"a":1}'], status: "FAIL" }]);
 * assert.ok(html.includes("&lt;b&gt;"));
 * assert.ok(html.includes(`[ '{"a":1}' ]`));
 * assert.ok(html.includes("✗ FAIL"));
 * const long = htmlTable([{ text: "word ".repeat(40) }]);
 * assert.ok(long.includes("<details>"));
 * ```
 */
export function htmlTable(rows: readonly Row[], options: ShowTableOptions = {}): string {
  const status = options.status ?? "status";
  const columns = columnsOf(rows);
  const head = columns.map((key) =>
    `<th style="text-align:left;vertical-align:bottom;white-space:nowrap">${escape(key)}</th>`
  );
  const body = rows.map((row) => {
    const cells = columns.map((key) => {
      const { shown, whole } = cellOf(row, key);
      const mark = key === status ? MARKS[shown] ?? MARKS[shown.split(" ")[0]] : undefined;
      if (mark !== undefined) {
        return `<td style="${CELL_STYLE};color:${mark[1]};font-weight:bold;white-space:nowrap">${
          mark[0]
        } ${escape(shown)}</td>`;
      }
      // Words (a case's name, a sentence) read as text; values as code.
      const prose = typeof row[key] === "string";
      const code = shown === "" ? "" : prose
        ? escape(shown)
        // A value may break anywhere (a line of JSON has no space to break at); words only between.
        : `<code style="white-space:pre-wrap;overflow-wrap:anywhere">${escape(shown)}</code>`;
      return whole === undefined
        ? `<td style="${CELL_STYLE}">${code}</td>`
        : `<td style="${CELL_STYLE}"><details><summary style="cursor:pointer">${code}</summary>` +
          `<pre style="white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0">${
            escape(whole)
          }</pre></details></td>`;
    });
    return `<tr>${cells.join("")}</tr>`;
  });
  const caption = options.title
    ? `<caption style="text-align:left;font-weight:bold">${escape(options.title)}</caption>`
    : "";
  return `<table style="max-width:100%;table-layout:auto">${caption}<thead><tr>${
    head.join("")
  }</tr></thead><tbody>${body.join("")}</tbody></table>`;
}

/** Each cell wraps its text, so that a table is never wider than the notebook. */
const CELL_STYLE = "text-align:left;vertical-align:top;white-space:normal;overflow-wrap:break-word";

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
      `color:#24292f;padding:6px 10px;margin:4px 0">${symbol} ${escape(text)}</div>`;
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
  const html = `<details style="margin:4px 0"><summary style="cursor:pointer">${escape(summary)}` +
    `</summary><pre style="white-space:pre-wrap;overflow-wrap:anywhere">${
      escape(text)
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
    `<summary style="cursor:pointer">ℹ ${escape(summary)} <i>(the line the grader reads)</i>` +
    `</summary><code style="white-space:pre-wrap;overflow-wrap:anywhere">${
      escape(line)
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

/** The keys of `rows`, in the order they first appear. */
function columnsOf(rows: readonly Row[]): string[] {
  return [...new Set(rows.flatMap((row) => Object.keys(row)))];
}

/**
 * What one cell shows: a sentence of text whole up to 160 characters, any
 * other value briefly (by its name, with runs of one character counted, in
 * at most 80 characters) and, when that is not all of it,
 * with its whole text (one item a line) for the HTML table's `<details>`. A
 * key the row lacks is blank; a key that holds `undefined` says so.
 */
function cellOf(row: Row, key: string): { shown: string; whole?: string } {
  if (!Object.hasOwn(row, key)) return { shown: "" };
  const cell = row[key];
  if (typeof cell === "string") {
    return cell.length <= LONGEST ? { shown: cell } : { shown: briefValue(cell), whole: cell };
  }
  const list = cell instanceof CallArguments ? cell.list : undefined;
  const value = cell instanceof CodeValue ? cell.value : cell;
  const quoted = typeof value === "string";
  const whole = list ? showArguments(list) : quoted ? showArguments([value]) : showValue(value);
  const shown = list ? briefArguments(list, SHORT) : briefValue(value, SHORT, { quoted: true });
  if (shown === whole) return { shown };
  return { shown, whole: quoted ? value : prettyValue(list ?? value) };
}

function escape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function escapeAttribute(text: string): string {
  return escape(text).replaceAll('"', "&quot;");
}

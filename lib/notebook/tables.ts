/**
 * Rows laid out as tables for the notebooks: as text, one column per key, and
 * as HTML that fits the notebook's width, with pass and fail marked and each
 * long value shown briefly, its whole a click away. `showTable` in
 * `display.ts` shows them.
 *
 * @module
 */

import { escapeHtml } from "./_html_escape.ts";
import { briefArguments, briefValue, prettyValue, showArguments, showValue } from "./show_value.ts";

/** A row: column name to value. */
export type Row = Record<string, unknown>;

/** Options for {@linkcode htmlTable}, and for `showTable` in `display.ts`. */
export interface ShowTableOptions {
  /** A caption above the table. @default {undefined} */
  title?: string;
  /** The column whose values (`PASS`, `FAIL`, `UNFINISHED`, ...) are marked. @default {"status"} */
  status?: string;
}

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
 * // Values hold <wbr>, a place to break a line that shows nothing, after each comma and colon.
 * const html = htmlTable([{ case: "<b>", expected: ['{"a":1}'], status: "FAIL" }])
 *   .replaceAll("<wbr>", "");
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
    `<th style="text-align:left;vertical-align:bottom;white-space:nowrap">${escapeHtml(key)}</th>`
  );
  const body = rows.map((row) => {
    const cells = columns.map((key) => {
      const { shown, whole } = cellOf(row, key);
      const mark = key === status ? MARKS[shown] ?? MARKS[shown.split(" ")[0]] : undefined;
      if (mark !== undefined) {
        return `<td style="${CELL_STYLE};color:${mark[1]};font-weight:bold;white-space:nowrap">${
          mark[0]
        } ${escapeHtml(shown)}</td>`;
      }
      // Words (a case's name, a sentence) read as text; values as code.
      const prose = typeof row[key] === "string";
      const code = shown === "" ? "" : prose
        ? escapeHtml(shown)
        // Values break between words as text does, and a line of JSON, which has no space, after
        // its commas, colons and slashes: a name such as ProtocolError is never cut in two.
        : `<code style="white-space:pre-wrap;overflow-wrap:break-word">${
          breakable(escapeHtml(shown))
        }</code>`;
      return whole === undefined
        ? `<td style="${CELL_STYLE}">${code}</td>`
        : `<td style="${CELL_STYLE}"><details><summary style="cursor:pointer">${code}</summary>` +
          `<pre style="white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0">${
            escapeHtml(whole)
          }</pre></details></td>`;
    });
    return `<tr>${cells.join("")}</tr>`;
  });
  const caption = options.title
    ? `<caption style="text-align:left;font-weight:bold">${escapeHtml(options.title)}</caption>`
    : "";
  return `<table style="max-width:100%;table-layout:auto">${caption}<thead><tr>${
    head.join("")
  }</tr></thead><tbody>${body.join("")}</tbody></table>`;
}

/** Escaped `html` with a place to break a line after each comma, colon, slash and equals sign. */
function breakable(html: string): string {
  return html.replace(/[,:/=]/g, "$&<wbr>");
}

/** Each cell wraps its text, so that a table is never wider than the notebook. */
const CELL_STYLE = "text-align:left;vertical-align:top;white-space:normal;overflow-wrap:break-word";

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

// The benchmark's table: one line per measure, with its ratio to the limit or
// to the SDK where there is one, the target, and whether it was met.

/** One line of the table. */
export interface Line {
  /** The row it belongs to, e.g. `1 round trips`; empty to continue the row above. */
  row: string;
  measure: string;
  /** The median measured, with its unit. */
  value: string;
  /** The ratio the target is about, e.g. `0.91 × (a)`. */
  ratio?: string;
  target?: string;
  /** `yes`, `no`, or a reason it was not judged (`smoke`). */
  met?: string;
}

const HEADINGS = ["row", "measure", "median", "ratio", "target", "met"];

/** The lines as a fixed-width text table, headings first. */
export function formatTable(lines: readonly Line[]): string {
  const rows = lines.map((line) => [
    line.row,
    line.measure,
    line.value,
    line.ratio ?? "",
    line.target ?? "",
    line.met ?? "",
  ]);
  return textTable([HEADINGS, ...rows], { rightAligned: [2] });
}

/** `rows` (the first holds the headings) as a fixed-width text table. */
export function textTable(
  rows: readonly string[][],
  { rightAligned = [] as number[] } = {},
): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => (row[i] ?? "").length)));
  return rows.map((row) =>
    widths.map((width, i) => {
      const cell = row[i] ?? "";
      return rightAligned.includes(i) ? cell.padStart(width) : cell.padEnd(width);
    }).join("  ").trimEnd()
  ).join("\n");
}

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

const HEADINGS: Line = {
  row: "row",
  measure: "measure",
  value: "median",
  ratio: "ratio",
  target: "target",
  met: "met",
};

/** The lines as a fixed-width text table, headings first. */
export function formatTable(lines: readonly Line[]): string {
  const all = [HEADINGS, ...lines];
  const columns = ["row", "measure", "value", "ratio", "target", "met"] as const;
  const widths = columns.map((column) =>
    Math.max(...all.map((line) => (line[column] ?? "").length))
  );
  return all.map((line) =>
    columns.map((column, i) => {
      const cell = line[column] ?? "";
      return column === "value" ? cell.padStart(widths[i]) : cell.padEnd(widths[i]);
    }).join("  ").trimEnd()
  ).join("\n");
}

// The control notebook for the kernel's output race: cells that each end with
// plain console.log lines, and a count of the lines a run lost or showed under
// the wrong cell. Used by tests/output_order_test.ts, the browser test and
// `deno task bench:console` (which runs it 20 times).

/** Code cells in the control notebook, and lines each prints at its end. */
export const CELLS = 6;
export const LINES = 4;

/** How a control notebook starts: plain, or importing the course's display module first. */
export type Variant = "plain" | "course";

/** The control notebook, as nbformat 4.5 JSON. */
export function consoleLinesNotebook(variant: Variant): string {
  const display = new URL("../lib/notebook/display.ts", import.meta.url).href;
  const code = (id: string, source: string) => ({
    cell_type: "code",
    id,
    metadata: {},
    execution_count: null,
    outputs: [],
    source,
  });
  const cells = [
    code(
      "setup",
      variant === "course" ? `import { say } from "${display}";` : "const ready = true;",
    ),
    ...Array.from({ length: CELLS }, (_, i) =>
      code(
        `cell-${i}`,
        [
          `let total${i} = 0;`,
          `for (let k = 0; k < 200_000; k++) total${i} += k;`,
          `for (let j = 0; j < ${LINES}; j++) console.log(\`cell ${i} line \${j}\`);`,
        ].join("\n"),
      )),
  ];
  return JSON.stringify(
    {
      cells,
      metadata: { kernelspec: { name: "deno", display_name: "Deno", language: "typescript" } },
      nbformat: 4,
      nbformat_minor: 5,
    },
    null,
    1,
  );
}

/** What one run of the control notebook showed. */
export interface LineCount {
  /** Lines printed at the end of a cell that the notebook does not show at all. */
  lost: number;
  /** Lines shown under a cell other than the one that printed them. */
  misplaced: number;
}

/** Count lost and misplaced lines, given the lines shown under each cell (by cell id). */
export function countLines(shown: Map<string, string[]>): LineCount {
  let lost = 0;
  let misplaced = 0;
  const everywhere = [...shown.values()].flat();
  for (let i = 0; i < CELLS; i++) {
    const own = shown.get(`cell-${i}`) ?? [];
    misplaced += own.filter((line) => /^cell \d+ line/.test(line) && !line.startsWith(`cell ${i} `))
      .length;
    for (let j = 0; j < LINES; j++) {
      if (!everywhere.includes(`cell ${i} line ${j}`)) lost++;
    }
  }
  misplaced += (shown.get("setup") ?? []).filter((line) => /^cell \d+ line/.test(line)).length;
  return { lost, misplaced };
}

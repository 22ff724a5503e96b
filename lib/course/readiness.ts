/**
 * Steps that know their state: a step that needs the learner's work grades
 * that work again when it runs, rather than trusting a flag an earlier cell
 * set (the learner may have fixed a function since, or broken it). When the
 * work does not pass yet, the step says so (↷), naming what it waits for and
 * the exact cell to finish.
 *
 * @module
 */

import { notice } from "../notebook/display.ts";
import { type GradeRow, verdict } from "../grading/grading.ts";
import { isObject } from "../mcp/shared/jsonrpc.ts";

/** What a step needs: a piece of the learner's work, graded now. */
export interface Need {
  /** What it is, such as `answerFor`. */
  name: string;
  /** Where the learner writes it, such as `the ✏️ cell of section 1`. */
  cell: string;
  /** Grade it now: its rows, as its table shows them. */
  grade: () => readonly GradeRow[] | Promise<readonly GradeRow[]>;
  /**
   * The notebook it is read from as last saved, such as `work/ch14-a.ipynb`
   * (another unit's work, which this kernel does not run): running its cells
   * there changes nothing here until that notebook is saved, so the notice
   * says to save it.
   */
  savedIn?: string;
}

/**
 * Grade each need now, and resolve with whether every one passes. When one
 * does not, show a ↷ notice saying that `step` waits, for what (with what
 * the first case that does not pass saw), and where to finish it; a need
 * whose grading throws counts as not passing, with the error's message. A
 * need read from a notebook as saved (`savedIn`) is finished only once that
 * notebook is saved, and the notice says so.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gradeCases } from "../grading/grading.ts";
 *
 * const double = (n: number) => n * 3;
 * const ok = await ready("The next step", [{
 *   name: "double",
 *   cell: "the ✏️ cell above",
 *   grade: () => gradeCases(double, [{ label: "two", args: [2], expected: 4 }]),
 * }]);
 * assert.equal(ok, false);
 * ```
 */
export async function ready(step: string, needs: readonly Need[]): Promise<boolean> {
  const waiting: string[] = [];
  const unready: Need[] = [];
  for (const need of needs) {
    let state: string;
    try {
      const rows = await need.grade();
      if (verdict(rows) === "PASSED") continue;
      const passed = rows.filter((row) => row.status === "PASS").length;
      // The first case that does not pass, and what it saw: where to look first.
      const first = rows.find((row) => row.status !== "PASS")!;
      state = rows.every((row) => row.status === "UNFINISHED")
        ? "not written yet"
        : `${passed} of ${rows.length} cases pass; "${first.case}" does not: ${seen(first)}`;
    } catch (error) {
      state = `its grading failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    waiting.push(`${need.name} (${state}, in ${need.cell})`);
    unready.push(need);
  }
  if (waiting.length === 0) return true;
  const them = waiting.length === 1 ? "it, run its cell" : "them, run their cells";
  const saved = [...new Set(unready.flatMap((need) => need.savedIn ?? []))];
  const save = saved.length === 0
    ? ""
    : ` and save ${saved.join(" and ")} (File → Save Notebook there: this step reads ${
      saved.length === 1 ? "it" : "them"
    } as last saved)`;
  await notice(
    "skipped",
    `${step} waits for ${waiting.join(" and ")}. Finish ${them}${save}, then run this cell again.`,
  );
  return false;
}

/** What a case that did not pass saw, in a few words: what was thrown (and said), or returned. */
function seen(row: GradeRow): string {
  if (row.status === "UNFINISHED") return "not written yet";
  const { observed, message } = row;
  if (typeof observed === "string") return observed; // "changed its input", "printed on stdout"
  if (isObject(observed) && typeof observed.throws === "string") {
    const said = message.split("\n")[0];
    return `it threw ${observed.throws}${said === "" ? "" : ` (${clipped(said)})`}`;
  }
  return `it returned ${clipped(JSON.stringify(observed) ?? String(observed))}`;
}

/** `text`, cut to 80 characters. */
function clipped(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * Clear what running a notebook leaves in it: outputs, execution counts, and
 * the timings nbconvert records in cell metadata.
 *
 * @module
 */

import { type Cell, mapCells, type Notebook, sourceOf, toLines } from "./notebook.ts";

/**
 * `notebook` as if never run, with every source stored as Jupyter stores it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const run = {
 *   nbformat: 4,
 *   nbformat_minor: 5,
 *   metadata: {},
 *   cells: [{
 *     cell_type: "code" as const,
 *     id: "a",
 *     metadata: { execution: { "iopub.status.idle": "..." } },
 *     source: "1 + 1",
 *     outputs: [{ output_type: "execute_result" }],
 *     execution_count: 1,
 *   }],
 * };
 * const [cell] = stripOutputs(run).cells;
 * assert.deepEqual(cell, { cell_type: "code", id: "a", metadata: {}, source: ["1 + 1"], outputs: [], execution_count: null });
 * ```
 */
export function stripOutputs(notebook: Notebook): Notebook {
  return mapCells(notebook, (cell): Cell => {
    const { execution: _, ...metadata } = cell.metadata;
    const stripped: Cell = { ...cell, metadata, source: toLines(sourceOf(cell)) };
    return cell.cell_type === "code"
      ? { ...stripped, outputs: [], execution_count: null }
      : stripped;
  });
}

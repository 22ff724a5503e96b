/**
 * Replace the learner's part of each code cell with its starter.
 *
 * @module
 */

import { replaceMarked } from "./markers.ts";
import { mapCells, type Notebook, NotebookError, sourceOf, toLines } from "./notebook.ts";

/**
 * `notebook` with every marked solution in its code cells replaced by the
 * starter (see {@linkcode replaceMarked}). A broken marker throws
 * `NotebookError` naming the cell's index and id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const cell = { cell_type: "code" as const, id: "f", metadata: {}, source: "// BEGIN SOLUTION\nf();\n// END SOLUTION" };
 * const notebook = { nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [cell] };
 * assert.deepEqual(replaceSolutions(notebook).cells[0].source, ["throw new NotImplementedError();"]);
 * ```
 */
export function replaceSolutions(notebook: Notebook): Notebook {
  return mapCells(notebook, (cell, index) => {
    if (cell.cell_type !== "code") return cell;
    try {
      return { ...cell, source: toLines(replaceMarked(sourceOf(cell))) };
    } catch (error) {
      throw new NotebookError(`cell ${index} (${cell.id}), ${(error as Error).message}`);
    }
  });
}

/**
 * Leave out the cells only instructors see.
 *
 * @module
 */

import type { Notebook } from "./notebook.ts";

/** The tag that marks a cell as the instructor's only. */
export const HIDDEN_TAG = "hidden";

/**
 * `notebook` without the cells tagged `hidden`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const cell = (id: string, tags: string[]) => ({ cell_type: "markdown" as const, id, metadata: { tags }, source: "" });
 * const notebook = { nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [cell("a", []), cell("b", ["hidden"])] };
 * assert.deepEqual(dropHidden(notebook).cells.map((c) => c.id), ["a"]);
 * ```
 */
export function dropHidden(notebook: Notebook): Notebook {
  return {
    ...notebook,
    cells: notebook.cells.filter((cell) => !(cell.metadata.tags ?? []).includes(HIDDEN_TAG)),
  };
}

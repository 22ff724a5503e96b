/**
 * Jupyter notebooks (nbformat 4.5) as the editions builder and the autograder
 * read and write them.
 *
 * @module
 */

/** A notebook cell. */
export interface Cell {
  cell_type: "code" | "markdown" | "raw";
  id: string;
  metadata: { tags?: string[]; [key: string]: unknown };
  source: string | string[];
  outputs?: unknown[];
  execution_count?: number | null;
  [key: string]: unknown;
}

/** A notebook. */
export interface Notebook {
  nbformat: number;
  nbformat_minor: number;
  metadata: Record<string, unknown>;
  cells: Cell[];
}

/** A change to a notebook; it returns a new notebook and never alters its input. */
export type Transform = (notebook: Notebook) => Notebook;

/** A notebook that cannot be read, or a cell marked in a way the builder cannot follow. */
export class NotebookError extends Error {
  /** Make the error. */
  constructor(message: string) {
    super(message);
    this.name = "NotebookError";
  }
}

/**
 * A cell's source as one string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const cell = { cell_type: "code" as const, id: "a", metadata: {}, source: ["a\n", "b"] };
 * assert.equal(sourceOf(cell), "a\nb");
 * ```
 */
export function sourceOf(cell: Cell): string {
  return Array.isArray(cell.source) ? cell.source.join("") : cell.source;
}

/**
 * Source text as Jupyter stores it: a list of lines, each but the last
 * ending in a newline.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(toLines("a\nb"), ["a\n", "b"]);
 * assert.deepEqual(toLines(""), []);
 * ```
 */
export function toLines(text: string): string[] {
  return text === "" ? [] : text.split(/(?<=\n)/);
}

/** Apply `transforms` to `notebook` in order. */
export function apply(notebook: Notebook, transforms: readonly Transform[]): Notebook {
  return transforms.reduce((result, transform) => transform(result), notebook);
}

/**
 * Parse notebook JSON, checking what the builder relies on: nbformat 4.5 or
 * later, a list of cells, and unique cell ids. `name` is used in errors.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const text = '{"nbformat":4,"nbformat_minor":5,"metadata":{},"cells":[]}';
 * assert.equal(parseNotebook(text, "empty.ipynb").cells.length, 0);
 * assert.throws(() => parseNotebook("{}", "bad.ipynb"), NotebookError);
 * ```
 */
export function parseNotebook(text: string, name: string): Notebook {
  let value: Notebook;
  try {
    value = JSON.parse(text);
  } catch {
    throw new NotebookError(`${name} is not JSON`);
  }
  if (value?.nbformat !== 4 || !(value.nbformat_minor >= 5) || !Array.isArray(value.cells)) {
    throw new NotebookError(`${name} is not an nbformat 4.5 notebook with a list of cells`);
  }
  const ids = new Set<string>();
  value.cells.forEach((cell, index) => {
    if (typeof cell?.id !== "string" || ids.has(cell.id)) {
      throw new NotebookError(`${name}, cell ${index}: its id is missing or not unique`);
    }
    ids.add(cell.id);
  });
  return value;
}

/** Notebook JSON as Jupyter writes it: one-space indentation and a final newline. */
export function formatNotebook(notebook: Notebook): string {
  return JSON.stringify(notebook, null, 1) + "\n";
}

/** Return `notebook` with each cell replaced by `change(cell, index)`. */
export function mapCells(
  notebook: Notebook,
  change: (cell: Cell, index: number) => Cell,
): Notebook {
  return { ...notebook, cells: notebook.cells.map(change) };
}

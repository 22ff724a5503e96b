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
 * Parse notebook JSON, checking what the builder and the autograder rely on:
 * nbformat 4.5 or later, metadata that is an object, a list of cells, and
 * for each cell an object with a known type, a unique id, metadata that is
 * an object and a source that is a string or a list of strings. `name` is
 * used in errors.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const text = '{"nbformat":4,"nbformat_minor":5,"metadata":{},"cells":[]}';
 * assert.equal(parseNotebook(text, "empty.ipynb").cells.length, 0);
 * assert.throws(() => parseNotebook("{}", "bad.ipynb"), NotebookError);
 * assert.throws(
 *   () => parseNotebook('{"nbformat":4,"nbformat_minor":5,"metadata":null,"cells":[]}', "n.ipynb"),
 *   /metadata is not an object/,
 * );
 * ```
 */
export function parseNotebook(text: string, name: string): Notebook {
  let value: Notebook;
  try {
    value = JSON.parse(text);
  } catch {
    throw new NotebookError(`${name} is not JSON`);
  }
  if (!isRecord(value) || value.nbformat !== 4 || !(value.nbformat_minor >= 5)) {
    throw new NotebookError(`${name} is not an nbformat 4.5 notebook`);
  }
  if (!isRecord(value.metadata)) throw new NotebookError(`${name}: its metadata is not an object`);
  if (!Array.isArray(value.cells)) throw new NotebookError(`${name}: its cells are not a list`);
  const ids = new Set<string>();
  value.cells.forEach((cell: unknown, index) => {
    const problem = cellProblem(cell, ids);
    if (problem !== undefined) throw new NotebookError(`${name}, cell ${index}: ${problem}`);
    ids.add((cell as Cell).id);
  });
  return value;
}

/** What is wrong with `cell`, or undefined. */
function cellProblem(cell: unknown, ids: ReadonlySet<string>): string | undefined {
  if (!isRecord(cell)) return "it is not an object";
  if (typeof cell.id !== "string" || ids.has(cell.id)) return "its id is missing or not unique";
  if (!["code", "markdown", "raw"].includes(cell.cell_type as string)) {
    return "its cell_type is not code, markdown or raw";
  }
  if (!isRecord(cell.metadata)) return "its metadata is not an object";
  const source = cell.source;
  const lines = Array.isArray(source) && source.every((line) => typeof line === "string");
  if (typeof source !== "string" && !lines) return "its source is not text or a list of lines";
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> & Notebook {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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

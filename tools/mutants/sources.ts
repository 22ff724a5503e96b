/**
 * What the mutation run mutates: each unit's worked solutions, laid out as
 * the grader lays out a learner's notebook ({@linkcode learnerModule}), and
 * the lines of each graded function between `// BEGIN SOLUTION` and
 * `// END SOLUTION`: the code a learner writes, and nothing around it.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { type Notebook, parseNotebook, sourceOf } from "../editions/notebook.ts";
import { learnerModule } from "../grading/scratch.ts";
import type { UnitSpec } from "../grading/spec.ts";

/** Lines `start` to `end` (1-based, both included) of a module hold worked code of `fn`. */
export interface SolutionLines {
  fn: string;
  start: number;
  end: number;
}

/** One unit's worked solutions as a module, and where in it each function's worked code is. */
export interface SolutionModule {
  unit: string;
  /** The module's text, as the grader builds it from the worked notebook. */
  text: string;
  lines: SolutionLines[];
}

const SOLUTIONS = new URL("../../solutions/", import.meta.url);
const BEGIN = "// BEGIN SOLUTION";
const END = "// END SOLUTION";

/**
 * The worked notebooks in `folder` (by default `solutions/`), by the unit
 * their metadata names (`metadata.course.unit`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const notebooks = await workedNotebooks();
 * assert.ok(notebooks.has("ch14-a"));
 * ```
 */
export async function workedNotebooks(folder: URL = SOLUTIONS): Promise<Map<string, Notebook>> {
  const found = new Map<string, Notebook>();
  for await (const entry of Deno.readDir(folder)) {
    if (!entry.isFile || !entry.name.endsWith(".ipynb") || entry.name.startsWith(".")) continue;
    const path = fileURLToPath(new URL(entry.name, folder));
    const notebook = parseNotebook(await Deno.readTextFile(path), path);
    const course = notebook.metadata.course as { unit?: unknown; edition?: unknown } | undefined;
    if (course?.edition !== "worked" || typeof course.unit !== "string") continue;
    if (found.has(course.unit)) throw new Error(`two worked notebooks for unit ${course.unit}`);
    found.set(course.unit, notebook);
  }
  return found;
}

/**
 * `spec`'s graded cells from its worked `notebook`, as one module, and the
 * lines of each graded function's worked code in it (in its later steps'
 * cells too). A cell holding several graded functions gives each solution
 * block to the nearest graded function declared at the start of a line above
 * it. Throws when a graded function
 * has no cell or no worked code: there would be nothing to mutate.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "../grading/units/mod.ts";
 *
 * const source = [
 *   "function authorize(name, catalog, allowed) {",
 *   "  // BEGIN SOLUTION",
 *   "  return Object.hasOwn(catalog, name) && allowed.has(name);",
 *   "  // END SOLUTION",
 *   "}",
 * ].join("\n");
 * const cells = [
 *   { cell_type: "code" as const, id: "answer-for", metadata: {}, source: "// BEGIN SOLUTION\nx;\n// END SOLUTION" },
 *   { cell_type: "code" as const, id: "authorize", metadata: {}, source },
 * ];
 * const notebook = { nbformat: 4, nbformat_minor: 5, metadata: {}, cells };
 * const module = solutionModule(UNITS.get("ch14-a")!, notebook);
 * const [, lines] = module.lines;
 * assert.deepEqual(module.text.split("\n").slice(lines.start - 1, lines.end), [
 *   "  return Object.hasOwn(catalog, name) && allowed.has(name);",
 * ]);
 * ```
 */
export function solutionModule(spec: UnitSpec, notebook: Notebook): SolutionModule {
  const text = learnerModule(notebook, spec);
  const lines: SolutionLines[] = [];
  let from = 0;
  // In the notebook's order, which is the module's.
  const order = (id: string) => notebook.cells.findIndex((cell) => cell.id === id);
  const ids = [...new Set(spec.functions.flatMap((fn) => [fn.cell, ...fn.parts ?? []]))]
    .sort((a, b) => order(a) - order(b));
  for (const id of ids) {
    // A cell's own functions, or the function whose later steps it holds.
    const declared = spec.functions.filter((fn) => fn.cell === id).map((fn) => fn.name);
    const names = declared.length > 0
      ? declared
      : spec.functions.filter((fn) => fn.parts?.includes(id)).map((fn) => fn.name);
    const cell = notebook.cells.find((cell) => cell.id === id && cell.cell_type === "code");
    if (cell === undefined) throw new Error(`unit ${spec.unit}: no code cell ${id}`);
    const source = sourceOf(cell);
    const at = text.indexOf(source, from);
    if (at === -1) throw new Error(`unit ${spec.unit}: cell ${id} is not in its module as written`);
    from = at + source.length;
    const first = text.slice(0, at).split("\n").length;
    let owner = names[0];
    let begin: number | undefined;
    for (const [index, line] of source.split("\n").entries()) {
      owner = names.find((name) => declares(line, name)) ?? owner;
      if (line.trim() === BEGIN) begin = index;
      if (line.trim() === END && begin !== undefined && index > begin + 1) {
        lines.push({ fn: owner, start: first + begin + 1, end: first + index - 1 });
      }
    }
  }
  for (const fn of spec.functions) {
    if (!lines.some((range) => range.fn === fn.name)) {
      throw new Error(`unit ${spec.unit}: ${fn.name} has no worked code in cell ${fn.cell}`);
    }
  }
  return { unit: spec.unit, text, lines };
}

/** Whether `line` declares `name` at its start (a function, or a const, let or var). */
function declares(line: string, name: string): boolean {
  const escaped = name.replace(/[$]/g, "\\$");
  return new RegExp(
    `^(?:export\\s+)?(?:(?:async\\s+)?function\\s*\\*?\\s*|(?:const|let|var)\\s+)${escaped}\\b`,
  ).test(line);
}

/**
 * A learner's module made from a saved notebook as the autograder grades
 * it, for the course's own steps that run the learner's code from the saved
 * notebook (Lab 01's server, Lab 02's client, the later units' Unit A): the
 * graded cells with the cells the learner added (a helper a graded function
 * calls), less the added cells that do not parse, which the grader leaves
 * out as the kernel runs on past them.
 *
 * @module
 */

import type { Notebook } from "../editions/notebook.ts";
import { courseCells, learnerModule, moduleCells, type ModuleSpec } from "./scratch.ts";
import { unparsedCells } from "./unparsed_cells.ts";

/**
 * The module of `notebook`'s cells for `spec` (of unit `unit`), importing
 * the library from `lib`, as the autograder takes it.
 *
 * @example A helper in a cell the learner added is kept
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const cell = (id: string, source: string) => ({ cell_type: "code" as const, id, metadata: {}, source });
 * const notebook = {
 *   nbformat: 4, nbformat_minor: 5, metadata: {},
 *   cells: [cell("mine", "const never = () => false;"), cell("authorize", "function authorize() { return never(); }")],
 * };
 * const source = await moduleAsGraded(notebook, UNITS.get("ch14-a")!, "../lib/");
 * assert.ok(source.includes("const never = () => false;"));
 * ```
 */
export async function moduleAsGraded(
  notebook: Notebook,
  spec: ModuleSpec & { unit: string },
  lib: string,
): Promise<string> {
  const course = await courseCells(spec.unit);
  const added = moduleCells(notebook, spec, course).filter((cell) => cell.added);
  const key = JSON.stringify(added);
  if (!unparsedOf.has(key)) unparsedOf.set(key, await unparsedCells(added));
  return learnerModule(notebook, spec, { lib, courseCells: course, leftOut: unparsedOf.get(key) });
}

/** The added cells that do not parse, by the cells' text: each step asks again. */
const unparsedOf = new Map<string, Record<string, string>>();

/**
 * The learner's graded code, taken out of a notebook: the cells the worked
 * edition marks as the learner's, and nothing else, as a module the sandbox
 * can load.
 *
 * @module
 */

import { type Notebook, sourceOf } from "../editions/notebook.ts";
import type { UnitSpec } from "./spec.ts";

const LIB = new URL("../../lib/", import.meta.url);

/**
 * A module holding the learner's graded cells from `notebook`, the library
 * names those cells may use, and an export `graded` naming each graded
 * function (undefined when the learner's cells do not define it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const cell = { cell_type: "code" as const, id: "authorize", metadata: {}, source: "function authorize() { return false; }" };
 * const notebook = { nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [cell] };
 * const source = learnerModule(notebook, UNITS["ch14-a"]);
 * assert.ok(source.includes("function authorize()"));
 * assert.ok(source.includes("authorize: typeof authorize"));
 * ```
 */
export function learnerModule(notebook: Notebook, spec: UnitSpec): string {
  const imports = Object.entries(spec.imports).map(([file, names]) =>
    `import { ${names.join(", ")} } from "${new URL(file, LIB).href}";`
  );
  const cells = [...new Set(spec.functions.map((fn) => fn.cell))].map((id) => {
    const cell = notebook.cells.find((cell) => cell.id === id && cell.cell_type === "code");
    return cell === undefined ? `// (no cell ${id})` : `// cell ${id}\n${sourceOf(cell)}`;
  });
  const graded = spec.functions.map((fn) =>
    `  ${fn.name}: typeof ${fn.name} === "function" ? ${fn.name} : undefined,`
  );
  return [...imports, "", ...cells, "", "export const graded = {", ...graded, "};", ""].join("\n");
}

/** The library files a unit's learner module may read: the ones it imports, and theirs. */
export function libraryFiles(spec: UnitSpec): string[] {
  const files = new Set(Object.keys(spec.imports));
  if (files.has("jsonrpc.ts")) files.add("errors.ts");
  return [...files].map((file) => new URL(file, LIB).pathname);
}

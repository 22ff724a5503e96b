/**
 * The markers around a learner's part of a code cell, and what replaces them
 * in the student edition.
 *
 * @module
 */

import { NotebookError } from "./notebook.ts";

const BEGIN_SOLUTION = "// BEGIN SOLUTION";
const END_SOLUTION = "// END SOLUTION";
const BEGIN_STARTER = "// BEGIN STARTER";
const END_STARTER = "// END STARTER";
const MARKERS = [BEGIN_SOLUTION, END_SOLUTION, BEGIN_STARTER, END_STARTER];

/**
 * `source` with each region from `// BEGIN SOLUTION` to `// END SOLUTION`
 * replaced by the starter in the `// BEGIN STARTER` ... `// END STARTER`
 * block right after it (its lines uncommented), or by `throw new
 * NotImplementedError();` when there is none, at the markers' indentation.
 * Throws `NotebookError` naming the line of a marker without its partner.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const worked = [
 *   "function f() {",
 *   "  // BEGIN SOLUTION",
 *   "  return 42;",
 *   "  // END SOLUTION",
 *   "  // BEGIN STARTER",
 *   "  // return 0;",
 *   "  // END STARTER",
 *   "}",
 * ].join("\n");
 * assert.equal(replaceMarked(worked), "function f() {\n  return 0;\n}");
 * assert.equal(replaceMarked("// BEGIN SOLUTION\nx = 1;\n// END SOLUTION"), "throw new NotImplementedError();");
 * ```
 */
export function replaceMarked(source: string): string {
  const lines = source.split("\n");
  const out: string[] = [];
  let i = 0;
  const fail = (at: number, problem: string): never => {
    throw new NotebookError(`line ${at + 1}: ${problem}`);
  };
  while (i < lines.length) {
    const marker = lines[i].trim();
    if (marker !== BEGIN_SOLUTION) {
      if (MARKERS.includes(marker)) fail(i, `"${marker}" without "${BEGIN_SOLUTION}" before it`);
      out.push(lines[i++]);
      continue;
    }
    const indent = lines[i].slice(0, lines[i].indexOf("//"));
    const begin = i++;
    while (i < lines.length && lines[i].trim() !== END_SOLUTION) {
      if (MARKERS.includes(lines[i].trim())) fail(i, `"${lines[i].trim()}" inside a solution`);
      i++;
    }
    if (i === lines.length) fail(begin, `"${BEGIN_SOLUTION}" has no "${END_SOLUTION}"`);
    i++;
    if (lines[i]?.trim() !== BEGIN_STARTER) {
      out.push(`${indent}throw new NotImplementedError();`);
      continue;
    }
    const starter = i++;
    while (i < lines.length && lines[i].trim() !== END_STARTER) {
      const line = lines[i];
      if (!line.startsWith(`${indent}//`) || MARKERS.includes(line.trim())) {
        fail(i, "a starter line must be a comment at the markers' indentation");
      }
      const code = line.slice(indent.length + 2).replace(/^ /, "");
      out.push(code === "" ? "" : indent + code);
      i++;
    }
    if (i === lines.length) fail(starter, `"${BEGIN_STARTER}" has no "${END_STARTER}"`);
    i++;
  }
  return out.join("\n");
}

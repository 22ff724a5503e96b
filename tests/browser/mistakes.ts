// A learner's copy of each unit with its exercises written, and written with
// the mistakes beginners make: the grade tables must make each one plain (✗,
// and what differs first, in a sentence). Each mistake is a change to the
// worked edition's cell: this text, exactly once, becomes that.

import { fileURLToPath } from "node:url";
import { formatNotebook, parseNotebook, sourceOf } from "../../tools/editions/notebook.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Each unit's mistakes: the cell, the worked text, and what the learner wrote instead. */
const MISTAKES: Record<string, [cell: string, from: string, to: string][]> = {
  "ch14-a": [
    ["answer-for", "if (message.id !== requestId) {", "if (message.id != requestId) {"],
    ["authorize", "return Object.hasOwn(catalog, name) &&", "return name in catalog &&"],
  ],
  "ch14-b": [
    ["split-frames", "if (end - start + 1 > limit) {", "if (end - start > limit) {"],
    ["transfer-problems", "return problems.sort();", "return problems;"],
  ],
  "lab-01": [
    ["handle-message", "  if (!hasId) return undefined;\n", ""],
    ["answer-tools", "failure(id, -32602, `Unknown tool", "failure(id, -32601, `Unknown tool"],
    [
      "answer-request",
      "if (!MODERN_VERSIONS.includes(version)) {",
      "if (!SUPPORTED_VERSIONS.includes(version)) {",
    ],
  ],
  "lab-02": [
    ["correlate", "if (reply.id !== requestId) {", "if (reply.id != requestId) {"],
    [
      "server-link",
      "this.#stderrShown = this.#showStderr();",
      "this.#stderrShown = Promise.resolve();",
    ],
    ["server-link", "    await this.#stderrShown;\n", "    await this.#showStderr();\n"],
    [
      "named-tests",
      "assert.deepEqual(tools.map((tool) => tool.name).sort(), GRAMMAR_TOOLS);",
      "assert.equal(tools.length, 4);",
    ],
  ],
  "lab-04": [
    [
      "route-reply",
      "if (inFlight.includes(id)) return id;",
      "if (inFlight.some((one) => one == id)) return id;",
    ],
    ["sse-data", 'data.push(value.startsWith(" ") ? value.slice(1) : value);', "data.push(value);"],
    [
      "origin-allowed",
      "return origin === null || allowed.includes(origin);",
      "return origin === null || allowed.some((one) => origin.startsWith(one));",
    ],
  ],
  ch15: [
    ["limit-command", "`--data=${limits.memoryBytes}`", "`--as=${limits.memoryBytes}`"],
    ["deno-flags", 'const flags = ["--no-remote"];', "const flags: string[] = [];"],
    ["bwrap-command", 'options.push("--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev");\n', ""],
    [
      "bwrap-command",
      '  for (const path of policy.write) options.push("--bind", path, path);\n',
      '  for (const path of policy.write) options.push("--bind", path, path);\n' +
      '  options.push("--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev");\n',
    ],
  ],
};

/**
 * Write the student edition of `unit` with every cell the learner writes in
 * taken from the worked edition, and its mistakes made, as a learner's copy
 * in work/ (where the notebook's imports resolve as in the learner's own):
 * its path from the course folder. Throws when a mistake's text is not in its
 * cell exactly once.
 */
export async function mistakenCopy(unit: string): Promise<string> {
  const read = async (path: string) => parseNotebook(await Deno.readTextFile(root + path), path);
  const worked = await read(`solutions/${unit}.ipynb`);
  const student = await read(`notebooks/${unit}.ipynb`);
  for (const cell of student.cells) {
    const done = worked.cells.find((c) => c.id === cell.id)!;
    if (!learnersPart(sourceOf(done))) continue;
    let source = sourceOf(done);
    for (const [id, from, to] of MISTAKES[unit].filter(([id]) => id === cell.id)) {
      if (source.split(from).length !== 2) throw new Error(`${unit} ${id}: not once: ${from}`);
      source = source.replace(from, to);
    }
    cell.source = source;
  }
  // Not a hidden name: Jupyter does not serve those.
  const path = `work/browser-mistakes-${unit}.ipynb`;
  await Deno.writeTextFile(root + path, formatNotebook(student));
  return path;
}

/** Whether a worked cell's source holds a learner's part: a solution beyond the edition's name. */
function learnersPart(source: string): boolean {
  return source.split("// BEGIN SOLUTION").slice(1)
    .some((part) => part.split("// END SOLUTION")[0].trim() !== 'const EDITION = "instructor";');
}

/** The units that have mistakes to show. */
export const MISTAKEN_UNITS: string[] = Object.keys(MISTAKES);

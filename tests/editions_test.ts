// The committed notebooks: valid nbformat, up to date with their worked
// editions, and student editions that hold no solution and no hidden cell.

import assert from "node:assert/strict";
import { buildEditions } from "../tools/editions/build.ts";
import { type Cell, parseNotebook, sourceOf } from "../tools/editions/notebook.ts";
import { fileURLToPath } from "node:url";
import { jupyterPython } from "../tools/jupyter/jupyter.ts";

const root = new URL("../", import.meta.url);
const files = await buildEditions();
const worked = [...files.keys()].filter((path) => path.startsWith("solutions/"));

Deno.test("every committed notebook is what the editions build writes", async () => {
  assert.ok(worked.length >= 2, "no worked editions found");
  for (const [path, text] of files) {
    assert.equal(await Deno.readTextFile(new URL(path, root)), text, `${path} is out of date`);
  }
});

Deno.test("every committed notebook is valid nbformat 4.5 for Jupyter's own validator", async () => {
  const paths = [...files.keys()].map((path) => fileURLToPath(new URL(path, root)));
  // The Python that runs Jupyter has nbformat; another python3 on the PATH may not.
  const { code, stderr } = await new Deno.Command(jupyterPython(), {
    args: [
      "-c",
      "import sys, nbformat\nfor p in sys.argv[1:]: nbformat.validate(nbformat.read(p, as_version=4))",
      ...paths,
    ],
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
});

/**
 * The lines a learner must write and every line of the hidden cells, leaving
 * out lines the student edition shows anyway (in a starter or another cell)
 * and lines too short to tell.
 */
function secretLines(cells: Cell[]): string[] {
  const secret = new Set<string>();
  const shown = new Set<string>();
  for (const cell of cells) {
    const hidden = (cell.metadata.tags ?? []).includes("hidden");
    let inside = false;
    let starter = false;
    for (const line of sourceOf(cell).split("\n").map((line) => line.trim())) {
      if (line === "// BEGIN SOLUTION") inside = true;
      else if (line === "// END SOLUTION") inside = false;
      else if (line === "// BEGIN STARTER" || line === "// END STARTER") starter = !starter;
      else {
        // A starter's line is shown uncommented once: a comment in it may name a line of the
        // solution on purpose ("// return answerToday(id, method, params);" as the ending).
        const bare = line.replace(/^\/\/ ?/, "").trim();
        if (!starter) (hidden || inside ? secret : shown).add(bare);
        else {
          const code = bare.replace(/^\/\/ ?/, "").trim();
          shown.add(code).add(code.replace(/\s+\/\/ .*$/, "")); // and without its own comment
        }
      }
    }
  }
  return [...secret].filter((line) => line.length >= 30 && !shown.has(line));
}

for (const source of worked) {
  const student = source.replace("solutions/", "notebooks/");
  Deno.test(`${student} holds no solution, no hidden cell and no marker`, () => {
    const solution = parseNotebook(files.get(source)!, source);
    const text = files.get(student)!;
    const edition = parseNotebook(text, student);
    const sources = edition.cells.map(sourceOf).join("\n");
    for (const line of secretLines(solution.cells)) {
      assert.ok(!sources.includes(line), `${student} gives away: ${line}`);
    }
    for (const marker of ["BEGIN SOLUTION", "END SOLUTION", "BEGIN STARTER", "HOLDOUT_RESULT"]) {
      assert.ok(!text.includes(marker), `${student} holds ${marker}`);
    }
    assert.ok(edition.cells.every((cell) => !(cell.metadata.tags ?? []).includes("hidden")));
    const ids = edition.cells.map((cell) => cell.id);
    const solutionIds = solution.cells.map((cell) => cell.id);
    assert.deepEqual(ids, solutionIds.filter((id) => ids.includes(id)), "cell ids out of order");
  });
}

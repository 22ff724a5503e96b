// One set of cases: the grade tables of both editions, the worked editions'
// hidden cells and the grader all read the same modules (`cases/` for the
// visible cases, `holdouts/` for the hidden ones), so they cannot drift; only a
// case judged by effect, which the grader alone can run, is the grader's own. No
// notebook writes a case of its own, every hidden case reaches the grader, and
// every label names one case of its function.

import assert from "node:assert/strict";
import { type Notebook, parseNotebook, sourceOf } from "../tools/editions/notebook.ts";
import { loadHoldouts, UNITS } from "../tools/grading/units/mod.ts";
import { HOLDOUTS } from "../holdouts/mod.ts";

const root = new URL("../", import.meta.url);

/** Every committed notebook with its unit, from its metadata. */
async function notebooks(): Promise<{ path: string; unit: string; notebook: Notebook }[]> {
  const found = [];
  for (const folder of ["solutions", "notebooks"]) {
    for await (const entry of Deno.readDir(new URL(folder, root))) {
      if (!entry.name.endsWith(".ipynb") || entry.name.startsWith(".")) continue;
      const path = `${folder}/${entry.name}`;
      const notebook = parseNotebook(await Deno.readTextFile(new URL(path, root)), path);
      const unit = (notebook.metadata.course as { unit: string }).unit;
      found.push({ path, unit, notebook });
    }
  }
  return found;
}

/** The code of `notebook`, without its comment lines. */
function code(notebook: Notebook): string {
  return notebook.cells.filter((cell) => cell.cell_type === "code").map(sourceOf).join("\n")
    .split("\n").filter((line) => !line.trim().startsWith("//")).join("\n");
}

Deno.test("no notebook writes a case of its own: each grade table reads cases/ or holdouts/", async () => {
  for (const { path, unit, notebook } of await notebooks()) {
    const text = code(notebook);
    assert.doesNotMatch(text, /\blabel\s*:/, `${path} writes a case inline`);
    for (const match of text.matchAll(/const (MY_\w+)[^=]*=\s*([^;]*);/g)) {
      assert.equal(match[2].trim(), "[]", `${path} ships ${match[1]} with cases in it`);
    }
    const spec = UNITS.get(unit);
    if (spec === undefined) continue;
    const imported = text.match(/import \{[^}]*\bCASES\b[^}]*\} from "\.\.\/(cases\/\w+\.ts)"/);
    assert.ok(imported, `${path} does not import its cases from cases/`);
    const module = await import(new URL(imported[1], root).href);
    for (const fn of spec.functions) {
      // A case judged by its effect (`observe`: the grader runs the learner's sandbox with the
      // intruder in it) is the grader's alone; the notebook shows that effect in its own step.
      const shared = fn.cases.filter((testCase) => !("observe" in testCase));
      assert.ok(
        shared.length === module.CASES[fn.name].length &&
          shared.every((testCase, index) => testCase === module.CASES[fn.name][index]),
        `${path}: the grader's ${fn.name} cases differ`,
      );
      assert.match(
        text,
        new RegExp(`\\bCASES\\.${fn.name}\\b`),
        `${path} shows no ${fn.name} table`,
      );
      const hidden = HOLDOUTS.get(unit)?.[fn.name] ?? [];
      if (path.startsWith("notebooks/")) {
        assert.doesNotMatch(text, /holdouts\/|HOLDOUTS/, `${path} reads the hidden cases`);
      } else if (hidden.length > 0) {
        assert.match(text, new RegExp(`\\bHOLDOUTS\\.${fn.name}\\b`), `${path} skips ${fn.name}'s`);
      }
    }
  }
});

Deno.test("every hidden case reaches the grader", async () => {
  assert.equal(await loadHoldouts(), HOLDOUTS);
  for (const [unit, byFunction] of HOLDOUTS) {
    const spec = UNITS.get(unit);
    assert.ok(spec, `holdouts/mod.ts names ${unit}, which the grader does not know`);
    for (const name of Object.keys(byFunction)) {
      assert.ok(
        spec.functions.some((fn) => fn.name === name),
        `hidden cases for ${unit} ${name}, which the unit does not grade`,
      );
    }
  }
  for await (const entry of Deno.readDir(new URL("holdouts", root))) {
    // The seals' watermark lives beside the hidden cases, and is not one.
    if (["mod.ts", "watermark.ts"].includes(entry.name) || !entry.name.endsWith(".ts")) continue;
    const module = await import(new URL(`holdouts/${entry.name}`, root).href);
    assert.ok(
      [...HOLDOUTS.values()].includes(module.HOLDOUTS),
      `holdouts/${entry.name} is not registered in holdouts/mod.ts`,
    );
  }
});

Deno.test("every case label is unique within its function, visible and hidden together", () => {
  for (const spec of UNITS.values()) {
    for (const fn of spec.functions) {
      const labels = [...fn.cases, ...HOLDOUTS.get(spec.unit)?.[fn.name] ?? []].map((c) => c.label);
      const twice = labels.filter((label, index) => labels.indexOf(label) !== index);
      assert.deepEqual(twice, [], `${spec.unit} ${fn.name}: labels used twice`);
      assert.ok(labels.every((label) => label.trim() !== ""), `${fn.name}: an empty label`);
    }
  }
});

Deno.test("every unit the grader knows has a worked notebook and a student edition", async () => {
  const found = await notebooks();
  for (const unit of UNITS.keys()) {
    for (const folder of ["solutions/", "notebooks/"]) {
      const editions = found.filter((n) => n.unit === unit && n.path.startsWith(folder));
      assert.equal(editions.length, 1, `${unit}: ${editions.length} notebooks in ${folder}`);
    }
  }
});

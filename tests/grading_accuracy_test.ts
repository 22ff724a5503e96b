// The grader's accuracy: every wrong implementation in the catalogue (each a
// misconception a learner really has) loses marks, and correct ones written
// in other styles keep them all. Each implementation is a learner's module,
// graded through the grader's own path: gradeLearner, in the sandbox, on the
// visible and the hidden cases.

import assert from "node:assert/strict";
import { gradeLearner } from "../tools/grading/grade_learner.ts";
import { inOrder } from "../tools/grading/pool.ts";
import { loadHoldouts, UNITS } from "../tools/grading/units/mod.ts";
import { type Catalogue, CATALOGUES } from "./catalogue/mod.ts";

const scratch = await Deno.makeTempDir({ prefix: "grading-accuracy-" });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));
const holdouts = await loadHoldouts();

/** The marks `source` earns for the catalogue's function, and the most it could. */
async function marks({ unit, fn }: Catalogue, source: string): Promise<[number, number]> {
  const module = `${scratch}/${crypto.randomUUID()}.ts`;
  await Deno.writeTextFile(module, source);
  const learner = {
    name: module,
    submissions: [{ unit, code: { kind: "module" as const, path: module } }],
  };
  const [results] = await gradeLearner(learner, holdouts, {});
  const tests = results.tests.filter((t) => t.name.startsWith(`${fn}: `));
  return [tests.reduce((sum, t) => sum + t.score, 0), tests.length];
}

/**
 * A test grading each of `catalogue`'s right or wrong implementations, two
 * at a time, as one step each: a right one must keep every mark, a wrong one
 * must lose some.
 */
function gradeEach(catalogue: Catalogue, which: "right" | "wrong") {
  return async (t: Deno.TestContext) => {
    const entries = Object.entries(catalogue[which]);
    const graded = inOrder(entries, 2, ([, source]) => marks(catalogue, source));
    let index = 0;
    for await (const settled of graded) {
      const [label] = entries[index++];
      await t.step(label, () => {
        if (settled.status === "rejected") throw settled.reason;
        const [score, max] = settled.value;
        assert.ok(max > 0, `${label}: no case of ${catalogue.fn} was graded`);
        if (which === "right") assert.equal(score, max, `${label} lost marks (${score}/${max})`);
        else assert.ok(score < max, `${label} got full marks (${score}/${max})`);
      });
    }
  };
}

Deno.test("every graded function has a catalogue: ten misconceptions and three other styles", () => {
  const graded = [...UNITS.values()].flatMap((spec) =>
    spec.functions.map((fn) => `${spec.unit} ${fn.name}`)
  );
  const catalogued = CATALOGUES.map(({ unit, fn }) => `${unit} ${fn}`);
  assert.deepEqual(catalogued.toSorted(), graded.toSorted());
  for (const { fn, right, wrong } of CATALOGUES) {
    assert.ok(Object.keys(wrong).length >= 10, `${fn}: ${Object.keys(wrong).length} wrong`);
    const others = Object.keys(right).filter((label) => label !== "the worked solution's way");
    assert.ok(others.length >= 3, `${fn}: ${others.length} right in other styles`);
  }
});

for (const catalogue of CATALOGUES) {
  Deno.test(
    `${catalogue.fn}: correct implementations get full marks`,
    gradeEach(catalogue, "right"),
  );
  Deno.test(
    `${catalogue.fn}: every wrong implementation loses marks`,
    gradeEach(catalogue, "wrong"),
  );
}

// The grader's accuracy: every wrong implementation in the catalogue (each a
// misconception a learner really has) loses marks, and correct ones written
// in other styles keep them all. Each implementation is a learner's module,
// graded through the grader's own path (gradeTogether, in the sandbox, on the
// visible and the hidden cases). A catalogue's implementations are graded
// together, in one sandbox: they are the course's own code, so keeping them
// apart from each other is not what this test is about (grade_hostile_test.ts
// is where learners are kept apart).

import assert from "node:assert/strict";
import { gradeTogether } from "../tools/grading/grade_learner.ts";
import { loadHoldouts, UNITS } from "../tools/grading/units/mod.ts";
import { type Catalogue, CATALOGUES } from "./catalogue/mod.ts";

const scratch = await Deno.makeTempDir({ prefix: "grading-accuracy-" });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));
const holdouts = await loadHoldouts();

/** The marks each implementation of `catalogue` earns for its function, and the most it could, by label. */
async function marks(
  { unit, fn, right, wrong }: Catalogue,
): Promise<Map<string, [number, number]>> {
  const entries = [...Object.entries(right), ...Object.entries(wrong)];
  const learners = await Promise.all(entries.map(async ([label, source]) => {
    const module = `${scratch}/${crypto.randomUUID()}.ts`;
    await Deno.writeTextFile(module, source);
    return {
      name: label,
      submissions: [{ unit, code: { kind: "module" as const, path: module } }],
    };
  }));
  const graded = await gradeTogether(learners, holdouts, { functions: [fn] });
  return new Map(graded.map(([results], index) => {
    const tests = results.tests.filter((t) => t.name.startsWith(`${fn}: `));
    return [entries[index][0], [tests.reduce((sum, t) => sum + t.score, 0), tests.length]];
  }));
}

/**
 * A test of each of `catalogue`'s right or wrong implementations, as one
 * step each: a right one must keep every mark, a wrong one must lose some.
 */
function gradeEach(
  catalogue: Catalogue,
  which: "right" | "wrong",
  graded: () => ReturnType<typeof marks>,
) {
  return async (t: Deno.TestContext) => {
    const all = await graded();
    for (const label of Object.keys(catalogue[which])) {
      await t.step(label, () => {
        const [score, max] = all.get(label)!;
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
  // Right and wrong ones graded together, once, for both tests.
  let graded: ReturnType<typeof marks> | undefined;
  const once = () => graded ??= marks(catalogue);
  Deno.test(
    `${catalogue.fn}: correct implementations get full marks`,
    gradeEach(catalogue, "right", once),
  );
  Deno.test(
    `${catalogue.fn}: every wrong implementation loses marks`,
    gradeEach(catalogue, "wrong", once),
  );
}

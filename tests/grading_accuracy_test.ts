// The grader's accuracy: every wrong implementation in the catalogue (each a
// misconception a learner really has) loses marks, and correct ones written
// in other styles keep them all. Each implementation is a learner's module,
// graded through the grader's own path (gradeTogether, in the sandbox, on the
// visible and the hidden cases). A catalogue's implementations are graded
// together, in one sandbox: they are the course's own code, so keeping them
// apart from each other is not what this test is about (grade_hostile_test.ts
// is where learners are kept apart).
//
// A wrong implementation need only lose one mark. Lab 02's client classes and
// named tests take a realm for each case: there every implementation is
// graded on the visible cases first, and only the right ones and the wrong
// ones that kept every visible mark are graded again on the hidden cases
// too. The visible cases run first, in realms of their own, in a grading
// with the hidden cases as in one without them, so a visible mark lost there
// is lost in a grading on every case.

import assert from "node:assert/strict";
import { Analysis } from "../tools/grading/analysis.ts";
import { gradeTogether } from "../tools/grading/grade_learner.ts";
import { type Holdouts, loadHoldouts, UNITS } from "../tools/grading/units/mod.ts";
import { type Catalogue, CATALOGUES } from "./catalogue/mod.ts";

const scratch = await Deno.makeTempDir({ prefix: "grading-accuracy-" });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));
const holdouts = await loadHoldouts();

/** An implementation's marks for its catalogue's function: what it earned, and the most it could. */
type Marks = [score: number, max: number];

/**
 * The marks each of `implementations` (label and module) earns for
 * `catalogue`'s function, graded together on its visible cases and
 * `hidden`'s, by label.
 */
async function gradedOn(
  { unit, fn }: Catalogue,
  implementations: readonly (readonly [string, string])[],
  hidden: Holdouts | undefined,
  analysis: Analysis,
): Promise<Map<string, Marks>> {
  const learners = await Promise.all(implementations.map(async ([label, source]) => {
    const module = `${scratch}/${crypto.randomUUID()}.ts`;
    await Deno.writeTextFile(module, source);
    return {
      name: label,
      submissions: [{ unit, code: { kind: "module" as const, path: module } }],
    };
  }));
  const results = await gradeTogether(learners, hidden, { functions: [fn], analysis });
  return new Map(results.map(([results], index) => {
    const tests = results.tests.filter((t) => t.name.startsWith(`${fn}: `));
    return [implementations[index][0], [tests.reduce((sum, t) => sum + t.score, 0), tests.length]];
  }));
}

/**
 * The drivers that run each case in a realm of its own (Lab 02's client
 * classes and named tests): a case costs a realm's start and its module's
 * load, where a function called on its arguments takes one realm for a
 * phase's cases.
 */
const A_REALM_A_CASE = [
  "tools/grading/drivers/lab_02_client.ts",
  "tools/grading/drivers/lab_02_tests.ts",
];

/**
 * The marks each implementation of `catalogue` earns for its function, by
 * label. Where each case takes a realm of its own, the wrong ones are
 * graded on the visible cases first, and only those that keep every visible
 * mark, with the right ones, on every case; elsewhere a second grading costs
 * more than the hidden cases it spares, and each is graded on every case.
 */
async function marks(catalogue: Catalogue): Promise<Map<string, Marks>> {
  await using analysis = new Analysis();
  const { driver } = UNITS.get(catalogue.unit)!.functions.find(({ name }) =>
    name === catalogue.fn
  )!;
  if (!A_REALM_A_CASE.includes(driver ?? "")) {
    const all = [...Object.entries(catalogue.right), ...Object.entries(catalogue.wrong)];
    return await gradedOn(catalogue, all, holdouts, analysis);
  }
  const wrong = Object.entries(catalogue.wrong);
  const visible = await gradedOn(catalogue, wrong, undefined, analysis);
  const kept = wrong.filter(([label]) => {
    const [score, max] = visible.get(label)!;
    return score === max;
  });
  const right = Object.entries(catalogue.right);
  return new Map([
    ...visible,
    ...await gradedOn(catalogue, [...right, ...kept], holdouts, analysis),
  ]);
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
  let marked: ReturnType<typeof marks> | undefined;
  const once = () => marked ??= marks(catalogue);
  Deno.test(
    `${catalogue.fn}: correct implementations get full marks`,
    gradeEach(catalogue, "right", once),
  );
  Deno.test(
    `${catalogue.fn}: every wrong implementation loses marks`,
    gradeEach(catalogue, "wrong", once),
  );
}

// Red-team rounds' attempts at the graded functions (tests/attacks_round*/):
// each a misreading. A closed one is a wrong entry of its function's catalogue,
// graded there as a learner's module through the grader's own path
// (tests/grading_accuracy_test.ts: gradeTogether, in the sandbox, hidden cases
// included); an open one is graded here, when asked for.

import assert from "node:assert/strict";
import { gradeTogether } from "../../tools/grading/grade_learner.ts";
import { loadHoldouts } from "../../tools/grading/units/mod.ts";
import { CATALOGUES } from "./mod.ts";

/** An attempt: the function it answers for (unit and name), its label, and its module's source. */
export interface Attempt {
  unit: string;
  fn: string;
  label: string;
  source: string;
}

/** The catalogue of `unit fn`. */
function catalogueOf(unit: string, fn: string) {
  const catalogue = CATALOGUES.find((c) => c.unit === unit && c.fn === fn);
  assert.ok(catalogue, `no catalogue of ${unit} ${fn}`);
  return catalogue;
}

/**
 * The worked way of `unit fn` in its catalogue, with `from` (there once) changed to `to`.
 *
 * @example A misreading of authorize, one change from the worked way
 * ```ts
 * import assert from "node:assert/strict";
 * const source = workedWith("ch14-a", "authorize", "Object.hasOwn(catalog, name)", "name in catalog");
 * assert.match(source, /return name in catalog && allowed\.has\(name\)/);
 * ```
 */
export function workedWith(unit: string, fn: string, from: string, to: string): string {
  const worked = catalogueOf(unit, fn).right["the worked solution's way"];
  assert.equal(worked.split(from).length, 2, `${fn}'s worked way holds ${from} not once`);
  return worked.replace(from, () => to);
}

/**
 * Every attempt of `attempts` (labels of misreadings by "unit fn"), its source from its
 * function's catalogue.
 *
 * @example Unit A's misreading of authorize by its label
 * ```ts
 * import assert from "node:assert/strict";
 * const [attempt] = listed({ "ch14-a authorize": ["inherited names count"] });
 * assert.equal(attempt.fn, "authorize");
 * ```
 */
export function listed(attempts: Readonly<Record<string, readonly string[]>>): Attempt[] {
  return Object.entries(attempts).flatMap(([key, labels]) => {
    const [unit, fn] = key.split(" ");
    const { wrong } = catalogueOf(unit, fn);
    return labels.map((label) => {
      assert.ok(wrong[label], `${key}'s catalogue has no ${label}`);
      return { unit, fn, label, source: wrong[label] };
    });
  });
}

/**
 * Registers the tests of a round's open attempts: when the environment's `openFlag` is "1", they
 * are graded together, one test each that fails when it keeps every mark of its function (ignored
 * otherwise). A round's closed attempts are wrong entries of their functions' catalogues
 * ({@linkcode listed} refuses a label its catalogue does not hold), which
 * `tests/grading_accuracy_test.ts` grades through the grader's path and fails when one keeps every
 * mark: they are not graded twice in a suite run.
 *
 * @example A round's attempts, in its test file
 * ```ts ignore
 * listed({ "ch14-a authorize": ["inherited names count"] });
 * await misreadingTests([], "ROUNDN_OPEN");
 * ```
 */
export async function misreadingTests(open: readonly Attempt[], openFlag: string): Promise<void> {
  const asked = Deno.env.get(openFlag) === "1";
  const graded = asked && open.length > 0 ? await gradeAttempts(open) : [];
  for (const [index, { fn, label }] of open.entries()) {
    Deno.test({
      name: `a misreading of ${fn} loses marks: ${label}`,
      ignore: !asked,
      fn() {
        const [results] = graded[index];
        const tests = results.tests.filter((t) => t.name.startsWith(`${fn}: `));
        const score = tests.reduce((sum, t) => sum + t.score, 0);
        console.log(`${fn}: ${label}: ${score}/${tests.length}`);
        assert.ok(tests.length > 0, `${fn} has no case`);
        assert.ok(
          score < tests.length,
          `${label} kept every ${fn} mark (${score}/${tests.length})`,
        );
      },
    });
  }
}

/** `attempts` graded together as learners' modules, through the grader's path, hidden cases included. */
async function gradeAttempts(attempts: readonly Attempt[]) {
  const scratch = await Deno.makeTempDir({ prefix: "attempts-" });
  return await gradeTogether(
    await Promise.all(attempts.map(async ({ unit, label, source }) => {
      const path = `${scratch}/${crypto.randomUUID()}.ts`;
      await Deno.writeTextFile(path, source);
      return { name: label, submissions: [{ unit, code: { kind: "module" as const, path } }] };
    })),
    await loadHoldouts(),
    { functions: [...new Set(attempts.map(({ fn }) => fn))] },
  ).finally(() => Deno.remove(scratch, { recursive: true }));
}

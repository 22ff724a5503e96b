/**
 * The order a whole-suite run takes its test files in. `deno test --parallel`
 * starts files in the order of their paths, a few at a time, and takes the
 * files it is given by name first (each once): left to the paths' order, the
 * mutation run (six minutes of one test) started 15 minutes in and ran on
 * alone for the last 90 seconds, and the grader's accuracy test (eight
 * minutes) started six minutes in. The longest files start first, as a
 * scheduler packs the longest jobs first, and the rest fill in around them.
 *
 * @module
 */

/**
 * The suite's longest test files, longest first: each more than 60 seconds
 * in a whole-suite run on the two-core machine (`deno task test
 * --junit-path=FILE`, then `tools/suite_times.ts`), or, for a file that
 * grades at load time (which is in no test's time), alone (`time deno test
 * -A FILE`). Round 15's and round 14's classmates, the autograder, grade
 * isolation and the hub joined it on 2026-12-07 (120, 90, 115, 89.5 and 87 s
 * in a whole run under load; alone, at load 5 to 8: 97, 91, 235, 131 and
 * 162 s).
 */
export const LONGEST_FIRST: readonly string[] = [
  "tests/grading_accuracy_test.ts",
  "tests/mutants_test.ts",
  "tests/guessing_test.ts",
  "tests/grade_hostile_test.ts",
  "tests/learner_walk_test.ts",
  "tests/ch15_effect_differential_test.ts",
  "tests/release_test.ts",
  "tests/attacks_round15/classmates_test.ts",
  "tests/autograder_test.ts",
  "tests/grade_class_test.ts",
  "tests/peers_round6_test.ts",
  "tests/attacks_round13/classmates_test.ts",
  "tests/mask_differential_test.ts",
  "tests/grade_class_of_300_test.ts",
  "tests/attacks_round14/classmates_test.ts",
  "tests/grade_isolation_test.ts",
  "tests/hub_test.ts",
  "tests/lab01_judges_test.ts",
  "tests/learner_mistakes_test.ts",
];

/**
 * The arguments of `deno test` for `args` (given after `deno test
 * --allow-all`): a parallel run of the whole suite (no file or folder named)
 * names {@linkcode LONGEST_FIRST} first and then the current folder, which
 * holds the same files as naming none (deno.json's excludes apply); any
 * other run is left as it was asked for. An argument that does not start
 * with `-` counts as a file named, so that `--filter NAME` keeps its order
 * too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const args = suiteArgs(["--doc", "--parallel"]);
 * assert.deepEqual(args.slice(0, 3), ["--doc", "--parallel", "tests/grading_accuracy_test.ts"]);
 * assert.equal(args.at(-1), ".");
 * assert.deepEqual(suiteArgs(["--parallel", "tests/a_test.ts"]), ["--parallel", "tests/a_test.ts"]);
 * assert.deepEqual(suiteArgs(["--doc"]), ["--doc"]);
 * ```
 */
export function suiteArgs(args: readonly string[]): string[] {
  const whole = args.includes("--parallel") && args.every((arg) => arg.startsWith("-"));
  return whole ? [...args, ...LONGEST_FIRST, "."] : [...args];
}

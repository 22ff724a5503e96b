/**
 * The learners' `deno.json`: the instructors' one with only the tasks a
 * learner's copy can run.
 *
 * @module
 */

/** The tasks a learner's copy keeps: those whose files it holds. */
const LEARNER_TASKS = ["grade", "lab"];

/**
 * `config` with its tasks narrowed to the learners' ones; every other setting
 * (imports, formatting, linting) as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const config = { tasks: { grade: "deno run tools/grade.ts", test: "deno test" }, imports: {} };
 * assert.deepEqual(learnersConfig(config).tasks, { grade: "deno run tools/grade.ts" });
 * ```
 */
export function learnersConfig(config: Record<string, unknown>): Record<string, unknown> {
  const tasks = (config.tasks ?? {}) as Record<string, string>;
  return {
    ...config,
    tasks: Object.fromEntries(
      Object.entries(tasks).filter(([name]) => LEARNER_TASKS.includes(name)),
    ),
  };
}

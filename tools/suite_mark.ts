/**
 * The mark of one test run: `deno task test` puts `MCP_COURSE_SUITE=<id>` in
 * the environment of everything it starts, and the processes they start
 * inherit it (the library's servers and the grader's sandboxes pass it on
 * through their cleared environments), so that the leftovers check looks
 * only at what this run started: two runs side by side, or a run beside a
 * learner's JupyterLab, never see each other's processes.
 *
 * @module
 */

/** The variable that holds a test run's mark. */
export const SUITE_MARK = "MCP_COURSE_SUITE";

/**
 * The variable that holds a folder of a whole test run's own (the
 * instructors' suite runner makes it, and removes it after the run), where
 * its test files keep what each would otherwise make again: an honest
 * learner's marks graded alone. Unset outside such a run.
 */
export const SUITE_SHARED = "MCP_COURSE_SUITE_SHARED";

/**
 * This process's test-run mark, to pass on to a child started with a cleared
 * environment: `{}` outside a test run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const mark = suiteMarkEnv();
 * assert.deepEqual(Object.keys(mark), Deno.env.get(SUITE_MARK) ? [SUITE_MARK] : []);
 * ```
 */
export function suiteMarkEnv(): Record<string, string> {
  const mark = Deno.env.get(SUITE_MARK);
  return mark === undefined ? {} : { [SUITE_MARK]: mark };
}

/**
 * A mark of its own for one part of a test run (a notebook's kernel, say),
 * nested in this run's (`RUN/PART`): the leftovers check counts what carries
 * it as the run's, and a test finds by it what that part alone started.
 * Outside a test run it is a mark of its own (`local/PART`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const mark = nestedSuiteMark();
 * assert.ok(mark.startsWith(`${Deno.env.get(SUITE_MARK) ?? "local"}/`));
 * assert.notEqual(nestedSuiteMark(), mark);
 * ```
 */
export function nestedSuiteMark(): string {
  return `${Deno.env.get(SUITE_MARK) ?? "local"}/${crypto.randomUUID()}`;
}

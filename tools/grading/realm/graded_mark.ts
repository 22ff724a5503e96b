/**
 * The mark of a realm where a learner's work is graded: a property of
 * `Object.prototype` by this name, which the realm's first module defines
 * before any learner code runs and nothing can take away or change again
 * (`graded_realm.ts`): a function that reports a library copy reached, by
 * its name. Every sealed graded function of the library looks for it
 * through an object literal, which no code of the realm can redirect, and
 * where it is, reports itself reached and throws (as `deno task seal` makes
 * it, in the instructors' repository): a seal pasted into a learner's code, in
 * any form and behind any wrapper, answers nothing where the work is graded,
 * and the function whose case reached it scores 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(({} as Record<string, unknown>)[GRADED_REALM], undefined);
 * ```
 *
 * @module
 */

/** The name of the property that marks a realm where work is graded. */
export const GRADED_REALM = "mcp-course: a realm where a learner's work is graded";

/**
 * The query parameter of the realm's worker URL that says the library the
 * realm imports is the learners' release's, sealed: the course's own code in
 * the realm (its in-process servers) runs the seals there, so the realm is
 * not marked (a learner's self-check cannot tell a pasted seal; the grader
 * of the instructors' copy and of the autograder package, whose library is
 * readable, can).
 */
export const SEALS_RUN_HERE = "seals-run-here";

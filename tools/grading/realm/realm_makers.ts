/**
 * Node's modules that make a realm (or a thread with one) beside the
 * learner's, where the grader's mark is not (`graded_mark.ts`): the sandbox
 * gives none of them, neither to an import (its import map gives
 * `no_other_realm.ts`) nor to node's CommonJS `require`, which an npm
 * package's code is given (`graded_realm.ts`), and both refuse them in the
 * same words.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(REALM_MAKERS.includes("vm"));
 * assert.ok(REALM_MAKERS.every((name) => NO_OTHER_REALM.includes(`node:${name}`)));
 * ```
 *
 * @module
 */

/** The modules, by their names without `node:`. */
export const REALM_MAKERS: readonly string[] = Object.freeze([
  "vm",
  "worker_threads",
  "module",
  "repl",
  "inspector",
  "inspector/promises",
  "cluster",
]);

/** Why an import or a `require` of one of them fails where work is graded, naming each. */
export const NO_OTHER_REALM: string =
  "this module is not given where work is graded: a learner's " +
  `code runs in the one realm the grader gives it (${
    REALM_MAKERS.map((name) => `node:${name}`).join(", ").replace(/, ([^,]+)$/, " and $1")
  } make another)`;

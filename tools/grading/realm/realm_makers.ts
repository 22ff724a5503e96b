/**
 * Node's modules that make a realm (or a thread with one) beside the
 * learner's, where the grader's mark is not (`graded_mark.ts`): the sandbox
 * gives none of them, neither to an import (its import map) nor to node's
 * CommonJS `require`, which an npm package's code is given
 * (`graded_realm.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(REALM_MAKERS.includes("vm"));
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

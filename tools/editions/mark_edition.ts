/**
 * Record in a notebook's metadata which unit and which edition it is, so that
 * the autograder can tell a learner's notebook apart without its file name.
 *
 * @module
 */

import type { Notebook, Transform } from "./notebook.ts";

/**
 * A transform that records `unit` and `edition` under `metadata.course`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const notebook = { nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: {} }, cells: [] };
 * assert.deepEqual(markEdition("ch14-b", "student")(notebook).metadata, {
 *   kernelspec: {},
 *   course: { edition: "student", unit: "ch14-b" },
 * });
 * ```
 */
export function markEdition(unit: string, edition: "worked" | "student"): Transform {
  return (notebook: Notebook) => ({
    ...notebook,
    metadata: { ...notebook.metadata, course: { edition, unit } },
  });
}

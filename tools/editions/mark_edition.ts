/**
 * Record in a notebook's metadata which edition it is.
 *
 * @module
 */

import type { Notebook, Transform } from "./notebook.ts";

/**
 * A transform that records `edition` under `metadata.course.edition`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const notebook = { nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: {} }, cells: [] };
 * assert.deepEqual(markEdition("student")(notebook).metadata, {
 *   kernelspec: {},
 *   course: { edition: "student" },
 * });
 * ```
 */
export function markEdition(edition: string): Transform {
  return (notebook: Notebook) => ({
    ...notebook,
    metadata: { ...notebook.metadata, course: { edition } },
  });
}

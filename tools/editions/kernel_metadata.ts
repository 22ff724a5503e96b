/**
 * Record in a notebook's metadata the kernel it runs on, as the Deno kernel
 * itself reports it. JupyterLab writes the kernel's `language_info` into a
 * notebook when the kernel starts: a notebook that held anything else was
 * shown modified the moment it opened, before the learner had touched it,
 * and asked to be saved when closed.
 *
 * @module
 */

import type { Notebook, Transform } from "./notebook.ts";

/**
 * The `language_info` the course's Deno (2.9.6) reports in its kernel_info
 * reply; `version` is its TypeScript's. A test asks the real kernel, so a
 * new Deno that reports otherwise fails it rather than every notebook
 * opening modified.
 */
export const DENO_LANGUAGE_INFO = {
  name: "typescript",
  version: "6.0.3",
  mimetype: "text/x.typescript",
  file_extension: ".ts",
  pygments_lexer: "typescript",
  codemirror_mode: "typescript",
  nbconvert_exporter: "script",
} as const;

/** The kernelspec the course's notebooks name: the Deno kernel. */
export const DENO_KERNELSPEC = {
  display_name: "Deno",
  language: "typescript",
  name: "deno",
} as const;

/**
 * A transform that names the Deno kernel and its language as the kernel
 * reports them, in place of whatever the notebook held.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const notebook = { nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: {} }, cells: [] };
 * const { metadata } = kernelMetadata(notebook);
 * assert.equal(metadata.kernelspec, DENO_KERNELSPEC);
 * assert.equal(metadata.language_info, DENO_LANGUAGE_INFO);
 * ```
 */
export const kernelMetadata: Transform = (notebook: Notebook) => ({
  ...notebook,
  metadata: {
    ...notebook.metadata,
    kernelspec: DENO_KERNELSPEC,
    language_info: DENO_LANGUAGE_INFO,
  },
});

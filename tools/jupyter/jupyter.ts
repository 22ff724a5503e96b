/**
 * Which `jupyter` the course runs: the one in the course's virtual environment
 * (`.venv/`, made by `sh tools/setup.sh` from PyPI), or else the one on the
 * `PATH` (Debian's `jupyter-nbconvert`, the fallback where PyPI is out of reach).
 *
 * @module
 */

import { fileURLToPath } from "node:url";

/** The course's virtual environment. */
export const VENV = fileURLToPath(new URL("../../.venv/", import.meta.url));

/**
 * The `jupyter` command to run: the virtual environment's when it has one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(jupyterCommand().endsWith("jupyter"));
 * ```
 */
export function jupyterCommand(): string {
  const inVenv = `${VENV}bin/jupyter`;
  try {
    Deno.statSync(inVenv);
    return inVenv;
  } catch {
    return "jupyter";
  }
}

/**
 * The Python that runs the course's Jupyter, with `nbformat` and the rest: the
 * virtual environment's, or else Debian's own (`/usr/bin/python3`, which
 * Debian's `jupyter-nbconvert` is installed into), never whichever `python3`
 * comes first on the `PATH`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.match(jupyterPython(), /python3?$/);
 * ```
 */
export function jupyterPython(): string {
  const inVenv = `${VENV}bin/python`;
  try {
    Deno.statSync(inVenv);
    return inVenv;
  } catch {
    return "/usr/bin/python3";
  }
}

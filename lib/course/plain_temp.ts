/**
 * A temporary folder whose path needs no escaping anywhere: in a Deno
 * permission flag (which splits at commas), a URL, or a shell word.
 *
 * @module
 */

/**
 * The system's temporary folder (`TMPDIR`) when its path holds only letters,
 * digits, `_`, `.`, `-` and `/`, and `/tmp` otherwise (or without permission
 * to read the environment).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.match(plainTemp(), /^\/[\w./-]*$/);
 * ```
 */
export function plainTemp(): string {
  let chosen = "/tmp";
  try {
    chosen = Deno.env.get("TMPDIR") ?? chosen;
  } catch {
    // Without permission to read the environment, /tmp stands.
  }
  return /^\/[\w./-]*$/.test(chosen) ? chosen : "/tmp";
}

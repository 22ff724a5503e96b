// What a catalogue holds, for the data modules beside this one.

/** A graded function's implementations, as learners' modules, by what they show. */
export interface Catalogue {
  unit: string;
  fn: string;
  /** Correct implementations, each by its style. */
  right: Record<string, string>;
  /** Wrong implementations, each by the misconception it shows. */
  wrong: Record<string, string>;
}

/** The import a learner's module writes to use `ProtocolError` (the library sits at ../lib/). */
export const USES_PROTOCOL_ERROR = 'import { ProtocolError } from "../lib/mcp/shared/errors.ts";';

/**
 * The mutations of `worked`: `mutate(from, to)` is `worked` with `from` (there once)
 * replaced by `to`, and throws when the change does not apply.
 *
 * @example A wrong way one change from a worked one
 * ```ts
 * import assert from "node:assert/strict";
 * const mutate = mutationsOf("return a + b;");
 * assert.equal(mutate("+", "-"), "return a - b;");
 * ```
 */
export function mutationsOf(worked: string): (from: string, to: string) => string {
  return (from, to) => {
    if (worked.split(from).length !== 2) throw new Error(`The mutation does not apply: ${from}`);
    return worked.replace(from, () => to);
  };
}

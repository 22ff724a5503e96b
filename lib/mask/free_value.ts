/**
 * Any JSON value, nesting at most so many objects and arrays: what a schema
 * that says nothing allows (`{}`, `true`, a property no schema constrains).
 * Built once per depth and shared.
 *
 * @module
 */

import type { ByteDfa } from "./byte_dfa.ts";
import { numberDfa } from "./number_grammar.ts";
import { keyDfa, stringDfa } from "./string_grammar.ts";
import { arrayOf, freeObject, literalDfa, union } from "./_schema_parts.ts";

const freeValues = new Map<number, ByteDfa>();

/**
 * Any JSON value nesting at most `depth` objects and arrays, built once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const bytes = (text: string) => new TextEncoder().encode(text);
 * assert.ok(freeValue(2).accepts(bytes('{"a":[1,"x"]}')));
 * assert.ok(!freeValue(2).accepts(bytes('{"a":[[1]]}')));
 * ```
 */
export function freeValue(depth: number): ByteDfa {
  let dfa = freeValues.get(depth);
  if (dfa !== undefined) return dfa;
  const scalars = [stringDfa({}), numberDfa(false, {}), literalDfa(["true", "false", "null"])];
  if (depth === 0) dfa = union([...scalars, literalDfa(["{}", "[]"])]);
  else {
    const inner = freeValue(depth - 1);
    dfa = union([...scalars, freeObject(keyDfa([]), inner), arrayOf(inner)]);
  }
  freeValues.set(depth, dfa);
  return dfa;
}

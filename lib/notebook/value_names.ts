/**
 * Names for values a table would otherwise print whole, again and again: a
 * case module names a value once ("the delivery schema"), and every table
 * cell that holds that value, or a copy of it, shows the name instead, with
 * the whole value a click away.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";

const NAMED: [value: unknown, name: string][] = [];

/**
 * Give `value` a `name` for tables, and return `value` itself.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const schema = nameValue("the order schema", { type: "object", required: ["order_id"] });
 * assert.equal(nameOf(structuredClone(schema)), "the order schema");
 * assert.equal(nameOf({ type: "object" }), undefined);
 * ```
 */
export function nameValue<T>(name: string, value: T): T {
  if (nameOf(value) === undefined) NAMED.push([structuredClone(value), name]);
  return value;
}

/**
 * The name given to `value`, or to a value deeply equal to it; `undefined`
 * when it has none. Objects, arrays and strings have names (a string that
 * stands for something, such as a reply that is no reply).
 */
export function nameOf(value: unknown): string | undefined {
  if ((typeof value !== "object" || value === null) && typeof value !== "string") return undefined;
  return NAMED.find(([named]) => isDeepStrictEqual(named, value))?.[1];
}

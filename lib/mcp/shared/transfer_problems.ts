/**
 * Unit B's changed-constraint task: the problems with a tool's arguments
 * under the object schema its server advertised, found by hand, before
 * anything is sent (the client checks with ajv: `schema.ts`).
 *
 * @module
 */

import { isObject, type JsonObject } from "./jsonrpc.ts";

const KINDS: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === "string",
  integer: (value) => Number.isInteger(value),
  number: (value) => typeof value === "number" && Number.isFinite(value),
  boolean: (value) => typeof value === "boolean",
};

/**
 * The problems with `args` under an object `schema`, sorted; `[]` when there
 * are none. Reports `missing K` for each required key that is absent,
 * `unexpected K` for each key outside `properties` when `additionalProperties`
 * is `false`, and `K must be TYPE` for a present key of the wrong type among
 * `string`, `integer`, `number` and `boolean` (a boolean is never a number).
 * Neither input is modified.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const delivery = {
 *   type: "object",
 *   properties: { order_id: { type: "string" }, tubs: { type: "integer" } },
 *   required: ["order_id", "tubs"],
 *   additionalProperties: false,
 * };
 * assert.deepEqual(transferProblems(delivery, { order_id: "A-1043", tubs: 20 }), []);
 * assert.deepEqual(transferProblems(delivery, { tubs: 2.5, note: "x" }), [
 *   "missing order_id",
 *   "tubs must be integer",
 *   "unexpected note",
 * ]);
 * ```
 */
export function transferProblems(schema: JsonObject, args: JsonObject): string[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const problems = required
    .filter((key) => !Object.hasOwn(args, key))
    .map((key) => `missing ${key}`);
  for (const [key, value] of Object.entries(args)) {
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (property === undefined) {
      if (schema.additionalProperties === false) problems.push(`unexpected ${key}`);
      continue;
    }
    const kind = isObject(property) ? property.type : undefined;
    if (typeof kind === "string" && Object.hasOwn(KINDS, kind) && !KINDS[kind](value)) {
      problems.push(`${key} must be ${kind}`);
    }
  }
  return problems.sort();
}

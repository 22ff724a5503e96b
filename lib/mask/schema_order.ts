/**
 * An instance written as the mask writes it: compact JSON, each object's
 * properties in the order of its frame (`schema_frame.ts`: the schema's own
 * properties, then those its branches declare, then names only `required` or
 * `dependencies` give), then any others sorted; nested values likewise. The
 * mask accepts exactly the valid instances written so (within its limits),
 * and no text that parses to an invalid one.
 *
 * @module
 */

import { isRecord } from "./presence.ts";
import { type Frame, SchemaRoot } from "./schema_frame.ts";

/**
 * The compact JSON text of `value` as the mask writes it under `schema`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const schema = { properties: { verb: {}, tense: {} }, anyOf: [{ properties: { mood: {} } }] };
 * assert.equal(
 *   canonicalText({ zz: 1, mood: "x", tense: "past", verb: "eat", aa: [{}] }, schema),
 *   '{"verb":"eat","tense":"past","mood":"x","aa":[{}],"zz":1}',
 * );
 * ```
 */
export function canonicalText(value: unknown, schema: unknown): string {
  const root = new SchemaRoot(schema);
  return written(value, root.frame([{ schema, refs: [] }]));
}

/**
 * The text of `value` at `frame`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SchemaRoot } from "./schema_frame.ts";
 *
 * const schema = { properties: { b: {}, a: {} } };
 * const frame = new SchemaRoot(schema).frame([{ schema, refs: [] }]);
 * assert.equal(written({ a: 1, b: [2], c: 3 }, frame), '{"b":[2],"a":1,"c":3}');
 * ```
 */
export function written(value: unknown, frame: Frame): string {
  if (Array.isArray(value)) return `[${value.map((item) => written(item, frame.items)).join(",")}]`;
  if (!isRecord(value)) return JSON.stringify(value);
  const names = frame.names;
  const keys = [
    ...names.filter((name) => Object.hasOwn(value, name)),
    ...Object.keys(value).filter((key) => !names.includes(key)).sort(),
  ];
  const members = keys.map((key) =>
    `${JSON.stringify(key)}:${written(value[key], frame.child(key))}`
  );
  return `{${members.join(",")}}`;
}

/**
 * `value` with its objects' properties in the order the mask writes them
 * (`canonicalText`, parsed; JavaScript lists a property named by an integer
 * first whatever its place, so for such names use `canonicalText`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const schema = { properties: { verb: {}, tense: {} } };
 * assert.equal(JSON.stringify(inSchemaOrder({ tense: "past", verb: "eat" }, schema)), '{"verb":"eat","tense":"past"}');
 * ```
 */
export function inSchemaOrder(value: unknown, schema: unknown): unknown {
  return JSON.parse(canonicalText(value, schema));
}

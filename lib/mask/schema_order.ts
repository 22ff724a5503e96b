/**
 * An instance written as the mask writes it: properties in the schema's
 * order (its own, then those its branches declare, then names only
 * `required` gives; an object that declares none itself, in the order of
 * the first `anyOf` or `oneOf` branch it matches), nested values likewise,
 * the rest after them.
 * `JSON.stringify` of the result is the compact text the mask accepts.
 *
 * @module
 */

import { COMBINATORS } from "./_schema_parts.ts";
import { isRecord } from "./presence.ts";
import { schemaProblems } from "./validate.ts";

/**
 * `value` with its objects' properties in `schema`'s order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const schema = { properties: { verb: {}, tense: {} } };
 * assert.equal(JSON.stringify(inSchemaOrder({ tense: "past", verb: "eat" }, schema)), '{"verb":"eat","tense":"past"}');
 * ```
 */
export function inSchemaOrder(value: unknown, schema: unknown, root: unknown = schema): unknown {
  const resolved = resolve(schema, root);
  if (Array.isArray(value)) {
    const items = isRecord(resolved) ? resolved.items : undefined;
    return value.map((item) => inSchemaOrder(item, items, root));
  }
  if (!isRecord(value)) return value;
  // an object that declares nothing itself takes the order of the first branch it matches
  if (isRecord(resolved) && !isRecord(resolved.properties)) {
    const branches = ["anyOf", "oneOf"].flatMap((keyword) => [resolved[keyword] ?? []].flat());
    const matched = branches.find((branch) => matches(value, branch, root));
    if (matched !== undefined) return inSchemaOrder(value, matched, root);
  }
  const declared = new Map<string, unknown>();
  collect(resolved, root, declared);
  if (isRecord(resolved) && Array.isArray(resolved.required)) {
    for (const name of resolved.required) if (!declared.has(name)) declared.set(name, undefined);
  }
  const ordered: Record<string, unknown> = {};
  for (const [name, property] of declared) {
    if (Object.hasOwn(value, name)) ordered[name] = inSchemaOrder(value[name], property, root);
  }
  for (const [name, item] of Object.entries(value)) {
    if (!Object.hasOwn(ordered, name)) ordered[name] = item;
  }
  return ordered;
}

/** True when ajv finds `value` valid under `branch`, whose local `$ref`s point into `root`. */
function matches(value: unknown, branch: unknown, root: unknown): boolean {
  const definitions = isRecord(root)
    ? Object.fromEntries(
      ["$defs", "definitions"].filter((key) => key in root).map((key) => [key, root[key]]),
    )
    : {};
  try {
    return schemaProblems({ ...definitions, allOf: [branch] }, value).length === 0;
  } catch {
    return false;
  }
}

/** The properties a schema and its branches declare, in order, first schema given wins. */
function collect(schema: unknown, root: unknown, into: Map<string, unknown>): void {
  const resolved = resolve(schema, root);
  if (!isRecord(resolved)) return;
  if (isRecord(resolved.properties)) {
    for (const [name, property] of Object.entries(resolved.properties)) {
      if (!into.has(name)) into.set(name, property);
    }
  }
  for (const keyword of COMBINATORS) {
    const branches = keyword === "not" ? [] : resolved[keyword];
    if (Array.isArray(branches)) branches.forEach((branch) => collect(branch, root, into));
  }
}

/** The schema a local `$ref` points at (followed a bounded number of times). */
function resolve(schema: unknown, root: unknown): unknown {
  for (let hops = 0; hops < 32 && isRecord(schema) && typeof schema.$ref === "string"; hops++) {
    let target: unknown = root;
    for (const part of schema.$ref.replace(/^#/, "").split("/").filter(Boolean)) {
      const key = decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~");
      target = isRecord(target) || Array.isArray(target)
        ? (target as Record<string, unknown>)[key]
        : undefined;
    }
    schema = target;
  }
  return schema;
}

/**
 * Tool schemas often say "one of these sets of properties" with branches
 * that declare the properties they require (`oneOf: [{properties: {radius:
 * ...}, required: ["radius"]}, ...]`). When every branch that declares a
 * property gives it the same schema, the value of a present property is
 * checked the same whichever branch holds, and the branches only differ in
 * which properties are present: they become presence tests over the
 * object's properties, declared once, in order (the object's own first,
 * then the branches' as they first appear).
 *
 * @module
 */

import { COMBINATORS } from "./_schema_parts.ts";
import { allowsAll, allowsNone, ANNOTATIONS, isRecord } from "./presence.ts";

/**
 * The object schema with its branches' properties moved up, or `undefined`
 * when two places give one property different schemas.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const merged = mergeBranches({
 *   type: "object",
 *   oneOf: [
 *     { properties: { radius: { type: "number" } }, required: ["radius"] },
 *     { properties: { side: { type: "number" } }, required: ["side"] },
 *   ],
 * })!;
 * assert.deepEqual(Object.keys(merged.properties as object), ["radius", "side"]);
 * assert.deepEqual(merged.oneOf, [
 *   { properties: {}, required: ["radius"] },
 *   { properties: {}, required: ["side"] },
 * ]);
 * ```
 */
export function mergeBranches(
  schema: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const own = isRecord(schema.properties) ? schema.properties : {};
  const properties: Record<string, unknown> = { ...own };
  const closed = schema.additionalProperties === false;
  let consistent = true;
  const strip = (branch: unknown): unknown => {
    if (!isRecord(branch)) return branch;
    const result: Record<string, unknown> = { ...branch };
    if (isRecord(branch.properties)) {
      const kept: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(branch.properties)) {
        if (allowsAll(value) || allowsNone(value)) kept[name] = value;
        else if (closed && !(name in own)) continue; // it can never be present
        else if (!(name in properties)) properties[name] = value;
        else if (essence(properties[name]) !== essence(value)) consistent = false;
      }
      result.properties = kept;
    }
    for (const keyword of COMBINATORS) {
      if (keyword === "not") result.not = strip(branch.not);
      else if (Array.isArray(branch[keyword])) {
        result[keyword] = (branch[keyword] as unknown[]).map(strip);
      }
    }
    for (const keyword of COMBINATORS) if (!(keyword in branch)) delete result[keyword];
    return result;
  };
  const merged: Record<string, unknown> = { ...schema };
  for (const keyword of COMBINATORS) {
    if (keyword === "not" && "not" in schema) merged.not = strip(schema.not);
    else if (Array.isArray(schema[keyword])) {
      merged[keyword] = (schema[keyword] as unknown[]).map(strip);
    }
  }
  merged.properties = properties;
  return consistent ? merged : undefined;
}

/** A schema without its annotations, as text: two schemas with the same essence check alike. */
function essence(schema: unknown): string {
  return JSON.stringify(schema, (key, value) => (ANNOTATIONS.has(key) ? undefined : value));
}

/**
 * A branch of an object's `anyOf`, `oneOf` or `allOf`, read in the object's
 * terms: the object's properties, in its order, then the branch's own; a
 * property both declare takes the branch's schema (the object's applies
 * too, since the branch is intersected with the object). So the branch and
 * the object agree on the order of properties, and the branch lets through
 * the properties it does not mention, as JSON Schema does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const parent = { type: "object", properties: { radius: { type: "number" }, shape: { type: "string" } } };
 * const widened = widenBranch(parent, { properties: { shape: { const: "circle" } }, required: ["radius"] });
 * assert.deepEqual(widened, {
 *   type: "object",
 *   additionalProperties: undefined,
 *   properties: { radius: { type: "number" }, shape: { const: "circle" } },
 *   required: ["radius"],
 * });
 * ```
 */
export function widenBranch(parent: Record<string, unknown>, branch: unknown): unknown {
  if (!isRecord(branch) || "$ref" in branch) return branch;
  if ("type" in branch && branch.type !== "object") return branch;
  const properties = {
    ...(isRecord(parent.properties) ? parent.properties : {}),
    ...(isRecord(branch.properties) ? branch.properties : {}),
  };
  return {
    type: "object",
    additionalProperties: parent.additionalProperties,
    ...branch,
    properties,
  };
}

/**
 * Which value tests the mask can negate: a test under `oneOf` or `not` is
 * read as "does not hold" too, so its automaton must refuse exactly the
 * values its schema refuses, whatever else could be written where it is
 * tested. Scalars qualify (strings but for leap seconds, booleans, null, any
 * number, literals of those but numbers); objects that test only names and
 * scalars, on an object that writes its names in order and once; nothing
 * else. What is not proved exact is refused, naming its keyword.
 *
 * @module
 */

import type { BranchContext } from "./object_branches.ts";
import { allowsAll, allowsNone, ANNOTATIONS, type Formula, isRecord } from "./presence.ts";
import type { Reached } from "./schema_frame.ts";
import { typesOf } from "./_schema_parts.ts";

/**
 * True when every value test in `formula` is exact (so the formula may be negated).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SchemaRoot } from "./schema_frame.ts";
 *
 * const root = new SchemaRoot({});
 * const context = {
 *   frame: root.frame([]),
 *   others: false,
 *   flatten: (list: { schema: unknown; refs: readonly string[] }[]) => list,
 *   valueOf: () => [],
 * };
 * const test = (schema: unknown) => ({ kind: "sat", name: "a", schema: { schema, refs: [] } } as const);
 * assert.ok(exact(test({ type: "boolean" }), context));
 * assert.ok(!exact(test({ type: "integer", minimum: 1 }), context));
 * ```
 */
export function exact(formula: Formula, context: BranchContext): boolean {
  switch (formula.kind) {
    case "sat":
      return exactScalar(formula.schema, context) || exactObject(formula, context);
    case "not":
      return exact(formula.part, context);
    case "and":
    case "or":
    case "one":
      return formula.parts.every((part) => exact(part, context));
    default:
      return true;
  }
}

/** Keywords an exact scalar test may use besides annotations. */
const SCALAR_KEYWORDS = new Set([
  "type",
  "enum",
  "const",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "anyOf",
  "oneOf",
  "not",
]);

/**
 * True when the schema's automaton is exactly its set of values, whatever
 * else could be written where it is tested: strings (but for `time` and
 * `date-time`, whose leap seconds the mask does not write), booleans, null, any
 * number; literals of those but numbers (a number has other spellings).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const context = { flatten: (list: { schema: unknown; refs: readonly string[] }[]) => list };
 * const exact = (schema: unknown) => exactScalar({ schema, refs: [] }, context);
 * assert.ok(exact({ type: "string", pattern: "^a" }));
 * assert.ok(exact({ const: "circle" }));
 * assert.ok(!exact({ type: "integer" })); // 1.0 is an integer its automaton does not read
 * assert.ok(!exact({ type: "string", format: "time" }));
 * ```
 */
export function exactScalar(entry: Reached, context: Pick<BranchContext, "flatten">): boolean {
  let flat: Reached[];
  try {
    flat = context.flatten([entry], "#");
  } catch {
    return false;
  }
  return flat.every(({ schema, refs }) => {
    if (schema === false) return true;
    if (!isRecord(schema) || allowsAll(schema)) return false;
    if (
      !Object.keys(schema).every((key) =>
        SCALAR_KEYWORDS.has(key) || key === "allOf" || ANNOTATIONS.has(key)
      )
    ) {
      return false;
    }
    // a literal is its own value; without one, the type must be a scalar's
    const literal = "enum" in schema || "const" in schema;
    const types = schema.type === undefined && literal ? [] : [schema.type].flat();
    if (!types.every((type) => ["string", "boolean", "null", "number"].includes(type as string))) {
      return false;
    }
    if (types.includes("number") && "format" in schema) return false;
    if (schema.format === "time" || schema.format === "date-time") return false;
    const literals = "const" in schema ? [schema.const] : schema.enum;
    if (literals !== undefined) {
      if (!Array.isArray(literals)) return false;
      if (
        !literals.every((value) => ["string", "boolean"].includes(typeof value) || value === null)
      ) return false;
    }
    const branches = [schema.anyOf, schema.oneOf].flatMap((list) =>
      Array.isArray(list) ? list : []
    );
    if ("not" in schema) branches.push(schema.not);
    return branches.every((branch) => exactScalar({ schema: branch, refs }, context));
  });
}

/**
 * True for an object test that reads only names and exact scalars, tested
 * on an object the object itself writes (so in its frame's order, each name
 * once), none of whose values the test leaves free is more than a scalar
 * (the test's free value would stop short of a deeper one).
 */
function exactObject(test: Formula & { kind: "sat" }, context: BranchContext): boolean {
  let flat: Reached[];
  try {
    flat = context.flatten([test.schema], "#");
  } catch {
    return false;
  }
  const value = context.valueOf(test.name);
  if (value.length === 0 || value.every((entry) => allowsAll(entry.schema))) return false;
  const inner = context.frame.child(test.name);
  // without a type, the test holds for what is not an object: the object must write objects only
  const objectsOnly = context.flatten(value, "#").some(({ schema }) =>
    isRecord(schema) && [...typesOf(schema)].every((type) => type === "object")
  );
  return flat.every(({ schema, refs }) => {
    if (!isRecord(schema) || (schema.type ?? (objectsOnly ? "object" : undefined)) !== "object") {
      return false;
    }
    const allowed = ["type", "properties", "required", "additionalProperties"];
    if (!Object.keys(schema).every((key) => allowed.includes(key) || ANNOTATIONS.has(key))) {
      return false;
    }
    if (
      schema.additionalProperties !== undefined && typeof schema.additionalProperties !== "boolean"
    ) return false;
    const declared = isRecord(schema.properties) ? schema.properties : {};
    for (const [, property] of Object.entries(declared)) {
      if (allowsAll(property) || allowsNone(property)) continue;
      if (!exactScalar({ schema: property, refs }, context)) return false;
    }
    // the names the test leaves free hold scalars (or nothing the object constrains)
    const free = inner.names.filter((name) =>
      !Object.hasOwn(declared, name) || allowsAll(declared[name])
    );
    return free.every((name) => scalarOnly(value, name, context)) &&
      (schema.additionalProperties === false || scalarOnly(value, undefined, context));
  });
}

/** True when the object's own schemas make `name`'s value (undefined: another name's) a scalar, or leave it free. */
function scalarOnly(value: Reached[], name: string | undefined, context: BranchContext): boolean {
  const at = context.flatten(value, "#").flatMap(({ schema, refs }): Reached[] => {
    if (!isRecord(schema)) return [];
    const declared = isRecord(schema.properties) ? schema.properties : {};
    if (name !== undefined && Object.hasOwn(declared, name)) {
      return [{ schema: declared[name], refs }];
    }
    return isRecord(schema.additionalProperties)
      ? [{ schema: schema.additionalProperties, refs }]
      : [];
  });
  if (at.every((entry) => allowsAll(entry.schema))) return true;
  return context.flatten(at, "#").some(({ schema }) =>
    isRecord(schema) && !typesOf(schema).has("object") && !typesOf(schema).has("array")
  );
}

/**
 * Small parts of the schema compiler: literal, union and array automata, and
 * the checks that prove a `oneOf` or a `not` exact.
 *
 * @module
 */

import { ByteDfa } from "./byte_dfa.ts";
import { ByteNfa } from "./byte_nfa.ts";
import { isRecord } from "./presence.ts";

/** The JSON types, as a schema's `type` names them. */
export const TYPES = ["string", "number", "integer", "boolean", "null", "object", "array"] as const;
/** A JSON type. */
export type Type = typeof TYPES[number];
/** The keywords that combine schemas. */
export const COMBINATORS = ["anyOf", "oneOf", "allOf", "not"];

/** Keywords the compiler refuses: it cannot enforce them exactly. */
export const UNSUPPORTED = [
  "multipleOf",
  "patternProperties",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "contains",
  "if",
  "dependentSchemas",
  "unevaluatedProperties",
  "unevaluatedItems",
  "prefixItems",
  "$dynamicRef",
  "$recursiveRef",
  "$async",
];
/** Which type each keyword implies when a schema names none. */
export const IMPLIES: Record<string, Type> = {
  properties: "object",
  required: "object",
  additionalProperties: "object",
  dependencies: "object",
  items: "array",
  minItems: "array",
  maxItems: "array",
  minLength: "string",
  maxLength: "string",
  pattern: "string",
  format: "string",
  minimum: "number",
  maximum: "number",
  exclusiveMinimum: "number",
  exclusiveMaximum: "number",
};

/** The automaton that accepts nothing. */
export const EMPTY = new ByteDfa(new Int32Array(0), new Uint8Array(0));

/** Arrays of `item`, any length. */
export function arrayOf(item: ByteDfa): ByteDfa {
  const nfa = new ByteNfa();
  const utf8 = new TextEncoder();
  const rest = () => nfa.sequence([nfa.literal(utf8.encode(",")), item.embed(nfa)]);
  const list = nfa.sequence([item.embed(nfa), nfa.star(rest)]);
  return ByteDfa.fromNfa(
    nfa,
    nfa.sequence([
      nfa.literal(utf8.encode("[")),
      nfa.optional(list),
      nfa.literal(utf8.encode("]")),
    ]),
  );
}

/** Any one of `parts`. */
export function union(parts: ByteDfa[]): ByteDfa {
  const nfa = new ByteNfa();
  return ByteDfa.fromNfa(nfa, nfa.alternatives(parts.map((part) => part.embed(nfa))));
}

/** Exactly one of these texts. */
export function literalDfa(texts: string[]): ByteDfa {
  const nfa = new ByteNfa();
  const utf8 = new TextEncoder();
  return ByteDfa.fromNfa(
    nfa,
    nfa.alternatives(texts.map((text) => nfa.literal(utf8.encode(text)))),
  );
}

/** `schema` without these keywords. */
export function without(schema: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key)));
}

/** True when `value` is of JSON type `type`. */
export function hasType(value: unknown, type: Type): boolean {
  if (type === "integer") return Number.isInteger(value);
  if (type === "null") return value === null;
  if (type === "array") return Array.isArray(value);
  if (type === "object") return isRecord(value);
  if (type === "string") return typeof value === "string";
  if (type === "number") return typeof value === "number";
  return typeof value === "boolean";
}

/** True for a schema whose automaton is exactly its set of values: strings, booleans, null, their literals. */
export function exactScalar(schema: unknown): boolean {
  if (!isRecord(schema) || "$ref" in schema || COMBINATORS.some((key) => key in schema)) {
    return false;
  }
  if ("enum" in schema || "const" in schema) {
    const values = "const" in schema ? [schema.const] : schema.enum;
    return Array.isArray(values) &&
      values.every((value) => ["string", "boolean"].includes(typeof value) || value === null);
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.every((type) => type === "string" || type === "boolean" || type === "null");
}

/**
 * True when no value can match two branches: either each names its types
 * and no type is in two branches (an integer is a number), or each is an
 * object with one same property, required by it or by the object around it
 * (`required`), given a `const` or `enum` of strings, no string in two
 * branches' lists.
 */
export function disjoint(branches: unknown[], required: string[]): boolean {
  const typeSets = branches.map((branch) =>
    isRecord(branch) && branch.type !== undefined
      ? [branch.type].flat().flatMap((type) => type === "number" ? ["number", "integer"] : [type])
      : undefined
  );
  if (typeSets.every((types) => types !== undefined)) {
    const all = typeSets.flat();
    if (new Set(all).size === all.length) return true;
  }
  const first = branches[0];
  if (!isRecord(first) || !isRecord(first.properties)) return false;
  return Object.keys(first.properties).some((name) => {
    const seen = new Set<unknown>();
    return branches.every((branch) => {
      if (!isRecord(branch) || !isRecord(branch.properties)) return false;
      const needed = Array.isArray(branch.required) && branch.required.includes(name);
      if (!needed && !required.includes(name)) return false;
      const property = branch.properties[name];
      if (!isRecord(property)) return false;
      const values = "const" in property ? [property.const] : property.enum;
      if (
        !Array.isArray(values) ||
        values.some((value) => seen.has(value) || typeof value !== "string")
      ) {
        return false;
      }
      values.forEach((value) => seen.add(value));
      return true;
    });
  });
}

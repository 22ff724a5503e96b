/**
 * Small parts of the schema compiler: the JSON types, the keywords it
 * refuses, literal, union and array automata, equality as ajv reads it, and
 * keywords read over several schemas at once (the tightest bounds and counts).
 *
 * @module
 */

import { ByteDfa } from "./byte_dfa.ts";
import { ByteNfa } from "./byte_nfa.ts";
import { UnsupportedSchemaError } from "./errors.ts";
import { numberDfa } from "./number_grammar.ts";
import { isRecord } from "./presence.ts";
import type { Region } from "./regions.ts";

/** The JSON types, as a schema's `type` names them. */
export const TYPES = ["string", "number", "integer", "boolean", "null", "object", "array"] as const;
/** A JSON type. */
export type Type = typeof TYPES[number];

/**
 * Keywords the compiler refuses, each with why: it cannot enforce them
 * exactly, or ajv (draft-07, as the course validates) ignores them and a
 * schema that uses them means something the validator does not check.
 */
export const UNSUPPORTED: Record<string, string> = {
  multipleOf: "not enforced by the mask",
  patternProperties: "not enforced by the mask",
  propertyNames: "not enforced by the mask",
  minProperties: "not enforced by the mask",
  maxProperties: "not enforced by the mask",
  contains: "not enforced by the mask",
  if: "not enforced by the mask",
  dependentRequired: "a later draft's keyword, which ajv's draft-07 ignores",
  dependentSchemas: "a later draft's keyword, which ajv's draft-07 ignores",
  unevaluatedProperties: "a later draft's keyword, which ajv's draft-07 ignores",
  unevaluatedItems: "a later draft's keyword, which ajv's draft-07 ignores",
  prefixItems: "a later draft's keyword, which ajv's draft-07 ignores",
  $dynamicRef: "a later draft's keyword, which ajv's draft-07 ignores",
  $recursiveRef: "a later draft's keyword, which ajv's draft-07 ignores",
  $async: "asynchronous validation",
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

/** Objects of any names (`key`), each value `value`, in any order. */
export function freeObject(key: ByteDfa, value: ByteDfa): ByteDfa {
  const nfa = new ByteNfa();
  const utf8 = new TextEncoder();
  const pair = () =>
    nfa.sequence([key.embed(nfa), nfa.literal(utf8.encode(":")), value.embed(nfa)]);
  const rest = () => nfa.sequence([nfa.literal(utf8.encode(",")), pair()]);
  return ByteDfa.fromNfa(
    nfa,
    nfa.sequence([
      nfa.literal(utf8.encode("{")),
      nfa.optional(nfa.sequence([pair(), nfa.star(rest)])),
      nfa.literal(utf8.encode("}")),
    ]),
  );
}

/**
 * Any one of `parts`. Parts that start with different bytes (the JSON types
 * do) are joined as they are, under a new start; others go through the
 * subset construction.
 */
export function union(parts: ByteDfa[]): ByteDfa {
  const kept = parts.filter((part) => !part.isEmpty);
  if (kept.length <= 1) return kept[0] ?? EMPTY;
  return joined(kept) ?? (() => {
    const nfa = new ByteNfa();
    return ByteDfa.fromNfa(nfa, nfa.alternatives(kept.map((part) => part.embed(nfa))));
  })();
}

/** `parts` under one new start, when no byte starts two of them and none is entered again at its start. */
function joined(parts: ByteDfa[]): ByteDfa | undefined {
  const owner = new Int32Array(256).fill(-1);
  for (const [index, part] of parts.entries()) {
    if (part.accepting[0] === 1 || part.table.includes(0) || part.labels !== undefined) {
      return undefined;
    }
    for (let byte = 0; byte < 256; byte++) {
      if (part.table[byte] < 0) continue;
      if (owner[byte] >= 0) return undefined;
      owner[byte] = index;
    }
  }
  const offsets = [1];
  for (const part of parts) offsets.push(offsets[offsets.length - 1] + part.stateCount);
  const states = offsets[parts.length];
  const table = new Int32Array(states * 256).fill(-1);
  const accepting = new Uint8Array(states);
  const counted = parts.some((part) => part.counting !== undefined);
  const sources: ByteDfa[] = [];
  const originOf = new Int32Array(states).fill(-1);
  const regions: Region[] = [];
  const regionOf = new Int32Array(states).fill(-1);
  const ticks = new Int32Array(counted ? states * 256 : 0).fill(-1);
  parts.forEach((part, index) => {
    const offset = offsets[index];
    const ids = (part.counting?.regions ?? []).map((region) => {
      const at = regions.indexOf(region);
      return at >= 0 ? at : regions.push(region) - 1;
    });
    for (let at = 0; at < part.table.length; at++) {
      const next = part.table[at];
      table[offset * 256 + at] = next < 0 ? -1 : next + offset;
      const tick = part.counting?.ticks[at] ?? -1;
      if (counted) ticks[offset * 256 + at] = tick < 0 ? -1 : ids[tick];
    }
    accepting.set(part.accepting, offset);
    part.counting?.regionOf.forEach((region, state) => {
      regionOf[offset + state] = region < 0 ? -1 : ids[region];
    });
    const sourceIds = (part.origins?.sources ?? []).map((source) => {
      const at = sources.indexOf(source);
      return at >= 0 ? at : sources.push(source) - 1;
    });
    part.origins?.of.forEach((origin, state) => {
      if (origin >= 0) {
        originOf[offset + state] = sourceIds[origin >> 16] * 65536 + (origin & 0xffff);
      }
    });
  });
  // the start reads as each part's start does, and ticks as it would
  for (let byte = 0; byte < 256; byte++) {
    const index = owner[byte];
    if (index < 0) continue;
    table[byte] = table[offsets[index] * 256 + byte];
    if (counted) ticks[byte] = ticks[offsets[index] * 256 + byte];
  }
  const counting = counted ? { regions, regionOf, ticks } : undefined;
  const origins = sources.length > 0 ? { sources, of: originOf } : undefined;
  return new ByteDfa(table, accepting, { counting, origins }).minimized();
}

const literals = new Map<string, ByteDfa>();

/** Exactly one of these texts (kept for the next time the same texts are asked for). */
export function literalDfa(texts: string[]): ByteDfa {
  const key = JSON.stringify(texts);
  let dfa = literals.get(key);
  if (dfa === undefined) {
    dfa = buildLiterals(texts);
    if (literals.size < 4096) literals.set(key, dfa);
  }
  return dfa;
}

function buildLiterals(texts: string[]): ByteDfa {
  const nfa = new ByteNfa();
  const utf8 = new TextEncoder();
  return ByteDfa.fromNfa(
    nfa,
    nfa.alternatives(texts.map((text) => nfa.literal(utf8.encode(text)))),
  );
}

/** True when `value` is of JSON type `type` (an integer is a number). */
export function hasType(value: unknown, type: Type): boolean {
  if (type === "integer") return Number.isInteger(value);
  if (type === "null") return value === null;
  if (type === "array") return Array.isArray(value);
  if (type === "object") return isRecord(value);
  if (type === "string") return typeof value === "string";
  if (type === "number") return typeof value === "number";
  return typeof value === "boolean";
}

/**
 * The types a schema's `type` allows (all without one); `number` allows
 * `integer` too. Throws `RangeError` for a type JSON does not have.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual([...typesOf({ type: ["number", "null"] })], ["number", "null", "integer"]);
 * assert.equal(typesOf({}).size, 7);
 * ```
 */
export function typesOf(schema: Record<string, unknown>): Set<Type> {
  if (schema.type === undefined) return new Set(TYPES);
  const listed = [schema.type].flat();
  for (const type of listed) {
    if (!TYPES.includes(type as Type)) throw new RangeError(`${type} is not a JSON type`);
  }
  const types = new Set(listed as Type[]);
  if (types.has("number")) types.add("integer");
  return types;
}

/**
 * Equality as ajv's `enum` and `const` read it: the same JSON value, objects
 * whatever the order of their properties.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(deepEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] }));
 * assert.ok(deepEqual({ a: 1, b: 2 }, { b: 2, a: 1 }));
 * assert.ok(!deepEqual([1], [1, 1]));
 * ```
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length &&
      a.every((item, at) => deepEqual(item, b[at]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
}

/** Names every JavaScript object inherits: ajv reads them through the prototype, present or not. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Refuse a keyword the compiler does not enforce, and shapes of supported ones it does not read. */
export function refuseUnsupported(schema: Record<string, unknown>, path: string): void {
  for (const keyword of Object.keys(schema)) {
    const why = Object.hasOwn(UNSUPPORTED, keyword) ? UNSUPPORTED[keyword] : undefined;
    if (why !== undefined) throw new UnsupportedSchemaError(keyword, `${path}: ${why}`);
  }
  if (schema.uniqueItems === true) throw new UnsupportedSchemaError("uniqueItems", path);
  if (Array.isArray(schema.items)) throw new UnsupportedSchemaError("items", `${path}: a list`);
  const named: [string, unknown[]][] = [
    ["properties", isRecord(schema.properties) ? Object.keys(schema.properties) : []],
    ["required", Array.isArray(schema.required) ? schema.required : []],
    ["dependencies", isRecord(schema.dependencies) ? Object.keys(schema.dependencies) : []],
  ];
  for (const [keyword, names] of named) {
    const inherited = names.find((name) => typeof name === "string" && INHERITED.has(name));
    if (inherited !== undefined) {
      throw new UnsupportedSchemaError(
        keyword,
        `${path}: ${inherited}, a name every JavaScript object has, which ajv reads as present`,
      );
    }
  }
}

/** Numbers under every record's bounds (the tightest of each) and number formats. */
export function numbers(
  schemas: Record<string, unknown>[],
  integer: boolean,
  path: string,
): ByteDfa {
  const bounds: Record<string, number> = {};
  for (const keyword of ["minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"]) {
    const values = schemas.flatMap((schema) => keyword in schema ? [schema[keyword]] : []);
    if (values.length === 0) continue;
    if (!values.every((value) => typeof value === "number" && Number.isFinite(value))) {
      throw new UnsupportedSchemaError(keyword, `${path}: not a finite number`);
    }
    const pick = keyword.toLowerCase().includes("min") ? Math.max : Math.min;
    bounds[keyword] = pick(...values as number[]);
  }
  // ajv-formats' number formats: int32 a 32-bit integer, int64 any integer
  const formats = schemas.map((schema) => schema.format);
  if (formats.includes("int32")) {
    bounds.minimum = Math.max(bounds.minimum ?? -Infinity, -(2 ** 31));
    bounds.maximum = Math.min(bounds.maximum ?? Infinity, 2 ** 31 - 1);
  }
  return numberDfa(integer || formats.includes("int32") || formats.includes("int64"), bounds);
}

/** Each record's value of a count keyword (a non-negative integer), refusing others. */
export function counts(schemas: Record<string, unknown>[], keyword: string): number[] {
  return schemas.flatMap((schema) => {
    if (!(keyword in schema)) return [];
    const value = schema[keyword];
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
      throw new UnsupportedSchemaError(keyword, `${value}`);
    }
    return [value];
  });
}

const stripped = new WeakMap<object, Record<string, unknown>>();

/** `schema` without `enum` and `const` (the same object each time). */
export function withoutLiterals(schema: Record<string, unknown>): Record<string, unknown> {
  let rest = stripped.get(schema);
  if (rest === undefined) {
    rest = Object.fromEntries(
      Object.entries(schema).filter(([key]) => key !== "enum" && key !== "const"),
    );
    stripped.set(schema, rest);
  }
  return rest;
}

/** The keyword a size limit is named by: the one most likely to have grown the automaton. */
export function principal(records: { schema: Record<string, unknown> }[]): string {
  const keywords = [
    "oneOf",
    "anyOf",
    "not",
    "dependencies",
    "properties",
    "required",
    "items",
    "pattern",
    "format",
    "enum",
    "maxLength",
    "minLength",
    "maxItems",
    "minItems",
    "minimum",
    "maximum",
  ];
  return keywords.find((keyword) => records.some(({ schema }) => keyword in schema)) ?? "type";
}

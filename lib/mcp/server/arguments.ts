/**
 * A server's check of a tool's arguments against the tool's own input
 * schema, before the tool runs. It reads the small part of JSON Schema that
 * the course's tools use, with no library, so that it runs anywhere a server
 * runs (the autograder's sandbox included), and it refuses a schema it cannot
 * read in full rather than pass arguments it did not check.
 * The course's tests hold it to ajv's verdicts.
 *
 * @module
 */

import { isObject, type JsonObject } from "../shared/jsonrpc.ts";

/**
 * The keywords read in the schema of one value; any other makes the schema
 * unreadable. The schema of the arguments as a whole may also have
 * `properties`, `required` and `additionalProperties`.
 */
const KEYWORDS = new Set([
  "type",
  "enum",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  // Annotations: they describe, and constrain nothing.
  "description",
  "title",
  "default",
  "examples",
  "$schema",
  // 2026-07-28: the argument is mirrored into an Mcp-Param-* header over HTTP.
  "x-mcp-header",
]);

const TYPES: Record<string, (value: unknown) => boolean> = {
  object: isObject,
  array: Array.isArray,
  string: (value) => typeof value === "string",
  integer: (value) => Number.isInteger(value),
  number: (value) => typeof value === "number" && Number.isFinite(value),
  boolean: (value) => typeof value === "boolean",
  null: (value) => value === null,
};

/**
 * What is wrong with `args` under the object `schema`, one line each, in the
 * order found; `[]` when they match. Lines read `missing verb`, `unexpected
 * mood`, `person must be string`, `verb must be one of: be, eat`,
 * `english_form must be at least 1 characters long`, `tubs must be at least 1`.
 * Throws `TypeError` naming the keyword when the schema uses one this check
 * does not read. Neither input is changed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const schema = {
 *   type: "object",
 *   properties: { verb: { type: "string", enum: ["eat", "go"] } },
 *   required: ["verb"],
 *   additionalProperties: false,
 * };
 * assert.deepEqual(argumentProblems(schema, { verb: "go" }), []);
 * assert.deepEqual(argumentProblems(schema, { verb: "fly", mood: "x" }), [
 *   "verb must be one of: eat, go",
 *   "unexpected mood",
 * ]);
 * assert.deepEqual(argumentProblems(schema, {}), ["missing verb"]);
 * ```
 */
export function argumentProblems(schema: JsonObject, args: unknown): string[] {
  const { type, properties: _, required: __, additionalProperties: extra, ...rest } = schema;
  if (extra !== undefined && typeof extra !== "boolean") {
    throw new TypeError('This check reads "additionalProperties" only as true or false');
  }
  const problems = valueProblems({ ...rest, type }, args, "arguments");
  if (problems.length > 0 || !isObject(args)) return problems;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const key of required) {
    if (!Object.hasOwn(args, key)) problems.push(`missing ${key}`);
  }
  for (const [key, value] of Object.entries(args)) {
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (isObject(property)) problems.push(...valueProblems(property, value, key));
    else if (schema.additionalProperties === false) problems.push(`unexpected ${key}`);
  }
  return problems;
}

/** The problems with one value under a schema of scalar keywords; `name` says whose. */
function valueProblems(schema: JsonObject, value: unknown, name: string): string[] {
  const unread = Object.keys(schema).find((keyword) => !KEYWORDS.has(keyword));
  if (unread !== undefined) {
    throw new TypeError(`This check does not read the schema keyword "${unread}" (at ${name})`);
  }
  const { type, enum: allowed, minLength, maxLength, minimum, maximum } = schema;
  if (typeof type === "string") {
    const fits = Object.hasOwn(TYPES, type) ? TYPES[type] : undefined;
    if (fits === undefined) throw new TypeError(`Unknown schema type "${type}" (at ${name})`);
    if (!fits(value)) return [`${name} must be ${type}`];
  }
  if (Array.isArray(allowed) && !allowed.some((option) => sameJson(option, value))) {
    return [`${name} must be one of: ${allowed.map(String).join(", ")}`];
  }
  const problems: string[] = [];
  if (typeof value === "string") {
    // JSON Schema counts characters as code points, not UTF-16 units.
    const length = [...value].length;
    if (typeof minLength === "number" && length < minLength) {
      problems.push(`${name} must be at least ${minLength} characters long`);
    }
    if (typeof maxLength === "number" && length > maxLength) {
      problems.push(`${name} must be at most ${maxLength} characters long`);
    }
  }
  if (typeof value === "number") {
    if (typeof minimum === "number" && value < minimum) {
      problems.push(`${name} must be at least ${minimum}`);
    }
    if (typeof maximum === "number" && value > maximum) {
      problems.push(`${name} must be at most ${maximum}`);
    }
  }
  return problems;
}

/** Whether two JSON values are equal, as `enum` compares them. */
function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}

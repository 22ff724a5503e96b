/**
 * The checks of one value of an elicitation form's field against the
 * field's schema, for `elicitation_form.ts`, which reads the schema first.
 *
 * @module
 */

import type { FormReading } from "./elicitation_form.ts";
import { FORMATS } from "./_form_formats.ts";
import { isObject, type JsonObject } from "./jsonrpc.ts";

/** The problems with the value of the field `name`, under its schema (one `unreadForm` reads). */
export function fieldProblems(
  schema: JsonObject,
  value: unknown,
  name: string,
  reading: FormReading,
): string[] {
  switch (schema.type) {
    case "string":
      return typeof value === "string"
        ? stringProblems(schema, value, name, reading)
        : [`${name} must be a string`];
    case "number":
    case "integer": {
      const fits = schema.type === "integer"
        ? Number.isInteger(value)
        : typeof value === "number" && Number.isFinite(value);
      return fits
        ? [
          ...boundProblems(schema.minimum, schema.maximum, value as number, name, ""),
          ...exclusiveProblems(schema, value as number, name),
        ]
        : [`${name} must be ${schema.type === "integer" ? "an integer" : "a number"}`];
    }
    case "boolean":
      return typeof value === "boolean" ? [] : [`${name} must be true or false`];
  }
  return choicesProblems(schema, value, name);
}

/** The problems with the number `value` of the field `name` under its exclusive bounds and multipleOf. */
function exclusiveProblems(schema: JsonObject, value: number, name: string): string[] {
  const { exclusiveMinimum: above, exclusiveMaximum: below, multipleOf: step } = schema;
  if (typeof above === "number" && value <= above) return [`${name} must be more than ${above}`];
  if (typeof below === "number" && value >= below) return [`${name} must be less than ${below}`];
  // As JSON Schema says it: the value divided by multipleOf is an integer (0.3 of 0.1 is not).
  if (typeof step === "number" && !Number.isInteger(value / step)) {
    return [`${name} must be a multiple of ${step}`];
  }
  return [];
}

/** The problems with the string `value` of the field `name`. */
function stringProblems(
  schema: JsonObject,
  value: string,
  name: string,
  reading: FormReading,
): string[] {
  const allowed = Array.isArray(schema.enum)
    ? schema.enum
    : schema.oneOf === undefined
    ? undefined
    : choices({ anyOf: schema.oneOf });
  if (allowed !== undefined && !allowed.includes(value)) {
    return [`${name} must be one of: ${allowed.join(", ")}`];
  }
  const format = schema.format === undefined ? undefined : String(schema.format);
  const problems = boundProblems(
    schema.minLength,
    schema.maxLength,
    // JSON Schema counts characters as code points, not UTF-16 units.
    [...value].length,
    name,
    " characters long",
  );
  if (format !== undefined && !FORMATS[format](value)) {
    problems.push(`${name} must be ${format === "email" ? "an email" : `a ${format}`}`);
  }
  // unreadKeyword read a pattern only with a way to run it, and ran it.
  if (typeof schema.pattern === "string" && !reading.patterns!(schema.pattern).test(value)) {
    problems.push(`${name} must match the pattern ${JSON.stringify(schema.pattern)}`);
  }
  return problems;
}

/** The problems with a multiple choice's `value` (2025-11-25's `type: "array"`). */
function choicesProblems(schema: JsonObject, value: unknown, name: string): string[] {
  if (!Array.isArray(value)) return [`${name} must be a list of choices`];
  const allowed = choices(schema.items)!;
  // findIndex, not find: an item that is undefined (or a hole, which JSON writes as null) is strange.
  const at = Array.from(value).findIndex((item) =>
    typeof item !== "string" || !allowed.includes(item)
  );
  if (at !== -1) {
    return [
      `${name} holds ${String(JSON.stringify(value[at]))}: each must be one of: ${
        allowed.join(", ")
      }`,
    ];
  }
  // A set's choices (uniqueItems, which only a client reads) are each given once.
  if (schema.uniqueItems === true && new Set(value).size < value.length) {
    return [`${name} must not give a choice twice`];
  }
  return boundProblems(schema.minItems, schema.maxItems, value.length, name, " choices");
}

/**
 * The values a field's choices allow: `{ type: "string", enum }`, or titled
 * choices `{ anyOf: [{ const, title }] }`, each saying nothing else;
 * `undefined` when `items` is neither.
 */
export function choices(items: unknown): string[] | undefined {
  if (!isObject(items)) return undefined;
  if (saysOnly(items, ["type", "enum"]) && items.type === "string" && Array.isArray(items.enum)) {
    return items.enum.every((option) => typeof option === "string") ? items.enum : undefined;
  }
  if (!saysOnly(items, ["anyOf"]) || !Array.isArray(items.anyOf)) return undefined;
  const values = items.anyOf.map((option) =>
    isObject(option) && saysOnly(option, ["const", "title"]) && typeof option.const === "string"
      ? option.const
      : undefined
  );
  return values.every((value) => value !== undefined) ? values as string[] : undefined;
}

/** Whether `schema` has no keyword but `keywords`. */
const saysOnly = (schema: JsonObject, keywords: readonly string[]) =>
  Object.keys(schema).every((keyword) => keywords.includes(keyword));

/** Whether `size` lies within `least` and `most`, where each is a number; `unit` follows each. */
function boundProblems(
  least: unknown,
  most: unknown,
  size: number,
  name: string,
  unit: string,
): string[] {
  if (typeof least === "number" && size < least) {
    return [`${name} must be at least ${least}${unit}`];
  }
  if (typeof most === "number" && size > most) return [`${name} must be at most ${most}${unit}`];
  return [];
}

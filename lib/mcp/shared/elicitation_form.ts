/**
 * The check of an elicitation form, written once for both sides of MCP: a
 * server's check of the form the user filled in (an accepted
 * `elicitation/create`'s `content`) against the schema it asked with, as
 * the specification says a server SHOULD ("Servers SHOULD validate received
 * data matches the requested schema", 2025-11-25; "Both parties SHOULD
 * validate elicitation content against the provided schema", 2025-06-18),
 * and a client's check of each field's `default`, and of its user's whole
 * answer, before it sends them (`lib/mcp/client/elicitation.ts`; the shape
 * of an answer around the form, its action and content, is
 * `elicit_answer.ts`'s).
 * It reads exactly the restricted form an elicitation schema may take
 * (`PrimitiveSchemaDefinition`, the same from 2025-11-25 to 2026-07-28): a
 * flat object of strings (`minLength`, `maxLength`, `format` of email, uri,
 * date or date-time, `enum` with `enumNames`, or titled choices in `oneOf`),
 * numbers and integers (`minimum`, `maximum`; no `exclusiveMinimum` or
 * `exclusiveMaximum`), booleans, and, from 2025-11-25, multiple choices
 * (`type: "array"`, `items` of an `enum` or of titled choices in `anyOf`,
 * `minItems`, `maxItems`); `required` names the fields that must be filled
 * in. A server that asks a form with more than that learns so by name
 * rather than take an answer nobody checked.
 *
 * Neither version defines `exclusiveMinimum`, `exclusiveMaximum`,
 * `multipleOf`, `pattern` or a multiple choice's `uniqueItems`, yet servers
 * send them (FastMCP writes them for pydantic's `gt`, `lt`, `multiple_of`,
 * `pattern` and a `set`). A
 * client reading another server's form reads them too, as JSON Schema does,
 * when it is given a way to run a pattern in linear time
 * ({@linkcode FormReading}): its user's answer and the form's defaults are
 * held to them. The course's own servers give none, so the same check names
 * each as what no elicitation form has, and no such form is asked.
 *
 * @module
 */

import { FORMATS } from "./_form_formats.ts";
import { choices, fieldProblems } from "./_form_values.ts";
import { isObject, type JsonObject } from "./jsonrpc.ts";

/** What the schema of a whole elicitation form may say (`requestedSchema`). */
const FORM_KEYWORDS = ["$schema", "type", "title", "description", "properties", "required"];

/** What each field type of an elicitation form may say about it. */
const FIELD_KEYWORDS: Record<string, readonly string[]> = {
  string: ["minLength", "maxLength", "format", "enum", "enumNames", "oneOf"],
  number: ["minimum", "maximum"],
  integer: ["minimum", "maximum"],
  boolean: [],
  array: ["items", "minItems", "maxItems"],
};

/** What a field may say beyond either specification, read only given a way to run patterns. */
const BEYOND: Record<string, readonly string[]> = {
  string: ["pattern"],
  number: ["exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  integer: ["exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  array: ["uniqueItems"],
};

/** The keywords that bound a field, each a number. */
const BOUNDS = [
  ...["minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems"],
  ...["exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
];

/** A compiled `pattern`: whether it matches somewhere in a text. */
export interface FormPattern {
  /** Whether the pattern matches somewhere in `text`. */
  test(text: string): boolean;
}

/** How a form is read: as the specification defines it, or also with the keywords servers add. */
export interface FormReading {
  /**
   * Compiles a field's `pattern`, throwing for one it cannot run (the
   * client's `linearPattern`, RE2, which never backtracks). Given it, a
   * number's `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`, a
   * string's `pattern` and a multiple choice's `uniqueItems` are read as JSON
   * Schema reads them; without it, each is named as what no elicitation form
   * has.
   *
   * @default {undefined} (the specification's keywords only, as the course's servers ask)
   */
  patterns?: (source: string) => FormPattern;
  /**
   * Whether a field's default that its field refuses is named: a server
   * asks no such form, and a client fills in no such default; an answer is
   * checked all the same, its fields' rules being read.
   *
   * @default {true}
   */
  defaults?: boolean;
}

/** How a filled-in form is checked. */
export interface FormOptions extends FormReading {
  /** Whether a key the form does not ask may hold a list of strings (2025-11-25 on). @default {true} */
  lists?: boolean;
  /**
   * Whether a key the form does not ask (in `properties` or `required`) is
   * refused: a client sends the server nothing its user was not asked, where
   * a server takes what the schema leaves open. @default {false}
   */
  onlyAsked?: boolean;
}

/** Annotations any field may carry: they constrain nothing. */
const ANNOTATIONS = ["type", "title", "description", "default"];

/**
 * What is wrong with the filled-in form `content` under the elicitation
 * schema `requested`, one phrase each; `[]` when it fits. A key the form
 * does not ask may hold a string, number or boolean, and a list of strings
 * when `lists` (2025-11-25 on; 2025-06-18's content holds no list). A
 * schema that says what no elicitation form says ({@linkcode unreadForm}) is
 * named as such: the answer is not taken unchecked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const requested = {
 *   type: "object",
 *   properties: {
 *     size: { type: "string", enum: ["S", "L"] },
 *     email: { type: "string", format: "email" },
 *   },
 *   required: ["size"],
 * };
 * assert.deepEqual(formProblems(requested, { size: "S", email: "ada@example.com" }), []);
 * assert.deepEqual(formProblems(requested, { size: "XL" }), ["size must be one of: S, L"]);
 * assert.deepEqual(formProblems(requested, { email: "ada" }), ["missing size", "email must be an email"]);
 * ```
 */
export function formProblems(
  requested: unknown,
  content: JsonObject,
  options: FormOptions = {},
): string[] {
  const { lists = true, onlyAsked = false } = options;
  const unread = unreadForm(requested, { ...options, defaults: false });
  if (unread !== undefined) {
    return [`the form cannot be checked: ${unread}`];
  }
  const schema = isObject(requested) ? requested : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const problems = required.filter((key) => typeof key !== "string" || !Object.hasOwn(content, key))
    .map((key) => `missing ${key}`);
  for (const [name, value] of Object.entries(content)) {
    const field = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (field === undefined) {
      // The form's schema leaves other keys open; ElicitResult's content holds plain values only.
      // A key the form requires is asked, though it has no field of its own.
      if (onlyAsked && !required.includes(name)) {
        problems.push(`${name} is not a field of the form`);
      } else if (!isPlain(value, lists)) {
        problems.push(
          `${name} is not a string, number, boolean${lists ? " or list of strings" : ""}`,
        );
      }
    } else problems.push(...fieldProblems(field as JsonObject, value, name, options));
  }
  return problems;
}

/**
 * What the elicitation schema `requested` says that no elicitation form
 * says (a keyword, a type, a format, choices of another shape), or a field's
 * default that its own field refuses, naming where;
 * `undefined` when this check reads it all and every default fits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const code = { type: "string", pattern: "^[A-Z]+$" };
 * assert.equal(unreadForm({ type: "object", properties: { code } }), 'its field code has "pattern", which no elicitation form has');
 * assert.equal(unreadForm({ type: "object", properties: { code: { type: "string" } } }), undefined);
 * ```
 */
export function unreadForm(requested: unknown, reading: FormReading = {}): string | undefined {
  const schema = isObject(requested) ? requested : {};
  const unread = Object.keys(schema).find((keyword) => !FORM_KEYWORDS.includes(keyword));
  if (unread !== undefined) return `its schema has "${unread}"${UNREAD}`;
  if (schema.type !== undefined && schema.type !== "object") {
    return `its schema has the type ${JSON.stringify(schema.type)}${UNREAD}`;
  }
  if (schema.properties !== undefined && !isObject(schema.properties)) {
    return `its schema has properties that are no object${UNREAD}`;
  }
  const { required = [] } = schema;
  if (!Array.isArray(required) || !required.every((key) => typeof key === "string")) {
    return `its schema has a required that is no list of field names${UNREAD}`;
  }
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [name, field] of Object.entries(properties)) {
    const problem = reading.defaults === false
      ? unreadKeyword(field, reading)?.concat(UNREAD)
      : fieldProblem(field, reading);
    if (problem !== undefined) return `its field ${name} has ${problem}`;
  }
  return undefined;
}

/**
 * Whether `value` is one of the values an elicitation answer's content holds
 * (a list, if `lists`), as JSON carries it: a number JSON writes as null
 * (NaN, Infinity) is none, nor a list with a hole, which `every` skips.
 */
const isPlain = (value: unknown, lists: boolean) =>
  ["string", "boolean"].includes(typeof value) || Number.isFinite(value) ||
  (lists && Array.isArray(value) && Array.from(value).every((item) => typeof item === "string"));

/**
 * What the field schema `field` says that no elicitation form's field says
 * (a keyword, a type, a format, choices of another shape), or a `default`
 * that breaks the field's own type, choices, bounds or format, named;
 * `undefined` when this check reads all of it and its default, if it has
 * one, fits it. A client fills in only a default its field leaves no
 * problem with ({@linkcode unreadForm} names the same of a whole form).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(fieldProblem({ type: "string", minLength: 3, default: "Ada" }), undefined);
 * assert.equal(fieldProblem({ type: "string", minLength: 3, default: "Al" }), "a default that does not fit it (it must be at least 3 characters long)");
 * assert.equal(fieldProblem({ type: "number", exclusiveMinimum: 0, default: 1 }), '"exclusiveMinimum", which no elicitation form has');
 * ```
 *
 * @example Read with a way to run patterns, as a client reads another server's form
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const patterns = (source: string) => new RegExp(source, "u");
 * assert.equal(fieldProblem({ type: "number", exclusiveMinimum: 0, default: 1 }, { patterns }), undefined);
 * assert.equal(fieldProblem({ type: "number", exclusiveMinimum: 0, default: 0 }, { patterns }), "a default that does not fit it (it must be more than 0)");
 * assert.equal(fieldProblem({ type: "string", pattern: "^[A-Z]+$", default: "ab" }, { patterns }), 'a default that does not fit it (it must match the pattern "^[A-Z]+$")');
 * ```
 */
export function fieldProblem(field: unknown, reading: FormReading = {}): string | undefined {
  const unread = unreadKeyword(field, reading);
  if (unread !== undefined) return `${unread}${UNREAD}`;
  // Read whole, it is an object. A default is what the client may answer for the user: one the
  // field refuses is no answer.
  const read = field as JsonObject;
  const [misfit] = "default" in read ? fieldProblems(read, read.default, "it", reading) : [];
  return misfit === undefined ? undefined : `a default that does not fit it (${misfit})`;
}

/** What follows a keyword, type or shape this check does not read, where it is named. */
const UNREAD = ", which no elicitation form has";

/** The keyword, or type, of `field` that an elicitation form's field cannot have, named. */
function unreadKeyword(field: unknown, reading: FormReading): string | undefined {
  if (!isObject(field)) return "no object";
  // One type, named as a string: ["string"] reads as "string" to String(), but is a list of types.
  const { type } = field;
  if (typeof type !== "string" || !Object.hasOwn(FIELD_KEYWORDS, type)) {
    return `the type ${JSON.stringify(type)}`;
  }
  const beyond = reading.patterns === undefined ? [] : BEYOND[type] ?? [];
  const allowed = [...ANNOTATIONS, ...FIELD_KEYWORDS[type], ...beyond];
  const unread = Object.keys(field).find((keyword) => !allowed.includes(keyword));
  if (unread !== undefined) return `"${unread}"`;
  const bound = BOUNDS.find((keyword) => keyword in field && typeof field[keyword] !== "number");
  if (bound !== undefined) return `a "${bound}" that is not a number`;
  if ("multipleOf" in field && !((field.multipleOf as number) > 0)) {
    return 'a "multipleOf" that is not more than 0';
  }
  if ("uniqueItems" in field && typeof field.uniqueItems !== "boolean") {
    return 'a "uniqueItems" that is not true or false';
  }
  if ("pattern" in field) {
    const unrun = patternProblem(field.pattern, reading.patterns!);
    if (unrun !== undefined) return unrun;
  }
  if ("enum" in field && choices({ type: "string", enum: field.enum }) === undefined) {
    return "an enum that is not a list of strings";
  }
  if ("enum" in field && "oneOf" in field) return "both an enum and a oneOf";
  if (field.format !== undefined && !Object.hasOwn(FORMATS, String(field.format))) {
    return `the format ${JSON.stringify(field.format)}`;
  }
  if (type === "array" && choices(field.items) === undefined) return "items that are no choices";
  if (
    type === "string" && field.oneOf !== undefined && choices({ anyOf: field.oneOf }) === undefined
  ) {
    return "a oneOf that is no titled choices";
  }
  // oneOf takes a value that matches exactly one choice: one given twice is taken by none.
  const single = type === "string" && field.oneOf !== undefined
    ? choices({ anyOf: field.oneOf })!
    : [];
  if (new Set(single).size < single.length) return "a oneOf whose choices repeat";
  return undefined;
}

/** Why `pattern` cannot be run by `patterns`, if it cannot. */
function patternProblem(
  pattern: unknown,
  patterns: (source: string) => FormPattern,
): string | undefined {
  if (typeof pattern !== "string") return 'a "pattern" that is not a string';
  try {
    patterns(pattern);
  } catch (error) {
    return `the pattern ${JSON.stringify(pattern)}, which cannot be run: ${
      error instanceof Error ? error.message : error
    }`;
  }
  return undefined;
}

/**
 * What a client answers a server's `elicitation/create` with: the user's
 * answer, as the caller's `elicit` function gives it, with every field the
 * user left out filled from its `default` in the requested schema, as 2025-11-25
 * asks of clients (SEP-1034), where that default fits its own field; and
 * only when the whole answer fits the form ("Clients SHOULD validate all
 * responses against the provided schema", 2025-11-25's security
 * considerations).
 *
 * @module
 */

import { elicitAnswerProblem } from "../shared/elicit_answer.ts";
import {
  fieldProblem,
  formProblems,
  type FormReading,
  unreadForm,
} from "../shared/elicitation_form.ts";
import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { type LinearPattern, linearPattern } from "../shared/linear_pattern.ts";

/**
 * The most patterns this client compiles for one form: RE2 runs each in
 * linear time, but compiling one can take tens of milliseconds
 * (`[\p{L}\p{N}]{1,1000}`), and a server's form may hold thousands. A field
 * whose pattern is past them is one the check cannot read.
 */
export const MAX_FORM_PATTERNS = 16;

/**
 * How this client reads a server's form: the specification's keywords, and
 * the `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `uniqueItems`
 * and `pattern` servers add, each pattern compiled by RE2, as every pattern of a server's
 * is, once, and no more than {@linkcode MAX_FORM_PATTERNS} of them: a
 * reading for one form.
 */
function formReading(): { patterns: (source: string) => LinearPattern } {
  const compiled = new Map<string, LinearPattern>();
  return {
    patterns: (source) => {
      let pattern = compiled.get(source);
      if (pattern !== undefined) return pattern;
      if (compiled.size >= MAX_FORM_PATTERNS) {
        throw new RangeError(`this client compiles at most ${MAX_FORM_PATTERNS} patterns a form`);
      }
      pattern = linearPattern(source);
      compiled.set(source, pattern);
      return pattern;
    },
  };
}

/** The user's answer to a server's question. */
export interface ElicitResult extends JsonObject {
  /** What the user did. */
  action: "accept" | "decline" | "cancel";
  /** The values given, when the user accepted. */
  content?: JsonObject;
}

/** Asks the user what the server asks (`message`, with the fields of `requestedSchema`). */
export type Elicit = (params: JsonObject) => Promise<ElicitResult>;

/**
 * Why this client cannot answer the elicitation `params`, if it cannot: it
 * declares form mode only (`"elicitation": {}`), so a question in any other
 * mode (`"mode": "url"`) is refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(elicitationProblem({ message: "Name?", requestedSchema: { type: "object", properties: {} } }), undefined);
 * assert.match(elicitationProblem({ mode: "url", message: "Sign in", url: "https://example.com" })!, /form mode only/);
 * ```
 */
export function elicitationProblem(params: JsonObject): string | undefined {
  if (params.mode === undefined || params.mode === "form") return undefined;
  return `this client declared elicitation in form mode only, not ${JSON.stringify(params.mode)}`;
}

/**
 * `result` with every property of `requestedSchema` that an accepting answer
 * left out (or gave as `undefined`, which JSON leaves out: such a key is
 * dropped) filled from its `default`, when that default is one the field's
 * own schema takes: of its type, one of its choices (`enum`, `oneOf`, a
 * multiple choice's `items`), within its bounds (`minLength`, `maxLength`,
 * `minimum`, `maximum`, `minItems`, `maxItems`, and the `exclusiveMinimum`,
 * `exclusiveMaximum`, `multipleOf` and `uniqueItems` servers such as
 * FastMCP add), of its `format` (email, uri, date, date-time) and matching
 * its `pattern` (run by RE2), by the same check the course's servers hold
 * answers to (`fieldProblem`, `lib/mcp/shared/elicitation_form.ts`). A
 * default its field refuses, or that sits in a field saying what this check
 * does not read (a keyword it does not know, a pattern RE2 cannot run, or
 * one past the {@linkcode MAX_FORM_PATTERNS} it compiles a form: nothing
 * here can vouch for it), is the server's slip, not the user's answer: that field is left out, as the user left it,
 * and the rest of the answer is as it was. Nothing is thrown at the user for
 * the server's form. Any other answer unchanged.
 *
 * @example A user who accepts and types nothing gets every default that fits
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const schema = { type: "object", properties: { name: { type: "string", default: "John Doe" }, age: { type: "integer", minimum: 18, default: 1 } } };
 * assert.deepEqual(withDefaults(schema, { action: "accept", content: {} }), { action: "accept", content: { name: "John Doe" } });
 * assert.deepEqual(withDefaults(schema, { action: "decline" }), { action: "decline" });
 * ```
 */
export function withDefaults(requestedSchema: unknown, result: ElicitResult): ElicitResult {
  return filled(requestedSchema, result, readForm(requestedSchema));
}

/** A form read: how, and the fields that reading cannot read. */
type ReadForm = FormReading & { unread: Set<string> };

/**
 * The form `requestedSchema` read first, in its fields' order, so that which
 * fields are read (the first MAX_FORM_PATTERNS patterns) is the form's, not
 * the answer's.
 */
function readForm(requestedSchema: unknown): ReadForm {
  const reading = formReading();
  return { ...reading, unread: unreadFields(requestedSchema, reading) };
}

/** {@linkcode withDefaults}' answer, its form read as `{ unread, ...reading }` says. */
function filled(
  requestedSchema: unknown,
  result: ElicitResult,
  { unread, ...reading }: ReadForm,
): ElicitResult {
  const { action, content: given = {} } = result;
  if (action !== "accept" || !isObject(requestedSchema) || !isObject(given)) return result;
  const properties = isObject(requestedSchema.properties) ? requestedSchema.properties : {};
  // A key whose value is undefined is left out, as JSON sends it: its default may fill it.
  const content: JsonObject = Object.fromEntries(
    Object.entries(given).filter(([, value]) => value !== undefined),
  );
  for (const [name, field] of Object.entries(properties)) {
    if (
      !Object.hasOwn(content, name) && !unread.has(name) && isObject(field) &&
      "default" in field && fieldProblem(field, reading) === undefined
    ) {
      content[name] = field.default;
    }
  }
  return { ...result, content };
}

/**
 * The user's answer to a server's question is no answer to it (it does not
 * fit the form, naming each field and rule; or its action or content is of
 * no answer): nothing of it is sent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const error = new FormAnswerError("does not fit the form it was asked with: code must be at most 3 characters long");
 * assert.equal(error.name, "FormAnswerError");
 * assert.equal(error.message, "The user's answer does not fit the form it was asked with: code must be at most 3 characters long; it is not sent");
 * ```
 */
export class FormAnswerError extends TypeError {
  /** An answer with `problem`, a phrase that follows "the user's answer". */
  constructor(problem: string) {
    super(`The user's answer ${problem}; it is not sent`);
    this.name = "FormAnswerError";
  }
}

/**
 * What the client sends for the user's answer `result` to a form asked with
 * `requestedSchema`: {@linkcode withDefaults}' answer, when an accepted one
 * fits the form, by the check the course's servers hold answers to
 * (`formProblems`, reading the keywords servers add beyond the
 * specification); and a field the form never asked for is refused, since the
 * server is sent nothing its user was not asked. An answer that does not fit
 * throws {@linkcode FormAnswerError}, naming each field and rule, before
 * anything is sent: the caller's request fails with it, and the server is
 * told only that its question failed (a JSON-RPC error to a legacy server's
 * own request; at 2026-07-28 no retry at all). Not `decline` nor `cancel`:
 * each says what the user did not do (refuse, or dismiss the form), and the
 * server would act on it (offer something else, ask again later); an error
 * is "the client fails to process the request", which a server MUST handle.
 * An answer that is no object, or has an action other than accept, decline
 * or cancel, or content that is no object or not an accepted form's, is
 * refused the same way (`elicitAnswerProblem`, the server's check too). A
 * declined or cancelled answer is as it was. A field this check cannot read
 * (the server's slip: a keyword it does not know, a pattern RE2 refuses)
 * holds only what every answer's values are (strings, numbers, booleans or
 * lists of strings), and every other field is held to its rules all the
 * same, whatever else the form's schema says (a keyword of its own it does
 * not read, such as a `minProperties`, is held to nothing); a form that is
 * no object's, or whose `required` is no list of names, holds the whole
 * answer only so. A default the form's field refuses does not keep its
 * answer from being checked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const schema = { type: "object", properties: { code: { type: "string", maxLength: 3 }, n: { type: "integer", default: 1 } } };
 * assert.deepEqual(checkedAnswer(schema, { action: "accept", content: { code: "ABC" } }), { action: "accept", content: { code: "ABC", n: 1 } });
 * assert.throws(() => checkedAnswer(schema, { action: "accept", content: { code: "ABCD" } }), FormAnswerError);
 * assert.throws(() => checkedAnswer(schema, { action: "accept", content: { age: 3 } }), /age is not a field of the form/);
 * ```
 */
export function checkedAnswer(
  requestedSchema: unknown,
  result: ElicitResult,
): ElicitResult {
  // An elicit function of JavaScript's may give anything; what is no object is no answer.
  if (!isObject(result)) throw new FormAnswerError("is not an object");
  // One reading for the whole answer: each pattern compiled once, at most MAX_FORM_PATTERNS.
  const form = readForm(requestedSchema);
  const answer = filled(requestedSchema, result, form);
  const problem = answerProblem(requestedSchema, answer, form);
  if (problem !== undefined) throw new FormAnswerError(problem);
  return answer;
}

/** The fields of the form `requestedSchema` that `reading` cannot read, each on its own. */
function unreadFields(requestedSchema: unknown, reading: FormReading): Set<string> {
  const properties = isObject(requestedSchema) && isObject(requestedSchema.properties)
    ? requestedSchema.properties
    : {};
  const options = { ...reading, defaults: false };
  return new Set(
    Object.keys(properties).filter((name) =>
      unreadForm({ properties: { [name]: properties[name] } }, options) !== undefined
    ),
  );
}

/**
 * Why `answer` is no answer to the form `requestedSchema`, read with
 * `reading` field by field, `unread` naming the fields it cannot read: each
 * field the check reads holds its value to its rules, whatever another field
 * says; a field it cannot read (a keyword it does not know, a pattern RE2
 * refuses or past MAX_FORM_PATTERNS) holds only what every answer's values
 * are; a keyword of the form's own it does not read, nothing; a form that
 * is no object's, or whose `required` is no list of names, holds the whole
 * answer so.
 */
function answerProblem(
  requestedSchema: unknown,
  answer: ElicitResult,
  { unread, ...reading }: ReadForm,
): string | undefined {
  const schema = isObject(requestedSchema) ? requestedSchema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const options = { ...reading, defaults: false };
  const isRead = ([name]: [string, unknown]) => !unread.has(name);
  // Of the form's own keywords, those that give its fields' rules: another (the server's slip,
  // such as a minProperties) leaves those rules held all the same.
  const read = {
    ...(schema.type === undefined ? {} : { type: schema.type }),
    properties: Object.fromEntries(Object.entries(properties).filter(isRead)),
    required: required.filter((name) => !unread.has(name)),
  };
  if (unreadForm(read, options) !== undefined) {
    return elicitAnswerProblem({ requestedSchema: {} }, answer, reading);
  }
  const { action, content } = answer;
  if (action !== "accept" || !isObject(content)) {
    return elicitAnswerProblem({ requestedSchema: read }, answer, reading);
  }
  const given = Object.entries(content);
  const problems = [
    ...formProblems(read, Object.fromEntries(given.filter(isRead)), {
      ...reading,
      onlyAsked: true,
    }),
    // A field it cannot read holds what every answer's values are, and is there if required.
    ...formProblems(
      { required: required.filter((name) => unread.has(name)) },
      Object.fromEntries(given.filter((entry) => !isRead(entry))),
    ),
  ];
  return problems.length === 0
    ? undefined
    : `does not fit the form it was asked with: ${problems.join("; ")}`;
}

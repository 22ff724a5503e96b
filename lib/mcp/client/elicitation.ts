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
import { fieldProblem, type FormReading, unreadForm } from "../shared/elicitation_form.ts";
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
 * the `exclusiveMinimum`, `exclusiveMaximum` and `pattern` servers add, each
 * pattern compiled by RE2, as every pattern of a server's is, once, and no
 * more than {@linkcode MAX_FORM_PATTERNS} of them: a reading for one form.
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
 * `exclusiveMaximum` servers such as FastMCP add), of its `format` (email,
 * uri, date, date-time) and matching its `pattern` (run by RE2), by the same
 * check the course's servers hold answers to (`fieldProblem`,
 * `lib/mcp/shared/elicitation_form.ts`). A default its field refuses, or
 * that sits in a field saying what this check does not read (a `multipleOf`,
 * a pattern RE2 cannot run, or one past the {@linkcode MAX_FORM_PATTERNS}
 * it compiles a form: nothing here can vouch for it), is the server's
 * slip, not the user's answer: that field is left out, as the user left it,
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
  return filled(requestedSchema, result, formReading());
}

/** {@linkcode withDefaults}' answer, its form read with `reading`. */
function filled(
  requestedSchema: unknown,
  result: ElicitResult,
  reading: FormReading,
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
      !Object.hasOwn(content, name) && isObject(field) && "default" in field &&
      fieldProblem(field, reading) === undefined
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
 * declined or cancelled answer is as it was; one to a form this check cannot
 * read (the server's slip) is held only to what every answer is (its values
 * strings, numbers, booleans or lists of strings); a default the form's
 * field refuses does not keep its answer from being checked.
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
  const reading = formReading();
  const answer = filled(requestedSchema, result, reading);
  // A form this check cannot read holds the answer only to what every answer is.
  const read = unreadForm(requestedSchema, { ...reading, defaults: false }) === undefined;
  const problem = elicitAnswerProblem(
    { requestedSchema: read ? requestedSchema : {} },
    answer,
    { ...reading, onlyAsked: read },
  );
  if (problem !== undefined) throw new FormAnswerError(problem);
  return answer;
}

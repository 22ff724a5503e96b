/**
 * What a client answers a server's `elicitation/create` with: the user's
 * answer, as the caller's `elicit` function gives it, with every field the
 * user left out filled from its `default` in the requested schema, as 2025-11-25
 * asks of clients (SEP-1034), where that default fits its own field.
 *
 * @module
 */

import { fieldProblem } from "../shared/elicitation_form.ts";
import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { linearPattern } from "../shared/linear_pattern.ts";

/**
 * How this client reads a server's form: the specification's keywords, and
 * the `exclusiveMinimum`, `exclusiveMaximum` and `pattern` servers add (a
 * pattern run by RE2, as every pattern of a server's is).
 */
const READING = { patterns: linearPattern };

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
 * left out filled from its `default`, when that default is one the field's
 * own schema takes: of its type, one of its choices (`enum`, `oneOf`, a
 * multiple choice's `items`), within its bounds (`minLength`, `maxLength`,
 * `minimum`, `maximum`, `minItems`, `maxItems`, and the `exclusiveMinimum`,
 * `exclusiveMaximum` servers such as FastMCP add), of its `format` (email,
 * uri, date, date-time) and matching its `pattern` (run by RE2), by the same
 * check the course's servers hold answers to (`fieldProblem`,
 * `lib/mcp/shared/elicitation_form.ts`). A default its field refuses, or
 * that sits in a field saying what this check does not read (a `multipleOf`,
 * a pattern RE2 cannot run: nothing here can vouch for it), is the server's
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
  if (result.action !== "accept" || !isObject(requestedSchema)) return result;
  const properties = isObject(requestedSchema.properties) ? requestedSchema.properties : {};
  const content: JsonObject = { ...result.content };
  for (const [name, field] of Object.entries(properties)) {
    if (
      !Object.hasOwn(content, name) && isObject(field) && "default" in field &&
      fieldProblem(field, READING) === undefined
    ) {
      content[name] = field.default;
    }
  }
  return { ...result, content };
}

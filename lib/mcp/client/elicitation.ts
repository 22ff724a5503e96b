/**
 * What a client answers a server's `elicitation/create` with: the user's
 * answer, as the caller's `elicit` function gives it, with every field the
 * user left out filled from its `default` in the requested schema, as 2025-11-25
 * asks of clients (SEP-1034).
 *
 * @module
 */

import { isObject, type JsonObject } from "../shared/jsonrpc.ts";

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
 * left out filled from its `default`, when that default is a value the field
 * may hold (its type; one of its choices, if it offers some): a default that
 * does not fit is the server's slip, not the user's answer. Any other answer
 * unchanged.
 *
 * @example A user who accepts and types nothing gets every default that fits
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const schema = { type: "object", properties: { name: { type: "string", default: "John Doe" }, age: { type: "integer", default: 1.5 } } };
 * assert.deepEqual(withDefaults(schema, { action: "accept", content: {} }), { action: "accept", content: { name: "John Doe" } });
 * assert.deepEqual(withDefaults(schema, { action: "decline" }), { action: "decline" });
 * ```
 */
export function withDefaults(requestedSchema: unknown, result: ElicitResult): ElicitResult {
  if (result.action !== "accept" || !isObject(requestedSchema)) return result;
  const properties = isObject(requestedSchema.properties) ? requestedSchema.properties : {};
  const content: JsonObject = { ...result.content };
  for (const [name, schema] of Object.entries(properties)) {
    if (!Object.hasOwn(content, name) && isObject(schema) && fits(schema, schema.default)) {
      content[name] = schema.default;
    }
  }
  return { ...result, content };
}

/** Whether `value` is one the field `schema` may hold: of its type, and among its choices if it offers some. */
function fits(schema: JsonObject, value: unknown): boolean {
  const items = isObject(schema.items) ? schema.items : {};
  const choices = [schema.enum, schema.oneOf, items.enum, items.anyOf].find(Array.isArray)
    ?.map((choice) => isObject(choice) ? choice.const : choice);
  const offered = (item: unknown) => choices === undefined || choices.includes(item);
  switch (schema.type) {
    case "string":
      return typeof value === "string" && offered(value);
    case "number":
      return typeof value === "number";
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value) &&
        value.every((item) => typeof item === "string" && offered(item));
  }
  return false;
}

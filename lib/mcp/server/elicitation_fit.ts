/**
 * What an elicitation request asks in a way a 2025-06-18 client's schema
 * does not define: 2025-11-25 added a `default` to string, number and enum
 * fields (2025-06-18 has one for a boolean only), single choices with titles
 * (`oneOf` of `const` and `title`), multiple choices (`type: "array"`), and
 * the request's `mode`. A form a client cannot read is not sent to it; the
 * server's question fails, saying so.
 *
 * @module
 */

import { isObject, type JsonObject } from "../shared/jsonrpc.ts";

/**
 * The parts of the elicitation request `params` that came with 2025-11-25,
 * each named (the field, and what it holds); none, an empty list.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const requestedSchema = {
 *   type: "object",
 *   properties: {
 *     name: { type: "string", default: "Ada" },
 *     sizes: { type: "array", items: { type: "string", enum: ["S", "M"] } },
 *     agree: { type: "boolean", default: false },
 *   },
 * };
 * assert.deepEqual(newerElicitation({ message: "?", requestedSchema }), [
 *   "name: a default",
 *   "sizes: a multiple choice",
 * ]);
 * assert.deepEqual(newerElicitation({ mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } }), ["a mode"]);
 * ```
 */
export function newerElicitation(params: JsonObject): string[] {
  const found = params.mode === undefined ? [] : ["a mode"];
  const schema = params.requestedSchema;
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  for (const [name, field] of Object.entries(properties)) {
    if (!isObject(field)) continue;
    if (field.type === "array") found.push(`${name}: a multiple choice`);
    else if (field.oneOf !== undefined) found.push(`${name}: choices with titles (oneOf)`);
    else if (field.default !== undefined && field.type !== "boolean") {
      found.push(`${name}: a default`);
    }
  }
  return found;
}

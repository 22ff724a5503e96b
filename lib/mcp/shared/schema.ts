/**
 * Checking a tool's arguments against the schema its server advertised,
 * before anything is sent, with ajv, as the client does. The check by hand
 * that Unit B's changed-constraint task teaches is `transfer_problems.ts`.
 *
 * @module
 */

import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { JsonObject } from "./jsonrpc.ts";
import { linearPattern } from "./linear_pattern.ts";
import { schemaReach } from "./schema_reach.ts";

const compiled = new WeakMap<JsonObject, ValidateFunction>();

/**
 * The validator of `schema`, compiled once (the same object gives the same
 * validator) in bounded time, as {@linkcode schemaProblems} describes, and
 * throwing as it does when the schema cannot be used. Compiling takes
 * milliseconds; a client compiles the schemas it will use before any call's
 * deadline starts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const schema = { type: "object", required: ["text"] };
 * assert.equal(compileSchema(schema), compileSchema(schema));
 * assert.equal(compileSchema(schema)({ text: "hi" }), true);
 * ```
 */
export function compileSchema(schema: JsonObject): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    schemaReach(schema);
    const options = {
      allErrors: true,
      strict: false,
      logger: false,
      // A property is the arguments' own: `toString` or `constructor` inherited from Object's
      // prototype is not one that was sent, and must not be checked as if it were.
      ownProperties: true,
      code: { regExp: linearPattern },
    } as const;
    const is2020 = String(schema.$schema ?? "").includes("2020-12");
    validate = (is2020 ? new Ajv2020(options) : new Ajv(options)).compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/**
 * The problems ajv finds with `args` under `schema`, one readable line each
 * (`/tubs must be integer`); `[]` when the arguments are valid. Schemas that
 * declare the 2020-12 dialect are read as such, all others as draft-07, the
 * dialect most MCP servers advertise. Each schema is compiled once, on its
 * own, so two servers that reuse an `$id` do not collide.
 *
 * The schema is a server's, so it is checked before it is used: its time to
 * check a value must be bounded. Its patterns run on RE2 ({@linkcode linearPattern}),
 * in time linear in the text, and its references must not make one value
 * meet more than 10,000 schema nodes ({@linkcode schemaReach}). Throws
 * `SyntaxError` for a pattern RE2 cannot run or a reference it does not
 * follow, `RangeError` for a schema past those bounds, and `Error` for an
 * invalid schema.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const schema = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
 * assert.deepEqual(schemaProblems(schema, { text: "one two" }), []);
 * assert.deepEqual(schemaProblems(schema, { text: 5 }), ["/text must be string"]);
 * const hostile = { properties: { text: { pattern: "^(a+)+$" } } };
 * assert.equal(schemaProblems(hostile, { text: "a".repeat(40) + "!" }).length, 1);
 * ```
 */
export function schemaProblems(schema: JsonObject, args: unknown): string[] {
  const validate = compileSchema(schema);
  if (validate(args)) return [];
  return (validate.errors ?? []).map((error) => {
    const where = error.instancePath || "arguments";
    const extra = error.keyword === "additionalProperties"
      ? ` (${(error.params as { additionalProperty: string }).additionalProperty})`
      : "";
    return `${where} ${error.message}${extra}`;
  });
}

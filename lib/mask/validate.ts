/**
 * The independent check of what the mask lets through: ajv with
 * ajv-formats (full mode), as a client would validate arguments.
 *
 * @module
 */

import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS: its default export is the function itself
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

let ajv: Ajv | undefined;
const validators = new WeakMap<object, ValidateFunction>();

/**
 * The problems ajv finds with `value` under `schema` (none: `[]`).
 * Unknown keywords are ignored, as in ajv's non-strict mode, and so is a
 * `$schema` naming another draft's meta-schema. Throws `TypeError` for a
 * schema ajv cannot compile (a property name that is not well-formed UTF-16).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const schema = { type: "object", properties: { day: { type: "string", format: "date" } } };
 * assert.deepEqual(schemaProblems(schema, { day: "2024-02-29" }), []);
 * assert.deepEqual(schemaProblems(schema, { day: "2023-02-29" }), ['/day must match format "date"']);
 * ```
 */
export function schemaProblems(schema: unknown, value: unknown): string[] {
  if (typeof schema === "boolean") {
    return schema ? [] : ["no value is valid under the schema false"];
  }
  if (typeof schema !== "object" || schema === null) {
    throw new TypeError("A schema is an object or a boolean");
  }
  // a $schema naming another draft is only read (not checked against it), and ajv prints nothing
  ajv ??= addFormats(
    new Ajv({ strict: false, allErrors: true, validateSchema: false, logger: false }),
  );
  let validate = validators.get(schema);
  if (validate === undefined) {
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      // ajv's own failure (a name it cannot put in a URI, a $ref it cannot find): said plainly
      throw new TypeError(`ajv cannot compile the schema: ${(error as Error).message}`);
    }
    validators.set(schema, validate);
  }
  if ((schema as { $async?: unknown }).$async === true) {
    throw new TypeError("An asynchronous schema ($async) cannot be checked here");
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`.trim());
}

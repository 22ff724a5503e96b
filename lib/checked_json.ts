/**
 * JSON files the course writes and reads, each checked with ajv against its
 * JSON Schema in `schemas/`, so that a malformed one is never saved and never
 * trusted.
 *
 * @module
 */

import { Ajv, type ValidateFunction } from "ajv";

const SCHEMAS = new URL("../schemas/", import.meta.url);
const compiled = new Map<string, ValidateFunction>();

/**
 * The problems ajv finds with `value` under the schema file `schema` (a name
 * in `schemas/`, such as `lab-02-results.schema.json`), one line each;
 * `[]` when it is valid. Throws `Deno.errors.NotFound` for a schema that is
 * not there.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const results = { tools_discovered: 4, calls_made: 4, calls_failed: 0 };
 * assert.deepEqual(await documentProblems(results, "lab-02-results.schema.json"), [
 *   "the document must have required property 'transcript_path'",
 * ]);
 * ```
 */
export async function documentProblems(value: unknown, schema: string): Promise<string[]> {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    const text = await Deno.readTextFile(new URL(schema, SCHEMAS));
    validate = new Ajv({ allErrors: true, strict: true }).compile(JSON.parse(text));
    compiled.set(schema, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) =>
    `${error.instancePath || "the document"} ${error.message}`
  );
}

/**
 * Write `value` to `path` as indented JSON, only if it matches the schema
 * file `schema`; otherwise throw `TypeError` naming the file, the schema and
 * every problem, and write nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const path = await Deno.makeTempFile({ suffix: ".json" });
 * const bad = { tools_discovered: 4, calls_made: "4", calls_failed: 0, transcript_path: "t.txt" };
 * await assert.rejects(writeCheckedJson(path, bad, "lab-02-results.schema.json"), TypeError);
 * assert.equal(await Deno.readTextFile(path), "");
 * await Deno.remove(path);
 * ```
 */
export async function writeCheckedJson(
  path: string | URL,
  value: unknown,
  schema: string,
): Promise<void> {
  const problems = await documentProblems(value, schema);
  if (problems.length > 0) {
    throw new TypeError(
      `Not saving ${name(path)}: it does not match ${schema}: ${problems.join("; ")}`,
    );
  }
  await Deno.writeTextFile(path, JSON.stringify(value, null, 2) + "\n");
}

/**
 * Read the JSON file `path` and return its value, only if it matches the
 * schema file `schema`. Throws `SyntaxError` when it is not JSON, and
 * `TypeError` naming every problem when it does not match.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const path = await Deno.makeTempFile({ suffix: ".json" });
 * const results = { tools_discovered: 4, calls_made: 4, calls_failed: 0, transcript_path: "t.txt" };
 * await writeCheckedJson(path, results, "lab-02-results.schema.json");
 * assert.deepEqual(await readCheckedJson(path, "lab-02-results.schema.json"), results);
 * await Deno.remove(path);
 * ```
 */
export async function readCheckedJson(path: string | URL, schema: string): Promise<unknown> {
  const text = await Deno.readTextFile(path);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SyntaxError(`${name(path)} is not JSON`);
  }
  const problems = await documentProblems(value, schema);
  if (problems.length > 0) {
    throw new TypeError(`${name(path)} does not match ${schema}: ${problems.join("; ")}`);
  }
  return value;
}

function name(path: string | URL): string {
  return path instanceof URL ? path.pathname : path;
}

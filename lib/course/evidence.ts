/**
 * Saved evidence (handoffs, submissions, and Lab 02's results and manifest): checked against its JSON Schema
 * in `schemas/` with ajv whenever it is written or read, so a malformed file
 * is never saved and never trusted.
 *
 * @module
 */

import { Ajv, type ValidateFunction } from "ajv";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isObject, type JsonObject } from "../mcp/shared/jsonrpc.ts";
import { schemaProblems } from "../mcp/shared/schema.ts";

/** The kinds of evidence, each with a schema `schemas/NAME.schema.json`. */
export type EvidenceKind =
  | "ch14-a-handoff"
  | "ch14-b-submission"
  | "lab-01-submission"
  | "lab-02-results"
  | "lab-02-manifest"
  | "lab-03-submission"
  | "ch15-submission"
  | "lab-04-submission";

/** Evidence that is missing, not JSON, or does not match its schema. */
export class EvidenceError extends Error {
  /** Make the error. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "EvidenceError";
  }
}

const schemas = new Map<EvidenceKind, JsonObject>();

/**
 * The JSON Schema for `kind`, read once from `schemas/`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal((await evidenceSchema("lab-02-results")).title, "Lab 02 results");
 * ```
 */
export async function evidenceSchema(kind: EvidenceKind): Promise<JsonObject> {
  let schema = schemas.get(kind);
  if (schema === undefined) {
    const url = new URL(`../../schemas/${kind}.schema.json`, import.meta.url);
    schema = JSON.parse(await Deno.readTextFile(url)) as JsonObject;
    schemas.set(kind, schema);
  }
  return schema;
}

/**
 * The problems with `value` as evidence of `kind`; `[]` when it matches.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.notDeepEqual(await evidenceProblems("ch14-a-handoff", { unit: "ch14-a" }), []);
 * ```
 */
export async function evidenceProblems(kind: EvidenceKind, value: unknown): Promise<string[]> {
  // schemaProblems names the checked value "arguments", as a tool call's are: here it is the evidence.
  return schemaProblems(await evidenceSchema(kind), value)
    .map((problem) => problem.replace(/^arguments /, `the ${kind} `));
}

const failFast = new Map<EvidenceKind, ValidateFunction>();

/**
 * The first problem with `value` as evidence of `kind`, as
 * {@linkcode evidenceProblems} words it; undefined when it matches. The
 * check stops there, so its time and memory are linear in the value's size
 * whatever it holds: for a file a learner hands in, where naming every
 * problem is not (3 MB of rows each missing their two fields are two million
 * problems, and naming them took 770 MB and 2.6 s of the grader's own
 * process).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const rows = { unit: "ch14-b", frames: Array(100_000).fill({}) };
 * const first = await firstEvidenceProblem("ch14-b-submission", rows);
 * assert.equal(first, "the ch14-b-submission must have required property 'edition'");
 * ```
 */
export async function firstEvidenceProblem(
  kind: EvidenceKind,
  value: unknown,
): Promise<string | undefined> {
  let validate = failFast.get(kind);
  if (validate === undefined) {
    // The course's own schemas (draft-07, patterns it wrote), checked as schemaProblems does.
    const ajv = new Ajv({ allErrors: false, strict: false, logger: false, ownProperties: true });
    validate = ajv.compile(await evidenceSchema(kind));
    failFast.set(kind, validate);
  }
  if (validate(value)) return undefined;
  const [error] = validate.errors!;
  return `${error.instancePath || `the ${kind}`} ${error.message}`;
}

/**
 * Check `value` against the schema of `kind`, then write it to `path` as
 * JSON with sorted keys, creating its folder. Throws `EvidenceError` naming
 * every problem, and writes nothing, when it does not match.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * await assert.rejects(saveEvidence("/tmp/never-written.json", { unit: "ch14-a" }, "ch14-a-handoff"));
 * ```
 */
export async function saveEvidence(
  path: string | URL,
  value: unknown,
  kind: EvidenceKind,
): Promise<void> {
  const problems = await evidenceProblems(kind, value);
  if (problems.length > 0) {
    throw new EvidenceError(
      `Not saved: this ${kind} does not match its schema: ${problems.join("; ")}`,
    );
  }
  const file = path instanceof URL ? path : pathToFileURL(resolve(path));
  await Deno.mkdir(new URL("./", file), { recursive: true });
  await Deno.writeTextFile(file, JSON.stringify(sortKeys(value), null, 2) + "\n");
}

/**
 * Read evidence of `kind` from `path`. Throws `EvidenceError` when the file is
 * missing, is not JSON, or does not match its schema, saying which.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const path = await Deno.makeTempFile({ suffix: ".json" });
 * const results = { tools_discovered: 4, calls_made: 4, calls_failed: 0, transcript_path: "t.txt" };
 * await saveEvidence(path, results, "lab-02-results");
 * assert.deepEqual(await loadEvidence(path, "lab-02-results"), results);
 * await Deno.remove(path);
 * ```
 */
export async function loadEvidence(path: string | URL, kind: EvidenceKind): Promise<JsonObject> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    throw new EvidenceError(`Cannot read the ${kind} at ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new EvidenceError(`The ${kind} at ${path} is not JSON`);
  }
  const problems = await evidenceProblems(kind, value);
  if (problems.length > 0 || !isObject(value)) {
    throw new EvidenceError(
      `The ${kind} at ${path} does not match its schema: ${problems.join("; ")}`,
    );
  }
  return value;
}

/** `value` with the keys of every object in it sorted, as the evidence files store them. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value).sort().map((key) => [key, sortKeys(value[key])]),
  );
}

/**
 * What a schema says about which properties an object has, when that is all
 * it says: `required`, `dependencies` (the list form), properties that may not
 * appear (`false`, `{"not": {}}`), and `anyOf`, `oneOf`, `allOf` and `not`
 * over such schemas. The object grammar tracks presence to enforce it.
 *
 * @module
 */

/** A test on the set of properties an object has. */
export type PresenceTest = (present: ReadonlySet<string>) => boolean;

/** Keywords that say nothing about an instance (definitions only define). */
export const ANNOTATIONS = new Set([
  "$defs",
  "definitions",
  "$anchor",
  "description",
  "title",
  "$comment",
  "$schema",
  "$id",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

const PRESENCE_KEYWORDS = new Set([
  "required",
  "dependencies",
  "dependentRequired",
  "properties",
  "not",
  "anyOf",
  "oneOf",
  "allOf",
  "type",
]);

/** True for a schema that allows every value: `true`, or an object with annotations only. *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(allowsAll({ description: "anything" }));
 * assert.ok(!allowsAll({ type: "string" }));
 * ```
 */
export function allowsAll(schema: unknown): boolean {
  if (schema === true) return true;
  if (!isRecord(schema)) return false;
  return Object.keys(schema).every((key) => ANNOTATIONS.has(key));
}

/** True for a schema that allows no value: `false` or `{"not": {}}`. *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(allowsNone({ not: {} }));
 * assert.ok(!allowsNone({ not: { type: "string" } }));
 * ```
 */
export function allowsNone(schema: unknown): boolean {
  return schema === false || (isRecord(schema) && allowsAll(schema.not) &&
    Object.keys(schema).every((key) => key === "not" || ANNOTATIONS.has(key)));
}

/**
 * The presence test a schema amounts to for an object, with the names it
 * reads, or `undefined` when the schema says more than presence.
 *
 * @example One of two pairs, never both
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const found = presenceTest({
 *   oneOf: [
 *     { required: ["length", "width"], not: { required: ["radius"] } },
 *     { required: ["radius"], not: { required: ["length", "width"] } },
 *   ],
 * })!;
 * assert.equal(found.test(new Set(["radius"])), true);
 * assert.equal(found.test(new Set(["radius", "length", "width"])), false);
 * assert.deepEqual([...found.names].sort(), ["length", "radius", "width"]);
 * ```
 */
export function presenceTest(
  schema: unknown,
): { test: PresenceTest; names: Set<string> } | undefined {
  const names = new Set<string>();
  const test = parse(schema, names);
  return test === undefined ? undefined : { test, names };
}

function parse(schema: unknown, names: Set<string>): PresenceTest | undefined {
  if (allowsAll(schema)) return () => true;
  if (allowsNone(schema) && !isRecord(schema)) return () => false;
  if (!isRecord(schema)) return undefined;
  const tests: PresenceTest[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key)) continue;
    if (!PRESENCE_KEYWORDS.has(key)) return undefined;
    if (key === "type" && value !== "object") return undefined;
    if (key === "required") {
      if (!isNameList(value)) return undefined;
      value.forEach((name) => names.add(name));
      tests.push((present) => value.every((name) => present.has(name)));
    }
    if (key === "dependencies" || key === "dependentRequired") {
      if (!isRecord(value)) return undefined;
      for (const [name, needs] of Object.entries(value)) {
        if (!isNameList(needs)) return undefined;
        names.add(name);
        needs.forEach((need) => names.add(need));
        tests.push((present) => !present.has(name) || needs.every((need) => present.has(need)));
      }
    }
    if (key === "properties") {
      if (!isRecord(value)) return undefined;
      for (const [name, property] of Object.entries(value)) {
        if (allowsAll(property)) continue;
        if (!allowsNone(property)) return undefined;
        names.add(name);
        tests.push((present) => !present.has(name));
      }
    }
    if (key === "not") {
      const inner = parse(value, names);
      if (inner === undefined) return undefined;
      tests.push((present) => !inner(present));
    }
    if (key === "anyOf" || key === "oneOf" || key === "allOf") {
      if (!Array.isArray(value)) return undefined;
      const branches = value.map((branch) => parse(branch, names));
      if (branches.some((branch) => branch === undefined)) return undefined;
      const all = branches as PresenceTest[];
      if (key === "anyOf") tests.push((present) => all.some((branch) => branch(present)));
      if (key === "allOf") tests.push((present) => all.every((branch) => branch(present)));
      if (key === "oneOf") {
        tests.push((present) => all.filter((branch) => branch(present)).length === 1);
      }
    }
  }
  return (present) => tests.every((test) => test(present));
}

/** True for a plain object (not an array, not null). *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(isRecord({}));
 * assert.ok(!isRecord([]));
 * assert.ok(!isRecord(null));
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isNameList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((name) => typeof name === "string");
}

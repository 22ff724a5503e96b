/**
 * An object's `anyOf`, `oneOf`, `not` and `dependencies`, read as formulas
 * over what the object grammar tracks (`presence.ts`): each branch is what it
 * says about the object's names and their values, exactly as JSON Schema reads
 * it. A branch's `properties` test a present name's value (an atom read from
 * that value's automaton), its `required` and `additionalProperties` the names
 * present, and what it leaves unsaid allows anything. A formula under `oneOf`
 * or `not` is negated, so each value test in it must be exact: the
 * automaton must refuse exactly the values the schema refuses. Only tests the
 * compiler can vouch for are let in there (scalars, and objects that only
 * test names and scalars); otherwise the keyword is refused.
 *
 * @module
 */

import { UnsupportedSchemaError } from "./errors.ts";
import { allowsAll, allowsNone, and, FALSE, type Formula, isRecord, not, or } from "./presence.ts";
import { exact } from "./exact_tests.ts";
import type { Frame, Reached } from "./schema_frame.ts";
import { typesOf } from "./_schema_parts.ts";

/** What reading an object's branches needs from the object around them. */
export interface BranchContext {
  /** The object's frame. */
  frame: Frame;
  /** True when names outside the frame may be written in this object. */
  others: boolean;
  /** Schemas with their `$ref`s followed and `allOf` spread; unsupported keywords refused. */
  flatten(entries: Reached[], path: string): Reached[];
  /** The schemas the object itself gives `name`'s value (none: the value is free). */
  valueOf(name: string): Reached[];
}

/** An object's tests: a formula, and branch lists only automata can read (intersected with it). */
export interface ObjectTests {
  formula: Formula;
  /** Each an `anyOf` (or a `oneOf` of disjoint branches) not all of whose branches are formulas. */
  unions: Reached[][];
}

/**
 * The tests of an object under `entries` (flattened): their `dependencies`,
 * `anyOf`, `oneOf` and `not`. Throws `UnsupportedSchemaError` naming the
 * keyword where one cannot be read exactly.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SchemaRoot } from "./schema_frame.ts";
 *
 * const schema = { oneOf: [{ required: ["a"] }, { required: ["b"] }] };
 * const root = new SchemaRoot(schema);
 * const entries = [{ schema, refs: [] }];
 * const context = {
 *   frame: root.frame(entries),
 *   others: false,
 *   flatten: (list: { schema: unknown; refs: readonly string[] }[]) => list,
 *   valueOf: () => [],
 * };
 * const { formula } = objectTests(entries, context, "#");
 * assert.equal(formula.kind, "one");
 * ```
 */
export function objectTests(entries: Reached[], context: BranchContext, path: string): ObjectTests {
  const parts: Formula[] = [];
  const unions: Reached[][] = [];
  const required = new Set(
    entries.flatMap(({ schema }) =>
      isRecord(schema) && Array.isArray(schema.required) ? schema.required : []
    ),
  );
  for (const { schema, refs } of entries) {
    if (!isRecord(schema)) continue;
    const at = (keyword: string) => `${path}/${keyword}`;
    if ("dependencies" in schema) {
      parts.push(dependencies(schema.dependencies, refs, context, at("dependencies")));
    }
    for (const keyword of ["anyOf", "oneOf"] as const) {
      if (!(keyword in schema)) continue;
      const value = schema[keyword];
      if (!Array.isArray(value) || value.length === 0) {
        throw new UnsupportedSchemaError(keyword, `${at(keyword)}: not a list of schemas`);
      }
      const branches = value.map((branch): Reached => ({ schema: branch, refs }));
      const formulas = branches.map((branch, index) =>
        formulaOf(branch, context, `${at(keyword)}/${index}`)
      );
      const read = formulas.every((formula) => formula !== undefined);
      // branches that hold for no object (another type's) leave at most one: nothing to negate
      const live = formulas.filter((formula) => formula?.kind !== "false");
      if (keyword === "anyOf" || live.length <= 1 || disjoint(value, required)) {
        if (read) parts.push(or(formulas as Formula[]));
        else unions.push(branches);
      } else if (read && (formulas as Formula[]).every((formula) => exact(formula, context))) {
        parts.push({ kind: "one", parts: formulas as Formula[] });
      } else {
        throw new UnsupportedSchemaError(
          "oneOf",
          `${at("oneOf")}: branches that may overlap, on values the mask cannot test exactly`,
        );
      }
    }
    if ("not" in schema) {
      const formula = formulaOf({ schema: schema.not, refs }, context, at("not"));
      if (formula === undefined || !exact(formula, context)) {
        throw new UnsupportedSchemaError(
          "not",
          `${at("not")}: not a test the mask can negate exactly`,
        );
      }
      parts.push(not(formula));
    }
  }
  return { formula: and(parts), unions };
}

/** A branch as a formula over the object's atoms, or `undefined` when it says more than one can. */
function formulaOf(branch: Reached, context: BranchContext, path: string): Formula | undefined {
  const parts: Formula[] = [];
  for (const { schema, refs } of context.flatten([branch], path)) {
    if (schema === false) return FALSE;
    if (!isRecord(schema) || allowsAll(schema)) continue;
    if (!typesOf(schema).has("object")) return FALSE;
    if ("enum" in schema || "const" in schema) {
      // a branch whose every value is not an object holds for no object
      const values = "const" in schema ? [schema.const] : schema.enum;
      return Array.isArray(values) && !values.some(isRecord) ? FALSE : undefined;
    }
    const declared = isRecord(schema.properties) ? schema.properties : {};
    for (const [name, value] of Object.entries(declared)) {
      if (allowsAll(value)) continue;
      const present: Formula = { kind: "present", name };
      parts.push(
        allowsNone(value)
          ? not(present)
          : or([not(present), { kind: "sat", name, schema: { schema: value, refs } }]),
      );
    }
    if (Array.isArray(schema.required)) {
      parts.push(
        and(names(schema.required, `${path}/required`).map((name) => ({ kind: "present", name }))),
      );
    }
    const others = schema.additionalProperties;
    if (others !== undefined && others !== true) {
      if (others !== false && context.others) return undefined;
      for (const name of context.frame.names) {
        if (Object.hasOwn(declared, name)) continue;
        const present: Formula = { kind: "present", name };
        parts.push(
          allowsNone(others)
            ? not(present)
            : or([not(present), { kind: "sat", name, schema: { schema: others, refs } }]),
        );
      }
      if (others === false && context.others) parts.push(not({ kind: "other" }));
    }
    if ("dependencies" in schema) {
      parts.push(dependencies(schema.dependencies, refs, context, `${path}/dependencies`));
    }
    for (const keyword of ["anyOf", "oneOf"] as const) {
      if (!Array.isArray(schema[keyword])) continue;
      const inner = (schema[keyword] as unknown[]).map((item, index) =>
        formulaOf({ schema: item, refs }, context, `${path}/${keyword}/${index}`)
      );
      if (inner.some((formula) => formula === undefined)) return undefined;
      parts.push(
        keyword === "anyOf" ? or(inner as Formula[]) : { kind: "one", parts: inner as Formula[] },
      );
    }
    if ("not" in schema) {
      const inner = formulaOf({ schema: schema.not, refs }, context, `${path}/not`);
      if (inner === undefined) return undefined;
      parts.push(not(inner));
    }
  }
  return and(parts);
}

/** `dependencies`: a name present needs others present (a list), or its object to pass a schema. */
function dependencies(
  value: unknown,
  refs: readonly string[],
  context: BranchContext,
  path: string,
): Formula {
  if (!isRecord(value)) throw new UnsupportedSchemaError("dependencies", `${path}: not an object`);
  return and(
    Object.entries(value).map(([name, needs]) => {
      const absent = not({ kind: "present", name });
      if (Array.isArray(needs)) {
        return or([
          absent,
          and(names(needs, path).map((need) => ({ kind: "present", name: need }))),
        ]);
      }
      const formula = formulaOf({ schema: needs, refs }, context, `${path}/${name}`);
      if (formula === undefined) {
        throw new UnsupportedSchemaError(
          "dependencies",
          `${path}/${name}: a schema the mask cannot read as a test`,
        );
      }
      return or([absent, formula]);
    }),
  );
}

function names(list: unknown[], path: string): string[] {
  if (!list.every((name) => typeof name === "string")) {
    throw new UnsupportedSchemaError("required", `${path}: not a list of names`);
  }
  return list as string[];
}

/**
 * True when no object can match two of these branches: each requires one
 * same property (or the object itself does: `requiredHere`) and gives it
 * a `const` or `enum` of strings, no string in two branches' lists.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const branches = [
 *   { properties: { shape: { const: "circle" } } },
 *   { properties: { shape: { enum: ["square", "rectangle"] } } },
 * ];
 * assert.ok(disjoint(branches, new Set(["shape"])));
 * assert.ok(!disjoint(branches, new Set()));
 * ```
 */
export function disjoint(branches: unknown[], requiredHere: Set<unknown>): boolean {
  const first = branches[0];
  if (!isRecord(first) || !isRecord(first.properties)) return false;
  return Object.keys(first.properties).some((name) => {
    const seen = new Set<unknown>();
    return branches.every((branch) => {
      if (!isRecord(branch) || !isRecord(branch.properties)) return false;
      const needed = Array.isArray(branch.required) && branch.required.includes(name);
      if (!needed && !requiredHere.has(name)) return false;
      const property = branch.properties[name];
      if (!isRecord(property)) return false;
      const values = "const" in property ? [property.const] : property.enum;
      if (!Array.isArray(values) || values.some((v) => seen.has(v) || typeof v !== "string")) {
        return false;
      }
      values.forEach((v) => seen.add(v));
      return true;
    });
  });
}

/**
 * What a schema says about which properties an object has, as a formula the
 * object grammar can track while it writes the object: which names are
 * present, whether a present name's value satisfies a schema (each such test
 * an atom, read from the value's own automaton), whether any name the schema
 * does not declare is present. `required`, `dependencies`, properties that may
 * not appear and the branches of `anyOf`, `oneOf` and `not` become formulas
 * (`object_branches.ts`); the object grammar tracks their atoms.
 *
 * @module
 */

import type { Reached } from "./schema_frame.ts";

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

/** A formula over an object's atoms. */
export type Formula =
  | { kind: "true" }
  | { kind: "false" }
  | { kind: "present"; name: string }
  | { kind: "sat"; name: string; schema: Reached }
  | { kind: "other" }
  | { kind: "and" | "or" | "one"; parts: Formula[] }
  | { kind: "not"; part: Formula };

/** The formula that always holds, and the one that never does. */
const TRUE: Formula = { kind: "true" };
export const FALSE: Formula = { kind: "false" };

/**
 * All of `parts` (constants folded); `or` and `not` alike.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const a: Formula = { kind: "present", name: "a" };
 * assert.equal(and([a, { kind: "true" }]), a);
 * assert.equal(or([a, { kind: "true" }]).kind, "true");
 * assert.equal(not(not(a)), a);
 * ```
 */
export function and(parts: Formula[]): Formula {
  const kept = parts.filter((part) => part.kind !== "true");
  if (kept.some((part) => part.kind === "false")) return FALSE;
  return kept.length === 0 ? TRUE : kept.length === 1 ? kept[0] : { kind: "and", parts: kept };
}

/** Any of `parts` (constants folded). */
export function or(parts: Formula[]): Formula {
  const kept = parts.filter((part) => part.kind !== "false");
  if (kept.some((part) => part.kind === "true")) return TRUE;
  return kept.length === 0 ? FALSE : kept.length === 1 ? kept[0] : { kind: "or", parts: kept };
}

/** Not `part`. */
export function not(part: Formula): Formula {
  if (part.kind === "true") return FALSE;
  if (part.kind === "false") return TRUE;
  return part.kind === "not" ? part.part : { kind: "not", part };
}

/**
 * The atoms a formula reads, each given a bit, and the formula's value for a
 * set of bits.
 *
 * @example Exactly one of two names
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const formula: Formula = {
 *   kind: "one",
 *   parts: [{ kind: "present", name: "radius" }, { kind: "present", name: "side" }],
 * };
 * const atoms = new Atoms(formula, () => "");
 * const radius = atoms.presentBit("radius");
 * assert.equal(atoms.holds(formula, radius), true);
 * assert.equal(atoms.holds(formula, radius | atoms.presentBit("side")), false);
 * ```
 */
export class Atoms {
  /** The names whose presence is read, in bit order. */
  readonly names: string[] = [];
  /** The value tests read, in bit order after the names: a name and a schema. */
  readonly tests: { name: string; schema: Reached; key: string }[] = [];
  /** Whether the formula reads "some other name is present". */
  readonly other: boolean;
  private readonly bits = new Map<string, number>();
  private readonly keyOf: (schema: Reached) => string;

  /** Collect the atoms of `formula`; `keyOf` names a schema (one key, one atom). */
  constructor(formula: Formula, keyOf: (schema: Reached) => string) {
    let other = false;
    const visit = (part: Formula) => {
      if (part.kind === "present") this.add(`p ${part.name}`, () => this.names.push(part.name));
      else if (part.kind === "sat") {
        const key = `s ${part.name} ${keyOf(part.schema)}`;
        this.add(key, () => this.tests.push({ name: part.name, schema: part.schema, key }));
      } else if (part.kind === "other") other = true;
      else if (part.kind === "not") visit(part.part);
      else if ("parts" in part) part.parts.forEach(visit);
    };
    visit(formula);
    this.other = other;
    this.keyOf = keyOf;
  }

  /** The number of bits: names, tests, then "other". */
  get count(): number {
    return this.names.length + this.tests.length + (this.other ? 1 : 0);
  }

  /** The bit of "`name` is present" (0 when not read). */
  presentBit(name: string): number {
    return this.bits.get(`p ${name}`) ?? 0;
  }

  /** The bits of the tests on `name`'s value, in order. */
  testBits(name: string): { bit: number; schema: Reached }[] {
    return this.tests.filter((test) => test.name === name).map((test) => ({
      bit: this.bits.get(test.key)!,
      schema: test.schema,
    }));
  }

  /** The bit of "some other name is present" (0 when not read). */
  get otherBit(): number {
    return this.other ? 1 << (this.names.length + this.tests.length) : 0;
  }

  /** The formula's value when exactly the atoms in `bits` hold. */
  holds(formula: Formula, bits: number): boolean {
    switch (formula.kind) {
      case "true":
        return true;
      case "false":
        return false;
      case "present":
        return (bits & this.presentBit(formula.name)) !== 0;
      case "sat":
        return (bits & this.bits.get(`s ${formula.name} ${this.keyOf(formula.schema)}`)!) !== 0;
      case "other":
        return (bits & this.otherBit) !== 0;
      case "not":
        return !this.holds(formula.part, bits);
      case "and":
        return formula.parts.every((part) => this.holds(part, bits));
      case "or":
        return formula.parts.some((part) => this.holds(part, bits));
      case "one":
        return formula.parts.filter((part) => this.holds(part, bits)).length === 1;
    }
  }

  private add(key: string, push: () => void): void {
    if (this.bits.has(key)) return;
    this.bits.set(key, 1 << this.bits.size);
    push();
  }
}

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

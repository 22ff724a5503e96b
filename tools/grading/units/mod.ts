/**
 * Every unit the autograder grades, by name, with the visible cases, and the
 * hidden cases added when this copy of the course holds them (the
 * instructors' does).
 *
 * @module
 */

import type { GradedCase, HiddenCase, UnitSpec } from "../spec.ts";
import { CH14_A } from "./ch14_a.ts";
import { CH14_B } from "./ch14_b.ts";
import { CH15 } from "./ch15.ts";
import { LAB_01 } from "./lab_01.ts";
import { LAB_02 } from "./lab_02.ts";
import { LAB_03 } from "./lab_03.ts";
import { LAB_04 } from "./lab_04.ts";

/** The units, by the name their submissions and notebooks carry (a Map: no inherited names). */
export const UNITS: ReadonlyMap<string, UnitSpec> = new Map(
  [CH14_A, CH14_B, LAB_01, LAB_02, LAB_03, CH15, LAB_04].map((spec) => [spec.unit, spec]),
);

/** Hidden cases by unit, then by function name. */
export type Holdouts = ReadonlyMap<string, Readonly<Record<string, readonly HiddenCase[]>>>;

const HOLDOUTS = new URL("../../../holdouts/mod.ts", import.meta.url);

/**
 * The hidden cases, or `undefined` when this copy of the course has none
 * (the learners' release). Any other failure to load them is thrown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const holdouts = await loadHoldouts();
 * assert.ok(holdouts === undefined || holdouts.has("ch14-b"));
 * ```
 */
export async function loadHoldouts(): Promise<Holdouts | undefined> {
  try {
    await Deno.stat(HOLDOUTS);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const module = await import(HOLDOUTS.href);
  return module.HOLDOUTS as Holdouts;
}

/**
 * Every case of `fn` in `spec`: its visible cases, then its hidden ones.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const spec = UNITS.get("ch14-a")!;
 * const cases = casesOf(spec, spec.functions[0], undefined);
 * assert.ok(cases.length > 0 && cases.every((c) => !c.hidden));
 * ```
 */
export function casesOf(
  spec: UnitSpec,
  fn: UnitSpec["functions"][number],
  holdouts: Holdouts | undefined,
): GradedCase[] {
  const hidden = holdouts?.get(spec.unit)?.[fn.name] ?? [];
  return [
    ...fn.cases.map((testCase) => ({ ...testCase, hidden: false })),
    ...hidden.map((testCase) => ({ ...testCase, hidden: true })),
  ];
}

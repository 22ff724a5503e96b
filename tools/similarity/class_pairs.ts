/**
 * Which learners' graded code is similar, function by function: each graded
 * function of each learner's submission (the graded cells of a notebook, or
 * a module, as the grader takes them) is fingerprinted by winnowing
 * (`winnow.ts`), less the fingerprints of the student edition's own starter
 * code for it, and every two learners who submitted the same unit are
 * compared. A pair is listed when one of their functions is at least
 * `threshold` similar; a function with fewer than `minimum` fingerprints of
 * its own is too short to say anything and is not compared.
 *
 * @module
 */

import { parseNotebook } from "../editions/notebook.ts";
import { bodyTokens } from "../grading/code_form.ts";
import type { Learner } from "../grading/collect.ts";
import { learnerModule } from "../grading/scratch.ts";
import type { UnitSpec } from "../grading/spec.ts";
import { type Fingerprint, fingerprints, similarity } from "./winnow.ts";

/** One function two learners share much of, and where. */
export interface SimilarFunction {
  unit: string;
  name: string;
  similarity: number;
  /** The lines of each learner's code (in their graded module) that hold the shared fingerprints. */
  lines: { a: [number, number][]; b: [number, number][] };
}

/** Two learners whose graded code is similar. */
export interface SimilarPair {
  a: string;
  b: string;
  /** Over all the functions both wrote. */
  similarity: number;
  /** The functions at least as similar as the threshold, most similar first. */
  functions: SimilarFunction[];
}

/** Options for {@linkcode classPairs}. */
export interface PairOptions {
  /** How similar a function must be for its pair to be listed. @default {0.65} */
  threshold?: number;
  /** The fewest fingerprints of its own a function needs to be compared. @default {4} */
  minimum?: number;
  /** Each unit's starter code, as a module, whose fingerprints are no learner's. */
  starters?: ReadonlyMap<string, string>;
}

/**
 * The pairs of `learners` whose code for some graded function of `units` is
 * similar, most similar first. `named(learner)` names a learner in the pairs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "../grading/units/mod.ts";
 *
 * const body = (name: string, v: string) => `export function authorize(${name}, catalog, allowed) {
 *   const ${v} = Object.hasOwn(catalog, ${name});
 *   if (!${v}) return false;
 *   return allowed.has(${name}) && typeof catalog[${name}] === "object";
 * }`;
 * const sources = new Map([["a", body("n", "known")], ["b", body("tool", "listed")]]);
 * const learners = [...sources.keys()].map((name) => ({ name, submissions: [{ unit: "ch14-a" }] }));
 * const pairs = classPairs(learners, UNITS, (learner, unit) => learner.name === "a" || learner.name === "b" ? sources.get(learner.name) : undefined);
 * assert.equal(pairs.length, 1);
 * assert.equal(pairs[0].functions[0].name, "authorize");
 * ```
 */
export function classPairs(
  learners: readonly Learner[],
  units: ReadonlyMap<string, UnitSpec>,
  sourceOf: (learner: Learner, unit: string) => string | undefined,
  options: PairOptions = {},
): SimilarPair[] {
  const threshold = options.threshold ?? 0.65;
  const minimum = options.minimum ?? 4;
  // Each learner's fingerprints, by unit and function.
  const prints = learners.map((learner) => {
    const byFunction = new Map<string, Fingerprint[]>();
    for (const { unit } of learner.submissions) {
      const spec = units.get(unit);
      const source = sourceOf(learner, unit);
      if (spec === undefined || source === undefined) continue;
      const starter = options.starters?.get(unit);
      for (const fn of spec.functions) {
        const body = bodyTokens(source, fn.name);
        if (body === undefined) continue;
        const given = new Set(
          starter === undefined
            ? []
            : fingerprints(bodyTokens(starter, fn.name) ?? []).map((f) => f.hash),
        );
        const own = fingerprints(body).filter((f) => !given.has(f.hash));
        if (new Set(own.map((f) => f.hash)).size >= minimum) {
          byFunction.set(`${unit}\n${fn.name}`, own);
        }
      }
    }
    return byFunction;
  });
  const pairs: SimilarPair[] = [];
  for (let i = 0; i < learners.length; i++) {
    for (let j = i + 1; j < learners.length; j++) {
      const functions: SimilarFunction[] = [];
      const all: [Fingerprint[], Fingerprint[]] = [[], []];
      for (const [key, a] of prints[i]) {
        const b = prints[j].get(key);
        if (b === undefined) continue;
        all[0].push(...a);
        all[1].push(...b);
        const score = similarity(a, b);
        if (score < threshold) continue;
        const [unit, name] = key.split("\n");
        const shared = new Set(
          a.map((f) => f.hash).filter((hash) => b.some((f) => f.hash === hash)),
        );
        functions.push({
          unit,
          name,
          similarity: round(score),
          lines: { a: ranges(a, shared), b: ranges(b, shared) },
        });
      }
      if (functions.length === 0) continue;
      functions.sort((x, y) => y.similarity - x.similarity);
      pairs.push({
        a: learners[i].name,
        b: learners[j].name,
        similarity: round(similarity(...all)),
        functions,
      });
    }
  }
  return pairs.sort((x, y) => y.similarity - x.similarity);
}

/**
 * The module `learner` submitted for `unit`, as the grader takes it (a
 * notebook's graded cells, or the module itself), or undefined without code.
 *
 * @example
 * ```ts ignore
 * const source = await submittedSource(learner, UNITS.get("ch14-a")!);
 * ```
 */
export async function submittedSource(
  learner: Learner,
  spec: UnitSpec,
): Promise<string | undefined> {
  const code = learner.submissions.find((submission) => submission.unit === spec.unit)?.code;
  if (code === undefined) return undefined;
  const text = await Deno.readTextFile(code.path);
  return code.kind === "notebook" ? learnerModule(parseNotebook(text, code.path), spec) : text;
}

/** The lines that hold the fingerprints of `prints` in `shared`, merged where they touch. */
function ranges(prints: readonly Fingerprint[], shared: ReadonlySet<number>): [number, number][] {
  const spans = prints.filter((f) => shared.has(f.hash)).map((f) =>
    [f.from, f.to] as [number, number]
  )
    .sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of spans) {
    const last = merged.at(-1);
    if (last !== undefined && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/** `value` to two decimals. */
function round(value: number): number {
  return Math.round(value * 100) / 100;
}

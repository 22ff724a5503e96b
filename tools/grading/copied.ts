/**
 * Graded functions a learner copied from the library rather than wrote: a
 * block of the learner's code whose form (`code_form.ts`: formatting, names
 * and quotes aside) is the body of the library's own copy of a graded
 * function, readable (`lib/`) or sealed (its `.sealed.js`, all the learners'
 * release holds). The function it is the copy of scores 0, with a line
 * saying why, wherever in the learner's code the copy is (its own cell, a
 * helper it calls, a cell the learner added).
 *
 * @module
 */

import { blockForms, bodyForm } from "./code_form.ts";
import { sealedPath } from "./library_copies.ts";
import type { UnitSpec } from "./spec.ts";

const ROOT = new URL("../../", import.meta.url);

/**
 * The fewest tokens a readable copy's body must have to be judged by its
 * form: a shorter one (the allowlist's one line) says no more than the rule
 * the unit states in words, and a learner's own may well be the same. A
 * sealed copy's body is judged whatever its length: nobody writes it so.
 */
const READABLE_MIN_TOKENS = 40;

/** For each graded function of a unit, the forms of its library copies, each with what it is. */
export type CopyForms = Map<string, Map<string, string>>;

/**
 * The forms of the library copies of `spec`'s graded functions, from the
 * readable and sealed files this copy of the course holds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const forms = await copyForms(UNITS.get("ch14-a")!);
 * assert.ok([...forms.get("answerFor")!.values()].includes("answerFor, sealed"));
 * ```
 */
export async function copyForms(spec: UnitSpec): Promise<CopyForms> {
  const forms: CopyForms = new Map();
  for (const fn of spec.functions) {
    const found = new Map<string, string>();
    for (const { file, name } of fn.library ?? []) {
      for (const [path, sealed] of [[file, false], [sealedPath(file), true]] as const) {
        let text: string;
        try {
          text = await Deno.readTextFile(new URL(path, ROOT));
        } catch (error) {
          if (error instanceof Deno.errors.NotFound) continue;
          throw error;
        }
        const body = bodyForm(text, name);
        if (body === undefined) continue;
        if (!sealed && body.split(" ").length < READABLE_MIN_TOKENS) continue;
        found.set(body, `${name}, ${sealed ? "sealed" : "readable"}`);
      }
    }
    if (found.size > 0) forms.set(fn.name, found);
  }
  return forms;
}

/**
 * For each graded function whose library copy is in `source` (the learner's
 * module) by form, what was found (`"answerFor, sealed"`); functions with
 * none are left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blockForms } from "./code_form.ts";
 *
 * const body = "{ return [a, a + 1, a * 2, 'x', 'y']; }";
 * const forms = new Map([["twice", new Map([[[...blockForms(body)][0], "twice, sealed"]])]]);
 * const source = "function mine(q) {\n  return [q, q + 1, q * 2, \"x\", \"y\"];\n}\n";
 * assert.deepEqual(copiedFunctions(source, forms), { twice: ["twice, sealed"] });
 * assert.deepEqual(copiedFunctions("function mine(q) { return q; }", forms), {});
 * ```
 */
export function copiedFunctions(source: string, forms: CopyForms): Record<string, string[]> {
  const blocks = blockForms(source);
  const copied: Record<string, string[]> = {};
  for (const [fn, copies] of forms) {
    const found = [...copies].filter(([body]) => blocks.has(body)).map(([, what]) => what);
    if (found.length > 0) copied[fn] = [...new Set(found)];
  }
  return copied;
}

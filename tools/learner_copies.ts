/**
 * The learner's own copies of the student editions, in `work/` (ignored by
 * git): the handouts in `notebooks/` are never edited, so `git pull` can
 * always bring a fixed handout, and a starter can always be had again.
 *
 * @module
 */

import { fileURLToPath } from "node:url";

/** The course folder. */
const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** What happened to one learner's copy. */
export interface CopyResult {
  /** The unit, such as `ch14-b`. */
  unit: string;
  /** The learner's copy, relative to the course folder. */
  copy: string;
  /** `made`: a fresh starter; `kept`: the learner's copy was already there. */
  action: "made" | "kept" | "replaced";
  /** Where an earlier copy was moved when replaced, relative to the course folder. */
  movedTo?: string;
}

/** Options for {@linkcode learnerCopies}. */
export interface LearnerCopiesOptions {
  /** The course folder. @default {the folder above tools/} */
  root?: string;
  /** Units to give a fresh starter, moving the learner's copy aside first. @default {[]} */
  fresh?: readonly string[];
  /** The time that names a moved copy. @default {new Date()} */
  now?: Date;
}

/**
 * Make `work/UNIT.ipynb` from `notebooks/UNIT.ipynb` for every unit that has
 * no copy yet; for the units in `fresh`, first move the learner's copy to
 * `work/UNIT.before-TIME.ipynb`, so nothing is ever lost. Throws `Error`
 * naming the unit when `fresh` names a unit with no student edition.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.mkdir(`${root}/notebooks`);
 * await Deno.writeTextFile(`${root}/notebooks/ch14-a.ipynb`, "{}");
 * assert.equal((await learnerCopies({ root }))[0].action, "made");
 * assert.equal((await learnerCopies({ root }))[0].action, "kept");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function learnerCopies(options: LearnerCopiesOptions = {}): Promise<CopyResult[]> {
  const root = (options.root ?? ROOT).replace(/\/?$/, "/");
  const units: string[] = [];
  for await (const entry of Deno.readDir(`${root}notebooks`)) {
    if (entry.isFile && entry.name.endsWith(".ipynb")) units.push(entry.name.slice(0, -6));
  }
  units.sort();
  const fresh = options.fresh ?? [];
  const unknown = fresh.filter((unit) => !units.includes(unit));
  if (unknown.length > 0) {
    throw new Error(
      `No student edition for ${unknown.join(", ")}: the units are ${units.join(", ")}`,
    );
  }
  await Deno.mkdir(`${root}work`, { recursive: true });
  const results: CopyResult[] = [];
  for (const unit of units) {
    const copy = `work/${unit}.ipynb`;
    const exists = await Deno.stat(`${root}${copy}`).then(() => true, () => false);
    let movedTo: string | undefined;
    if (exists && fresh.includes(unit)) {
      const time = (options.now ?? new Date()).toISOString().slice(0, 19).replaceAll(":", "-");
      movedTo = `work/${unit}.before-${time}.ipynb`;
      await Deno.rename(`${root}${copy}`, `${root}${movedTo}`);
    } else if (exists) {
      results.push({ unit, copy, action: "kept" });
      continue;
    }
    await Deno.copyFile(`${root}notebooks/${unit}.ipynb`, `${root}${copy}`);
    results.push({ unit, copy, action: movedTo ? "replaced" : "made", movedTo });
  }
  return results;
}

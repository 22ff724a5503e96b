/**
 * The learner's own copies of the student editions, in `work/` (ignored by
 * git): the handouts in `notebooks/` are never edited, so `git pull` can
 * always bring a fixed handout, and a starter can always be had again.
 *
 * @module
 */

import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** The course folder. */
const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** What happened to one learner's copy. */
export interface CopyResult {
  /** The unit, such as `ch14-b`. */
  unit: string;
  /** The learner's copy, relative to the course folder. */
  copy: string;
  /**
   * `made`: a fresh starter; `kept`: the learner's copy was already there
   * (`work/UNIT.ipynb`, or a notebook of the unit in `work/` they renamed);
   * `replaced`: moved aside for a fresh starter; `renamed`: a copy of a unit
   * the course has since renumbered, moved aside (see {@linkcode RENUMBERED}).
   */
  action: "made" | "kept" | "replaced" | "renamed";
  /** Where an earlier copy was moved, relative to the course folder. */
  movedTo?: string;
  /** What the learner should know about a move, in a sentence. */
  note?: string;
}

/**
 * Units the course has renumbered: a learner's copy of the unit that used
 * the old name (told apart by a cell only it has) is moved aside, never
 * overwritten, and so is what it saved, since a new unit now has that name.
 */
export const RENUMBERED: readonly { from: string; to: string; title: string; cell: string }[] = [
  { from: "lab-03", to: "lab-04", title: "Phase 33 lab", cell: "route-reply" },
];

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
 * no copy yet (a notebook of the unit the learner renamed in `work/` is
 * theirs); for the units in `fresh`, first move the learner's copy to
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
  const time = (options.now ?? new Date()).toISOString().slice(0, 19).replaceAll(":", "-");
  const results: CopyResult[] = await movedAsideRenumbered(root, time);
  let elsewhere: Map<string, string> | undefined;
  for (const unit of units) {
    const copy = `work/${unit}.ipynb`;
    const exists = await Deno.stat(`${root}${copy}`).then(() => true, () => false);
    let movedTo: string | undefined;
    let note: string | undefined;
    if (exists && fresh.includes(unit)) {
      movedTo = `work/${unit}.before-${time}.ipynb`;
      await Deno.rename(`${root}${copy}`, `${root}${movedTo}`);
    } else if (exists) {
      results.push({ unit, copy, action: "kept" });
      continue;
    } else if (!fresh.includes(unit)) {
      // A copy the learner renamed is still theirs: a starter beside it would be taken for it.
      elsewhere ??= await copiesElsewhere(root);
      const theirs = elsewhere.get(unit);
      if (theirs !== undefined && dirname(theirs) === "work") {
        results.push({
          unit,
          copy: theirs,
          action: "kept",
          note:
            `Your copy of ${unit}: ${theirs} (a name of your own: no starter is made beside it)`,
        });
        continue;
      }
      // One moved into a sub-folder cannot run there: a starter is made, saying where it went.
      if (theirs !== undefined) {
        note = `Your copy of ${unit}: ${copy}, a fresh starter; ${theirs} is also ${unit}'s, ` +
          "in a sub-folder of work/, where it cannot find the course's library: if your work " +
          "is there, drag it back into work/ in place of the starter";
      }
    }
    await Deno.copyFile(`${root}notebooks/${unit}.ipynb`, `${root}${copy}`);
    const made: CopyResult = { unit, copy, action: movedTo ? "replaced" : "made", movedTo };
    results.push(note === undefined ? made : { ...made, note });
  }
  return results;
}

/**
 * The learner's copies of each unit in `root`'s `work/` under another name
 * than the unit's, by the unit their metadata names: first those in `work/`
 * itself (renamed), then those in a sub-folder of it (moved there, where a
 * notebook cannot find the course's library), the first by name where two
 * are one unit's. Not a copy a fresh starter moved aside
 * (`UNIT.before-TIME.ipynb`), nor what a handout or a worked edition saved
 * when run (`work/handouts/`, `work/worked/`).
 */
async function copiesElsewhere(root: string): Promise<Map<string, string>> {
  const paths: string[] = [];
  const folders: string[] = [];
  const notebook = (name: string) => /^[^.].*\.ipynb$/.test(name) && !/\.before-/.test(name);
  for await (const entry of Deno.readDir(`${root}work`)) {
    if (entry.isFile && notebook(entry.name)) paths.push(`work/${entry.name}`);
    const course = ["handouts", "worked"].includes(entry.name) || entry.name.startsWith(".");
    if (entry.isDirectory && !course) folders.push(entry.name);
  }
  paths.sort();
  for (const folder of folders.sort()) {
    const inside: string[] = [];
    for await (const entry of Deno.readDir(`${root}work/${folder}`)) {
      if (entry.isFile && notebook(entry.name)) inside.push(`work/${folder}/${entry.name}`);
    }
    paths.push(...inside.sort());
  }
  const found = new Map<string, string>();
  for (const path of paths) {
    let unit: unknown;
    try {
      unit = JSON.parse(await Deno.readTextFile(`${root}${path}`))?.metadata?.course?.unit;
    } catch {
      continue; // Not a notebook: nothing to tell its unit by.
    }
    if (typeof unit === "string" && path !== `work/${unit}.ipynb` && !found.has(unit)) {
      found.set(unit, path);
    }
  }
  return found;
}

/**
 * Move aside each learner's copy in `root` of a unit the course renumbered
 * (`work/FROM.ipynb` holding the old unit's marker cell), and the folder it
 * saved to, as `work/TO.before-TIME.ipynb` and `work/TO.before-TIME/`.
 */
async function movedAsideRenumbered(root: string, time: string): Promise<CopyResult[]> {
  const moved: CopyResult[] = [];
  for (const { from, to, title, cell } of RENUMBERED) {
    const copy = `work/${from}.ipynb`;
    let ids: unknown[];
    try {
      const cells = JSON.parse(await Deno.readTextFile(`${root}${copy}`))?.cells;
      ids = Array.isArray(cells) ? cells.map((c) => c?.id) : [];
    } catch {
      continue; // No copy, or not a notebook: nothing to tell it by, so it is left as it is.
    }
    if (!ids.includes(cell)) continue;
    const movedTo = `work/${to}.before-${time}.ipynb`;
    await Deno.rename(`${root}${copy}`, `${root}${movedTo}`);
    const saved = `work/${from}`;
    const folderMoved = await Deno.rename(`${root}${saved}`, `${root}work/${to}.before-${time}`)
      .then(() => true, () => false);
    moved.push({
      unit: from,
      copy,
      action: "renamed",
      movedTo,
      note: `${copy} is your copy of the ${title}, which is now ${to}: it was moved to ` +
        `${movedTo}${folderMoved ? ` (and what it saved to work/${to}.before-${time}/)` : ""}; ` +
        `copy your answers into work/${to}.ipynb, the ${title}'s new starter`,
    });
  }
  return moved;
}

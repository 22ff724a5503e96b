// A class graded as an instructor grades one: each learner's `work/`
// collected into a folder of their own. A learner whose folder holds every
// unit's honest work (the worked editions, run by the kernel, and all they
// saved) gets every mark, every claim reproduced, and the run exits 0; a
// Lab 03 or Lab 04 submission claiming passes the re-run does not reproduce
// is caught as the other units' are.

import assert from "node:assert/strict";
import { UNITS } from "../tools/grading/units/mod.ts";
import { full, grade, type Results, ROOT, tree } from "./_grading.ts";
import { run } from "./_notebooks.ts";

const UNIT_NAMES = [...UNITS.keys()];
const CLAIMS = "the submission's claims match the re-run";

/** A learner's collected `work/`: every worked edition, and what each saved when the kernel ran it. */
async function honestWork(): Promise<string> {
  const folder = await tree({});
  for (const unit of UNIT_NAMES) {
    await Deno.copyFile(`${ROOT}solutions/${unit}.ipynb`, `${folder}/${unit}.ipynb`);
    await run(`solutions/${unit}.ipynb`, folder);
  }
  return folder;
}

let made: Promise<string> | undefined;
const honest = () => made ??= honestWork();

/** A class folder holding `learners`, each a folder copied in under its name. */
async function classOf(learners: Record<string, string>): Promise<string> {
  const klass = await tree({});
  for (const [name, folder] of Object.entries(learners)) {
    await copy(folder, `${klass}/${name}`);
  }
  return klass;
}

/** Copy `from` (a file or a folder) to `to`, as `cp -r` does. */
async function copy(from: string, to: string): Promise<void> {
  const { code } = await new Deno.Command("cp", { args: ["-r", from, to] }).output();
  assert.equal(code, 0, `cp -r ${from} ${to}`);
}

const claimsCheck = (results: Results) => results.tests.find((test) => test.name === CLAIMS);

Deno.test("a class whose folder holds every unit's honest work is graded in full, and exits 0", async () => {
  const ana = await honest();
  // What the starter moved aside when the course renumbered Lab 03 as Lab 04: the old Lab 03's
  // submission, which is not the new Lab 03's, under its old name.
  const old = JSON.parse(await Deno.readTextFile(`${ana}/lab-04/lab-04-submission-v1.json`));
  const moved = await tree({
    "lab-04.before-2026-12-02T10-20-30/lab-03-submission-v1.json": JSON.stringify({
      ...old,
      unit: "lab-03",
    }),
  });
  await copy(`${moved}/.`, ana);
  // Ben hands in his copy of the course: the handouts, the library and his work/ beside them.
  const ben = await tree({});
  for (const folder of ["notebooks", "lib", "servers", "cases", "schemas"]) {
    await copy(`${ROOT}${folder}`, `${ben}/${folder}`);
  }
  await copy(ana, `${ben}/work`);
  const { code, err, list } = await grade([await classOf({ ana, ben })]);
  assert.equal(code, 0, err);
  assert.doesNotMatch(err, /^grade: (?!note: )/m, "a problem");
  assert.match(err, /note: skipped \S+\/ana\/lab-01\/lib: the course's library/);
  assert.match(err, /note: skipped \S+\/ana\/lab-04\.before-\S+: earlier work/);
  assert.match(err, /note: skipped cases, lib, schemas, servers in \S+\/ben: the course's own/);
  assert.deepEqual(
    list.map((results) => `${results.submission.split("/").at(-1)} ${results.unit}`),
    ["ana", "ben"].flatMap((name) => UNIT_NAMES.toSorted().map((unit) => `${name} ${unit}`)),
  );
  for (const results of list) {
    assert.ok(full(results), `${results.unit}: ${results.score}/${results.max_score}`);
    // Lab 02's saved files record the demo, not the graded code: it claims nothing.
    if (results.unit === "lab-02") continue;
    assert.equal(claimsCheck(results)?.status, "passed", results.unit);
    assert.ok(
      !results.tests.some((test) => test.name === "cases of the learner's own"),
      `${results.unit}: its notebook's labels are not the grader's`,
    );
  }
});

Deno.test("Lab 03 and Lab 04 submissions claiming passes the re-run does not reproduce are caught", async () => {
  const work = await honest();
  const learners: Record<string, string> = {};
  for (const unit of ["lab-03", "lab-04"]) {
    // The starter's notebook, with nothing written, beside the worked edition's claims.
    learners[unit] = await tree({
      [`${unit}.ipynb`]: await Deno.readTextFile(`${ROOT}notebooks/${unit}.ipynb`),
      [`${unit}/${unit}-submission-v1.json`]: await Deno.readTextFile(
        `${work}/${unit}/${unit}-submission-v1.json`,
      ),
    });
  }
  const { code, err, list } = await grade([await classOf(learners)]);
  assert.equal(code, 0, err);
  assert.deepEqual(list.map((results) => results.unit), ["lab-03", "lab-04"]);
  for (const results of list) {
    const check = claimsCheck(results);
    assert.equal(check?.status, "failed", results.unit);
    assert.match(check!.output, /claimed passed, re-run did not pass/);
    assert.equal(results.score, 0);
  }
});

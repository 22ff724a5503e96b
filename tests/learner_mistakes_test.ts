// What a learner meets when Unit B's handoff is chosen as a learner would
// choose it, run by the real Deno kernel through Jupyter's executor: a path
// relative to the course folder works from the notebook's folder; a missing,
// stale or INCOMPLETE handoff is named in a warning and the unit goes on from
// the supplied reference, with no error; unfinished steps say they were
// skipped; unwritten notes are saved with a warning.

import assert from "node:assert/strict";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { REFERENCE_HANDOFF } from "../lib/course/reference_handoff.ts";
import { reportLine, run, workFolder } from "./_notebooks.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const LINE = "const LEARNER_HANDOFF: string | null = null;";

/** Run a copy of Unit B's `edition` with `LEARNER_HANDOFF` set to `chosen`, in `work`. */
async function unitBChoosing(edition: "notebooks" | "solutions", chosen: string, work: string) {
  const source = await Deno.readTextFile(`${root}${edition}/ch14-b.ipynb`);
  const edited = source.replace(
    JSON.stringify(LINE),
    JSON.stringify(`const LEARNER_HANDOFF: string | null = ${JSON.stringify(chosen)};`),
  );
  assert.notEqual(edited, source, "the LEARNER_HANDOFF cell was not found");
  const copy = `${edition}/.learner-mistakes-${crypto.randomUUID()}.ipynb`;
  await Deno.writeTextFile(`${root}${copy}`, edited);
  try {
    return await run(copy, work);
  } finally {
    await Deno.remove(`${root}${copy}`);
  }
}

Deno.test("a handoff path relative to the course folder is found from the notebook's folder", async () => {
  const work = await workFolder();
  await run("solutions/ch14-a.ipynb", work);
  // Relative to the course folder, not to notebooks/ where the kernel runs.
  const chosen = relative(root, `${work}/ch14-a/ch14-unit-a-handoff-v1.json`);
  const { text, notebook } = await unitBChoosing("solutions", chosen, work);
  assert.match(text, /Starting evidence: LEARNER_SELECTED/);
  assert.match(text, /UNIT_A_HANDOFF VERIFIED/);
  assert.ok(!text.includes("⚠"), text);
  assert.equal(errors(notebook).length, 0);
});

Deno.test("an INCOMPLETE handoff is named, and Unit B goes on from the reference without an error", async () => {
  const work = await workFolder();
  await run("notebooks/ch14-a.ipynb", work); // the starter saves an INCOMPLETE handoff
  const { text, notebook } = await unitBChoosing(
    "solutions",
    `${work}/ch14-a/ch14-unit-a-handoff-v1.json`,
    work,
  );
  assert.match(text, /⚠ Your handoff ".*" was not used: it says INCOMPLETE/);
  assert.match(text, /Starting evidence: SUPPLIED_REFERENCE/);
  assert.deepEqual(errors(notebook), [], "no cell ends in an error");
  assert.equal(reportLine(text, "COURSE_REPORT").starting_evidence, "SUPPLIED_REFERENCE");
  assert.deepEqual(reportLine(text, "HOLDOUT_RESULT"), { status: "PASSED", unit: "ch14-b" });
});

Deno.test("a missing handoff is named, and a file an earlier run left is never read", async () => {
  const work = await workFolder();
  // An earlier run's course input, allowing more than the reference does.
  const stale = { ...REFERENCE_HANDOFF, allowed: ["place_purchase", "word_count"] };
  await Deno.mkdir(`${work}/ch14-b`, { recursive: true });
  await Deno.writeTextFile(`${work}/ch14-b/ch14-unit-a-handoff-v1.json`, JSON.stringify(stale));
  const { text, notebook } = await unitBChoosing(
    "notebooks",
    "work/ch14-a/no-such-handoff.json",
    work,
  );
  assert.match(
    text,
    /⚠ Your handoff "work\/ch14-a\/no-such-handoff.json" was not used: Cannot read/,
  );
  assert.match(text, /UNIT_A_HANDOFF VERIFIED \| allowed \[ "word_count" \]/);
  assert.deepEqual(errors(notebook), []);
  const saved = JSON.parse(await Deno.readTextFile(`${work}/ch14-b/ch14-b-submission-v1.json`));
  assert.equal(saved.starting_evidence, "SUPPLIED_REFERENCE");
});

Deno.test("the student editions say which steps they skipped and warn of unwritten notes", async () => {
  const a = await run("notebooks/ch14-a.ipynb");
  assert.equal((a.text.match(/↷ The [a-z -]+ waits for answerFor/g) ?? []).length, 3);
  assert.match(a.text, /⚠ Saved as INCOMPLETE/);
  const b = await run("notebooks/ch14-b.ipynb");
  assert.match(b.text, /↷ The failure-mode table waits for splitFrames \(5 of 7 cases pass/);
  assert.match(
    b.text,
    /↷ This step waits for splitFrames .* and transferProblems \(not written yet/,
  );
  assert.match(
    b.text,
    /⚠ Saved with notes not written yet: prediction\.prediction, prediction\.reason, .*explanation\.remaining_limit/,
  );
  for (const { notebook } of [a, b]) {
    assert.deepEqual(errors(notebook), []);
    assert.deepEqual(values(notebook), [], "no cell shows a stray value (Out[n])");
  }
});

Deno.test("the worked editions show no stray value and no warning", async () => {
  for (const path of ["solutions/ch14-a.ipynb", "solutions/ch14-b.ipynb"]) {
    const { text, notebook } = await run(path);
    assert.deepEqual(values(notebook), [], `${path}: no cell shows a stray value (Out[n])`);
    assert.ok(!/[⚠↷]/.test(text), `${path} warns or skips:\n${text}`);
  }
});

type Cells = { cells: { id: string; outputs?: unknown[] }[] };

/** The ids of cells with an error output. */
function errors(notebook: Cells): string[] {
  return notebook.cells.filter((cell) =>
    (cell.outputs ?? []).some((output) =>
      (output as { output_type: string }).output_type === "error"
    )
  ).map((cell) => cell.id);
}

/** The ids of cells that show a value (`execute_result`, the notebook's Out[n]). */
function values(notebook: Cells): string[] {
  return notebook.cells.filter((cell) =>
    (cell.outputs ?? []).some((output) =>
      (output as { output_type: string }).output_type === "execute_result"
    )
  ).map((cell) => cell.id);
}

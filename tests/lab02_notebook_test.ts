// Lab 02, run by the real Deno kernel through Jupyter's executor: the worked
// edition passes its holdouts and saves the transcript of the canonical flow
// with schema-valid results and manifest; the student edition runs to its end,
// reports its two unwritten parts as unfinished, and saves nothing.

import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { evidenceProblems } from "../lib/evidence.ts";
import { buildManifest } from "../lib/manifest.ts";
import { roundTrips } from "../lib/round_trips.ts";
import { pictures, reportLine, run } from "./_notebooks.ts";

/** Every file and folder under `folder`, as paths relative to it, sorted. */
async function contents(folder: string, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(folder)) {
    found.push(`${prefix}${entry.name}${entry.isDirectory ? "/" : ""}`);
    if (entry.isDirectory) {
      found.push(...await contents(`${folder}/${entry.name}`, `${prefix}${entry.name}/`));
    }
  }
  return found.sort();
}

/** The status column of a grade table the notebook printed as text. */
function statuses(table: string): string[] {
  return table.split("\n").map((line) => line.trim().split(/\s+/).at(-1)!)
    .filter((word) => ["PASS", "FAIL", "UNFINISHED"].includes(word));
}

Deno.test("the worked Lab 02 passes its holdouts and saves a complete transcript, results and manifest", async () => {
  const { text, outputs, work, notebook } = await run("solutions/lab-02.ipynb");
  assert.equal(pictures(notebook.cells), 1, "the transcript as a sequence diagram");
  assert.deepEqual(reportLine(text, "HOLDOUT_RESULT"), { status: "PASSED", unit: "lab-02" });
  assert.match(text, /INSTRUCTOR_CHECKS PASSED/);
  assert.match(text, /LAB_02 DONE/);
  assert.deepEqual(statuses(outputs.get("correlate-cases")!), Array(6).fill("PASS"));
  assert.deepEqual(statuses(outputs.get("unwrap-cases")!), Array(6).fill("PASS"));
  assert.match(outputs.get("demo")!, /conjugate -> ate\n/);
  assert.match(outputs.get("demo")!, /lookup_spanish -> comió\n/);
  assert.match(outputs.get("demo")!, /\[server\] grammar: input ended, exiting/);

  const lab = `${work}/lab-02`;
  assert.deepEqual(await contents(work), [
    "lab-02/",
    "lab-02/manifest.json",
    "lab-02/results.json",
    "lab-02/transcript.txt",
  ]);

  const transcript = await Deno.readTextFile(`${lab}/transcript.txt`);
  assert.deepEqual(roundTrips(transcript).map(({ method, reply }) => [method, reply]), [
    ["initialize", "result"],
    ["notifications/initialized", undefined],
    ["tools/list", "result"],
    ...Array.from({ length: 4 }, () => ["tools/call", "result"]),
  ]);
  const called = transcript.split("\n")
    .filter((line) => line.startsWith("> ") && line.includes('"method":"tools/call"'))
    .map((line) => JSON.parse(line.slice(2)).params.name);
  assert.deepEqual(called, [
    "conjugate",
    "lookup_spanish",
    "lookup_irregular_verb",
    "check_subject_verb_agreement",
  ]);

  const results = JSON.parse(await Deno.readTextFile(`${lab}/results.json`));
  assert.deepEqual(await evidenceProblems("lab-02-results", results), []);
  assert.deepEqual(results, {
    tools_discovered: 4,
    calls_made: 4,
    calls_failed: 0,
    transcript_path: "transcript.txt",
  });

  const manifest = JSON.parse(await Deno.readTextFile(`${lab}/manifest.json`));
  assert.deepEqual(await evidenceProblems("lab-02-manifest", manifest), []);
  assert.equal(manifest.lab, "lab-02");
  const now = await buildManifest(pathToFileURL(`${lab}/`), ["transcript.txt", "results.json"], {
    lab: "lab-02",
  });
  assert.deepEqual(manifest.files, now.files, "the manifest's sizes and digests are the files'");
});

Deno.test("the student Lab 02 runs to its end, reports its parts unfinished, and saves nothing", async () => {
  const { text, outputs, work } = await run("notebooks/lab-02.ipynb");
  assert.ok(!text.includes("HOLDOUT_RESULT"));
  assert.ok(!text.includes("INSTRUCTOR_CHECKS"));
  assert.deepEqual(statuses(outputs.get("correlate-cases")!), Array(6).fill("UNFINISHED"));
  assert.deepEqual(statuses(outputs.get("unwrap-cases")!), Array(6).fill("UNFINISHED"));
  assert.match(text, /CORRELATE NEEDS_WORK/);
  assert.match(text, /UNWRAP NEEDS_WORK/);
  assert.match(outputs.get("demo")!, /^Skipped: make correlate and unwrap pass/);
  assert.match(text, /TRANSCRIPT NOT WRITTEN/);
  assert.match(text, /NOT YET correlate and unwrap pass their grade tables/);
  assert.match(text, /MET {5}no server this notebook started is still running/);
  assert.match(text, /LAB_02 NOT DONE YET/);
  assert.match(outputs.get("results-refused")!, /was malformed\.json written\? false/);
  assert.deepEqual(await contents(work), ["lab-02/"], "the student edition saved something");
});

// Round 6 of issue 38's red team: a batch neighbour whose notebook is huge.
// The grader read every learner's notebook (and any JSON in their folder)
// whole, in its own process, and parsed it before any budget or sandbox:
// 300 MB of `{},` (about 100 million objects) in one learner's notebook took
// `deno task grade` past its 4 GB heap after 326 s, and it ended (exit 133)
// with nobody's results written. Here the same, scaled down: the grader with
// a heap of 256 MB beside a 40 MB notebook. Run:
//   deno test -A tests/attacks_round6/huge_notebook_test.ts

import assert from "node:assert/strict";
import { ROOT, tree, UNIT_A } from "../_grading.ts";

/** A notebook of `megabytes` MB, nearly all of it empty objects. */
async function objectBomb(path: string, megabytes: number): Promise<void> {
  const file = await Deno.open(path, { write: true, create: true });
  const head =
    `{"nbformat":4,"nbformat_minor":5,"metadata":{"course":{"unit":"ch14-a"}},"cells":[],"x":[{}`;
  await file.write(new TextEncoder().encode(head));
  const chunk = new TextEncoder().encode(",{}".repeat(1 << 20));
  for (let written = 0; written < megabytes << 20; written += chunk.length) await file.write(chunk);
  await file.write(new TextEncoder().encode("]}"));
  file.close();
}

Deno.test("a classmate's huge notebook stops no one: the class is graded and its results written", async () => {
  const folder = await tree({ "b-honest/ch14-a.ts": UNIT_A, "c-data/ch14-a.ts": UNIT_A });
  await Deno.mkdir(`${folder}/a-huge`);
  await objectBomb(`${folder}/a-huge/ch14-a.ipynb`, 40);
  // Any JSON in a learner's folder was read and parsed too, a course file or not.
  await objectBomb(`${folder}/c-data/notes.json`, 40);
  // And Lab 02's saved results, which the grader reads and checks after the learner's cases.
  await Deno.mkdir(`${folder}/d-lab02/work/lab-02`, { recursive: true });
  await objectBomb(`${folder}/d-lab02/work/lab-02/results.json`, 40);
  const json = `${folder}/results.json`;
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--v8-flags=--max-old-space-size=256",
      "tools/grade.ts",
      folder,
      "--json",
      json,
    ],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  const said = new TextDecoder().decode(stderr);
  assert.equal(code, 2, said.slice(-400));
  const results = JSON.parse(await Deno.readTextFile(json));
  for (const name of ["b-honest", "c-data"]) {
    const mine = results.find((r: { submission: string }) => r.submission.endsWith(`/${name}`));
    assert.ok(
      mine !== undefined && mine.score === mine.max_score,
      `${name}: ${JSON.stringify(mine?.score)}`,
    );
  }
  assert.match(said, /a-huge\/ch14-a\.ipynb.*past the 16 MB/);
  assert.match(said, /c-data\/notes\.json.*past the 16 MB/);
  assert.match(said, /d-lab02\/work\/lab-02\/results\.json.*past the 16 MB/);
});

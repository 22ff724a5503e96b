// Round 9 of issue 38's red team: hostile classmates in one class run of
// `deno task grade`, as an instructor runs it over a folder of learners'
// folders. Each test names what a hostile learner tried, what it got before
// its defence, and asserts what the defence gives: an honest classmate's
// marks as alone, nothing unearned for the hostile one, the class's results
// written, the machine left as it was. Attempts that still succeed are in
// OPEN, skipped unless ROUND9_OPEN=1. Run:
//   deno test -A tests/attacks_round9/classmates_test.ts

import assert from "node:assert/strict";
import { full, grade, ROOT, tree, UNIT_A, unitBPasses } from "../_grading.ts";

/** Unit B's saved submission, honest in its shape, with `observed` of its first transfer row as given. */
async function unitBWith(observed: string): Promise<string> {
  return JSON.stringify(await unitBPasses()).replace(
    /"observed":\{[^}]*\}/,
    `"observed":${observed}`,
  );
}

Deno.test("submission JSONs that the schema lets swell in memory leave the class graded and its results written", async () => {
  // Before: each learner's parsed submission was kept for the whole run, and Unit B's
  // transfer rows take any JSON as `observed`: 15.6 MB of `{},` held 355 MB of the grader's
  // heap, so twelve such learners passed its default 4.4 GB and ended the run with nobody's
  // results written. Here the grader's heap is made small, so that two show what twelve do.
  const swollen = await unitBWith(`[${"{},".repeat(3_400_000)}{}]`);
  const folder = await tree({
    "a-swollen/ch14-b-submission-v1.json": swollen,
    "b-swollen/ch14-b-submission-v1.json": swollen,
    "c-honest/ch14-a.ts": UNIT_A,
  });
  const json = `${folder}.json`;
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "grade", folder, "--json", json],
    cwd: ROOT,
    env: { DENO_V8_FLAGS: "--max-old-space-size=400" },
    stdout: "null",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(stderr);
  assert.equal(code, 2, err.slice(-2000));
  const list = [JSON.parse(await Deno.readTextFile(json))].flat();
  const honest = list.find((r: { submission: string }) => r.submission.endsWith("/c-honest"));
  assert.ok(honest !== undefined && full(honest), JSON.stringify(honest?.score));
  for (const name of ["a-swollen", "b-swollen"]) {
    assert.match(err, new RegExp(`${name}/ch14-b-submission-v1\\.json: is \\d+ MB, past the`));
  }
  await Deno.remove(json);
});

Deno.test("a folder named as the grader writes a classmate's name that is not UTF-8 is told apart from it", async () => {
  // Before: the grader writes the bytes of a name that are not UTF-8 as `\xHH`, and a
  // classmate's folder named with those very characters was reported under the same name:
  // two results for "caf\xe9", one of 0, and no telling whose is whose.
  const folder = await tree({
    "caf\\xe9/ch14-a.ts": "export function authorize() { return true; }",
  });
  const latin1 = [...new TextEncoder().encode(`${folder}/caf`), 0xe9];
  await new Deno.Command("python3", {
    args: [
      "-c",
      "import os,sys; p=bytes.fromhex(sys.argv[1]); os.makedirs(p); open(p+b'/ch14-a.ts','w').write(sys.argv[2])",
      latin1.map((b) => b.toString(16).padStart(2, "0")).join(""),
      UNIT_A,
    ],
  }).output();
  const { list } = await grade([folder]);
  const names = list.map((r) => r.submission.slice(folder.length + 1));
  assert.equal(new Set(names).size, 2, JSON.stringify(names));
  const honest = list.find((r) => r.submission === `${folder}/caf\\xe9`);
  assert.ok(
    honest !== undefined && full(honest),
    JSON.stringify(list.map((r) => [r.submission, r.score])),
  );
});

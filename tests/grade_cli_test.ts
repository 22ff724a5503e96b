// `deno task grade` as an instructor uses it: full marks for the worked
// editions, the honest low score of the student editions as shipped, one-line
// errors with exit status 2 for input it cannot grade, a learner's runaway code
// costing only that learner's checks, and claims in a JSON file earning nothing.

import assert from "node:assert/strict";
import { casesOf, loadHoldouts, UNITS } from "../tools/grading/units/mod.ts";
import {
  assertPlatformTest,
  grade as run,
  type Results,
  ROOT as root,
  tree as folder,
} from "./_grading.ts";

const grade = (...args: string[]) => run(args);
/** A folder that exists, for paths in it that do not. */
const scratch = await folder({});

const byUnit = (list: Results[], unit: string) => list.find((r) => r.unit === unit)!;

Deno.test("the worked editions get full marks", async () => {
  const { code, list } = await grade(`${root}solutions`);
  assert.equal(code, 0);
  assert.deepEqual(list.map((r) => r.unit), [
    "ch14-a",
    "ch14-b",
    "ch15",
    "lab-01",
    "lab-02",
    "lab-03",
    "lab-04",
  ]);
  for (const unit of ["ch14-a", "ch14-b", "ch15", "lab-01", "lab-02", "lab-03", "lab-04"]) {
    const results = byUnit(list, unit);
    assert.ok(results.max_score > 10);
    assert.equal(
      results.score,
      results.max_score,
      JSON.stringify(results.tests.filter((t) => t.score === 0)),
    );
  }
});

Deno.test("the student editions as shipped get the starters' honest low score", async () => {
  const { code, list } = await grade(`${root}notebooks`);
  assert.equal(code, 0);
  assert.equal(byUnit(list, "ch14-a").score, 0);
  assert.equal(byUnit(list, "lab-01").score, 0);
  assert.equal(byUnit(list, "lab-02").score, 0);
  assert.equal(byUnit(list, "lab-03").score, 0);
  const b = byUnit(list, "ch14-b");
  // The splitFrames starter splits correctly and checks nothing: the cases without a limit to
  // enforce pass (five visible, and eight hidden, a CR kept in its frame and a frame that is not
  // UTF-8 among them: a hidden case that a limit is the other side of earns nothing without it),
  // and the six hidden cases of the watermark's twins' inputs (frames within the limit).
  assert.equal(b.score, 19);
  assert.ok(
    b.tests.filter((t) => t.name.startsWith("transferProblems")).every((t) => t.score === 0),
  );
  assert.ok(b.tests.some((t) => t.output === "not written yet"));
});

Deno.test("the results are in the format autograding platforms read", async () => {
  const { list } = await grade(`${root}notebooks/ch14-b.ipynb`);
  const [results] = list;
  assert.equal(typeof results.score, "number");
  for (const test of results.tests) {
    assertPlatformTest(test);
    assert.ok(["passed", "failed"].includes(test.status));
  }
  const hidden = results.tests.filter((t) => t.name.includes("hidden case"));
  const unit = UNITS.get("ch14-b")!;
  const holdouts = await loadHoldouts();
  const spec = unit.functions.flatMap((fn) => casesOf(unit, fn, holdouts).filter((c) => c.hidden));
  assert.equal(hidden.length, spec.length);
  assert.ok(
    hidden.every((t) => t.output === "passed" || t.output === "failed"),
    "a hidden case says more",
  );
});

const submission = async () =>
  JSON.parse(await Deno.readTextFile(`${root}tests/grading/ch14-b-student-submission.json`));

const BAD_INPUT: [string, () => Promise<string>, RegExp][] = [
  [
    "a missing file",
    () => Promise.resolve(`${scratch}/no-such-file.json`),
    /no such file or folder/,
  ],
  [
    "a file that is not JSON",
    () => folder({ "s.json": "{not json" }).then((f) => `${f}/s.json`),
    /is not JSON/,
  ],
  [
    "a schema violation",
    async () =>
      folder({ "s.json": JSON.stringify({ ...await submission(), planned_minutes: "ninety" }) })
        .then((f) => `${f}/s.json`),
    /does not match the ch14-b-submission schema: \/planned_minutes must be equal to constant/,
  ],
  [
    "an unknown unit",
    () => folder({ "s.json": JSON.stringify({ unit: "ch99-z" }) }).then((f) => `${f}/s.json`),
    /names unit "ch99-z", which the grader does not know/,
  ],
  [
    "a notebook that is not JSON",
    () => folder({ "ch14-b.ipynb": "<html>" }).then((f) => `${f}/ch14-b.ipynb`),
    /is not JSON/,
  ],
  [
    "a module of no known unit",
    () => folder({ "m.ts": "export const x = 1;" }).then((f) => `${f}/m.ts`),
    /pass --unit/,
  ],
];

for (const [label, make, message] of BAD_INPUT) {
  Deno.test(`the grader reports ${label} in one line, with exit status 2`, async () => {
    const { code, err } = await grade(await make());
    assert.equal(code, 2);
    const lines = err.trim().split("\n");
    assert.equal(lines.length, 1, err);
    assert.match(lines[0], /^grade: /);
    assert.match(lines[0], message);
    assert.doesNotMatch(err, /\n\s+at /, "a stack trace");
  });
}

Deno.test("the grader refuses an unknown --unit, and a run with no path", async () => {
  const bad = await grade(`${root}notebooks/ch14-b.ipynb`, "--unit", "ch99");
  assert.equal(bad.code, 2);
  assert.match(bad.err, /^grade: --unit: unknown unit ch99/);
  const none = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "grade"],
    cwd: root,
    stderr: "piped",
  }).output();
  assert.equal(none.code, 2);
});

Deno.test("the grader answers --help with its usage, names an unknown option, and a --json it cannot write", async () => {
  // A new learner's `deno task grade --help` was refused with Node's advice to write
  // `-- "--help"`, which the grader then took for a file that does not exist.
  const task = (...args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "grade", ...args],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
  const help = await task("--help");
  assert.equal(help.code, 0);
  assert.match(new TextDecoder().decode(help.stdout), /^usage: deno task grade PATH\.\.\./);
  const unknown = await task("--verbose", `${root}notebooks/ch14-b.ipynb`);
  assert.equal(unknown.code, 2);
  const said = new TextDecoder().decode(unknown.stderr);
  assert.match(said, /^grade: unknown option --verbose\nusage: deno task grade PATH/);
  assert.doesNotMatch(said, /-- "--verbose"/);
  // A results file in no folder, or a folder, was found only once every learner was graded, and
  // then as Deno's uncaught NotFound with its stack.
  const unwritable = [[`${scratch}/none/r.json`, /no folder/], [scratch, /is a folder/]] as const;
  for (const [json, why] of unwritable) {
    const refused = await task(`${root}notebooks/ch14-b.ipynb`, "--json", json);
    assert.equal(refused.code, 2);
    assert.match(new TextDecoder().decode(refused.stderr), why);
    assert.equal(new TextDecoder().decode(refused.stdout), "", "graded before refusing");
  }
});

Deno.test("what a handout saved when run, in work/handouts/, is not a second submission", async () => {
  // A handout run where it is saves under work/handouts/ (lib/course/course.ts), where it once
  // saved over the learner's own work/UNIT/; the learner's work/ then holds two of the unit's JSON.
  const claims = JSON.stringify(await submission());
  const dir = await folder({
    "work/ch14-b.ipynb": await Deno.readTextFile(`${root}notebooks/ch14-b.ipynb`),
    "work/ch14-b/ch14-b-submission-v1.json": claims,
    "work/handouts/ch14-b/ch14-b-submission-v1.json": claims,
  });
  const { code, err, list } = await grade(`${dir}/work`);
  assert.equal(code, 0, err);
  assert.deepEqual(list.map((results) => results.unit), ["ch14-b"]);
  assert.match(err, /skipped .*\/work\/handouts: what a handout .* saved when run/);
});

Deno.test("a handout graded where it is is named as a handout, with the learner's copy", async () => {
  // A new learner who wrote in notebooks/ch14-b.ipynb and checked it with `deno task grade` got
  // its marks without a word that nobody grades a handout, nor where their own copy is.
  const { code, err } = await grade(`${root}notebooks/ch14-b.ipynb`);
  assert.equal(code, 0, err);
  assert.match(
    err,
    /^grade: note: .*notebooks\/ch14-b\.ipynb is the course's handout, which nobody grades: your own copy is work\/ch14-b\.ipynb/m,
  );
});

Deno.test("a bad input does not stop the others from being graded", async () => {
  const { code, list } = await grade(`${scratch}/missing.json`, `${root}solutions/ch14-a.ipynb`);
  assert.equal(code, 2);
  assert.equal(list.length, 1);
  assert.equal(list[0].score, list[0].max_score);
});

const RUNAWAY = `
export function splitFrames(buffer: Uint8Array, limit: number) {
  if (limit === 64) while (true) { /* never returns */ }
  Deno.readTextFileSync("/etc/hostname");
  return [[], buffer];
}
export function transferProblems() {
  for (let i = 0; i < 1e5; i++) console.log("flooding the output ".repeat(10));
  Deno.exit(0);
}
`;

Deno.test("runaway learner code costs that learner its checks, and the next learner is graded", async () => {
  const klass = await folder({
    "a-runaway/ch14-b.ts": RUNAWAY,
    "b-worked/ch14-b.ipynb": await Deno.readTextFile(`${root}solutions/ch14-b.ipynb`),
  });
  const { code, list } = await grade(klass);
  assert.equal(code, 0);
  assert.deepEqual(list.map((r) => r.submission.split("/").at(-1)), ["a-runaway", "b-worked"]);
  assert.equal(list[0].score, 0);
  assert.match(list[0].tests[0].output, /used more than 1 s of CPU time/);
  assert.equal(list[1].score, list[1].max_score);
});

Deno.test("a JSON file alone earns nothing, however good its claims", async () => {
  const claims = await submission();
  for (const row of claims.frames) row.status = "PASS";
  for (const row of claims.transfer) row.passed = true;
  const dir = await folder({ "ch14-b-submission-v1.json": JSON.stringify(claims) });
  const { code, list } = await grade(dir);
  assert.equal(code, 0);
  assert.equal(list[0].score, 0);
  assert.match(list[0].output, /No code came with this submission/);
});

Deno.test("claims the re-run contradicts score nothing for that function", async () => {
  const claims = await submission();
  for (const row of claims.frames) row.status = "PASS";
  const dir = await folder({
    "ch14-b.ipynb": await Deno.readTextFile(`${root}notebooks/ch14-b.ipynb`),
    "ch14-b-submission-v1.json": JSON.stringify(claims),
  });
  const { list } = await grade(dir);
  const [results] = list;
  const claimsCheck = results.tests.find((t) =>
    t.name === "the submission's claims match the re-run"
  )!;
  assert.equal(claimsCheck.status, "failed");
  assert.match(
    claimsCheck.output,
    /splitFrames: "a complete frame beyond the limit" claimed passed, re-run did not pass/,
  );
  assert.ok(
    results.tests.filter((t) => t.name.startsWith("splitFrames")).every((t) => t.score === 0),
  );
  assert.equal(results.score, 0);
});

Deno.test("honest claims beside the learner's notebook match the re-run", async () => {
  const dir = await folder({
    "ch14-b.ipynb": await Deno.readTextFile(`${root}notebooks/ch14-b.ipynb`),
    "ch14-b-submission-v1.json": JSON.stringify(await submission()),
  });
  const [results] = (await grade(dir)).list;
  assert.equal(results.tests.find((t) => t.max_score === 0)!.status, "passed");
  assert.equal(results.score, 19); // the starter's, as above
  assert.match(results.output, /marked for human review/);
});

// Issue 40, item 8: a line of `deno task grade` says what was expected and what came in words a
// learner reads at once: a string in its quotes, and an error expected as an error.
const WRONG_LAB_03 = `
export function prefixStatus(schema, text) { return "live"; }
export function decode(schema, tokens, model, maxTokens) { return { text: "x", tokens: [1] }; }
export function nextMove(outcome) { throw new TypeError("outcome.kind is not readable"); }
`;

Deno.test("the grader's lines quote strings, and say when a case expected an error", async () => {
  const dir = await folder({ "lab-03.ts": WRONG_LAB_03 });
  const { out } = await grade(`${dir}/lab-03.ts`, "--unit", "lab-03");
  assert.match(out, /✗ a value no enum member starts with: expected "dead", observed "live"\n/);
  assert.match(
    out,
    /✗ no complete call within the budget: expected it to throw RangeError; it returned \{"text":"x","tokens":\[1\]\}\n/,
  );
  assert.match(
    out,
    /✗ a result: done: expected \{"action":"done"\}; it threw TypeError \(outcome\.kind is not readable\)\n/,
  );
  assert.doesNotMatch(out, /observed returned:|expected nothing/);
});

// Round 11 of issue 38's red team, second part: more hostile classmates in
// one class run of `deno task grade`, after the first part's defences
// (tests/attacks_round11/classmates_test.ts). Each test names what a hostile
// learner tried, what it got before its defence, and asserts what the
// defence gives: an honest classmate's marks as alone, nothing unearned for
// the hostile one, the class's results written, the machine left as it was.
// Both attempts that succeeded are fixed. Not tried here: notebooks whose
// outputs or metadata are huge or lie, code that ends just short of the
// learner's wall budget or spends it in the analysis.
// Run:
//   deno test -A tests/attacks_round11/classmates_more_test.ts

import assert from "node:assert/strict";
import { full, grade, python, ROOT, tree, UNIT_A, UNIT_A_MARKS as A } from "../_grading.ts";
import type { Results } from "../_grading.ts";

/** Run the grader over `args` with `prefix` before it (a program that sets its limits); its exit code, stderr and results. */
async function gradeUnder(prefix: string[], args: string[]) {
  const json = `${await Deno.makeTempDir({ prefix: "round11-" })}/results.json`;
  const [program, ...rest] = [...prefix, Deno.execPath(), "task", "-q", "grade", ...args];
  const { code, stderr } = await new Deno.Command(program, {
    args: [...rest, "--json", json],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  const results = await Deno.readTextFile(json).then(JSON.parse).catch(() => []);
  await Deno.remove(json.slice(0, -"/results.json".length), { recursive: true });
  return { code, err: new TextDecoder().decode(stderr), list: [results].flat() as Results[] };
}

Deno.test("a folder whose name is not UTF-8 costs the grader no copy of what it holds", async () => {
  // Before: such a folder, which Deno cannot open by name, was copied whole (`cp -r`) to a
  // folder of the grader's before any cap applied, where a folder named in UTF-8 is only
  // walked and at most 64 MB of its course files read: 8 GB of a video (here sparse: the
  // grader's files are limited to 1 GB, so that the copy shows), a million files or a file
  // hard-linked a thousand times cost the class run as much time and disk, or all of it.
  // Here the copy was cut short where the limit stopped `cp`, which `find` did not report: the
  // learner was left out with no problem said. And what the report said of the files in it
  // named them in the grader's copy, which was gone when the run ended.
  const folder = await tree({ "b-honest/ch14-a.ts": UNIT_A });
  await python(
    "import os, sys\n" +
      "p = os.path.join(sys.argv[1].encode(), b'caf\\xe9')\n" +
      "os.makedirs(p + b'/videos')\n" +
      `open(p + b'/ch14-a.ts', 'w').write(${JSON.stringify(UNIT_A)})\n` +
      "with open(p + b'/videos/lecture.mp4', 'wb') as f: f.truncate(8 << 30)\n" +
      "os.mkfifo(p + b'/videos/pipe')\n" +
      "open(p + b'/notes.ipynb', 'w').write('not a notebook')\n",
    folder,
  );
  const { err, list } = await gradeUnder(["prlimit", `--fsize=${1 << 30}`, "--"], [folder]);
  const scores = Object.fromEntries(
    list.map((r) => [r.submission.slice(folder.length + 1), full(r) ? "full" : "not full"]),
  );
  assert.deepEqual(scores, { "b-honest": "full", "caf\\xe9": "full" }, err.slice(-2000));
  // What the report says of its files names them in the learner's folder, not in the grader's.
  assert.ok(err.includes(`${folder}/caf\\xe9/notes.ipynb: `), err);
});

Deno.test("a problem with the code in a folder whose name is not UTF-8 names the learner's folder", async () => {
  // Before: the problem's path named the learner's folder, but its text named the code beside it
  // by the grader's link (/tmp/grade-names-.../learner/a/ch14-a.ts), gone after the run and
  // nowhere the learner or the instructor can look.
  const folder = await tree({});
  await python(
    "import os, sys\n" +
      "p = os.path.join(sys.argv[1].encode(), b'caf\\xe9')\n" +
      "for sub in (b'/a', b'/b'):\n" +
      "    os.makedirs(p + sub)\n" +
      `    open(p + sub + b'/ch14-a.ts', 'w').write(${JSON.stringify(UNIT_A)})\n`,
    folder,
  );
  const { err } = await gradeUnder([], [folder]);
  assert.ok(
    err.includes(
      `grade: ${folder}/caf\\xe9/b/ch14-a.ts: a second piece of code for ch14-a beside ` +
        `${folder}/caf\\xe9/a/ch14-a.ts`,
    ),
    err,
  );
  assert.doesNotMatch(err, /grade-names-/);
});

Deno.test("a classmate whose cases wait on a timer is not run again alone, holding every other sandbox", async () => {
  // Before: a case that waits past the wall-clock backstop (10 s) beside other sandboxes was
  // run again alone, every other sandbox of the class held, in case a busy machine starved it.
  // Round 9's waiting classmate was stopped as not answering; one that awaits a timer answers
  // the runner all along: each of its functions waited 10 s beside others and 10 s more alone
  // (Unit A: the class held 20 s a hostile learner, 41 s for this class where 21 s would do,
  // up to the learner's 60 s with more units). A case whose threads ran or waited for a core
  // less than a quarter of its wait waited on its own, and now fails in place, as a stop: its
  // function's next cases are still tried, in a new process (a fix that left them untried, the
  // watermark's sifting probe among them, was taken back: tests/attacks_round8/
  // watermark_runs_test.ts).
  const sleeping = UNIT_A.replaceAll("export function", "export async function")
    .replace("if (message.id", "await new Promise((r) => setTimeout(r, 60000));\n  if (message.id")
    .replace(
      "return Object.hasOwn",
      "await new Promise((r) => setTimeout(r, 60000));\n  return Object.hasOwn",
    );
  const { list, err } = await grade([
    await tree({
      "a-sleeping/ch14-a.ts": sleeping,
      "b-honest/ch14-a.ts": UNIT_A,
      "c-honest/ch14-a.ts": UNIT_A,
    }),
    "--jobs",
    "2",
  ]);
  assert.equal(list.length, 3, err);
  assert.equal(list[0].score, 0);
  const outputs = list[0].tests.map((t) => t.output).join("\n");
  assert.match(outputs, /did not finish within 10 s, waiting with a core free to it/);
  assert.doesNotMatch(outputs, /, alone/);
  assert.ok(list.slice(1).every(full), JSON.stringify(list.map((r) => r.score)));
});

Deno.test("Gradescope's own files in a folder earn nothing, and the same work twice is graded twice, unflagged", async () => {
  // A regression test (it held before): a results.json, submission_metadata.json and a
  // metadata/ folder written as Gradescope writes them, claiming full marks, beside code that
  // earns none, are passed over; two folders of the same honest work both earn full marks,
  // neither taken for a copy of the other (only the similarity report pairs them).
  const claim = JSON.stringify({ score: A, tests: [{ name: "all", score: A, max_score: A }] });
  const wrong =
    "export function authorize() { return true; }\nexport function answerFor() { return 1; }\n";
  const { list } = await grade([
    await tree({
      "a-claims/ch14-a.ts": wrong,
      "a-claims/results.json": claim,
      "a-claims/results/results.json": claim,
      "a-claims/submission_metadata.json": JSON.stringify({ unit: "ch14-a", score: A }),
      "a-claims/metadata/submission_metadata.json": claim,
      "b-twice/ch14-a.ts": UNIT_A,
      "c-twice/ch14-a.ts": UNIT_A,
    }),
  ]);
  assert.deepEqual(
    list.map((r) => [r.submission.split("/").at(-1), r.score, r.max_score]),
    // 1: what the wrong code earns alone (a hidden case it happens to pass).
    [["a-claims", 1, A], ["b-twice", A, A], ["c-twice", A, A]],
    JSON.stringify(list.map((r) => [r.submission, r.score, r.max_score])),
  );
  assert.doesNotMatch(JSON.stringify(list), /cop(y|ied)/i);
});

// Round 12 of issue 38's red team: hostile classmates in one class run of
// `deno task grade`, with what rounds 9 and 11 left untried (a folder of
// very many files, links and special files where notebooks are expected,
// notebooks and submissions that lie, names that would read as a
// classmate's line in the report). Each test puts honest learners beside
// the hostile one and asserts that each honest learner earns every mark
// (as alone), that the hostile one gets a named problem and no mark its
// code does not earn, and that nothing is left running. The first two
// attempts, and names with spaces that read as the report's, succeeded and
// are fixed (each test fails before); the others held before and stay as
// regression tests (code that spends its budget in the copy check, or in
// its cases, among them).
// Run:
//   deno test -A tests/attacks_round12/classmates_test.ts

import assert from "node:assert/strict";
import {
  full,
  grade,
  python,
  ROOT,
  tree,
  UNIT_A,
  UNIT_A_MARKS as A,
  unitBPasses,
} from "../_grading.ts";
import { commandsHolding } from "../_helpers.ts";

/** Unit A that authorizes everything and answers 1: it earns 1 of Unit A's marks alone (a hidden case it happens to pass). */
const WRONG_A = "export function authorize() { return true; }\n" +
  "export function answerFor() { return 1; }\n";

/**
 * A class folder: `a-hostile` (with Unit A written wrong, 1 mark) and two
 * honest learners; `script` (Python, with `a` the hostile learner's folder)
 * adds to the hostile one's folder what Deno cannot make.
 */
async function classWith(script: string): Promise<string> {
  const folder = await tree({
    "a-hostile/ch14-a.ts": WRONG_A,
    "b-honest/ch14-a.ts": UNIT_A,
    "c-honest/ch14-a.ts": UNIT_A,
  });
  await python(
    `import os, socket, sys\na = os.path.join(sys.argv[1], 'a-hostile')\n${script}`,
    folder,
  );
  return folder;
}

/** Each learner's score, by their folder's name under `folder`. */
const scores = (list: { submission: string; score: number }[], folder: string) =>
  Object.fromEntries(list.map((r) => [r.submission.slice(folder.length + 1), r.score]));

/** The processes still running (not zombies) whose command line names `folder`. */
const runningUnder = (folder: string) =>
  commandsHolding(folder).map(({ pid, cmdline }) => `${pid} ${cmdline}`);

Deno.test("a learner's folder of 20,000 empty modules costs only that learner: a capped walk and a few problem lines", async () => {
  // Before: every learner's folder is walked whole before anyone is graded, and each empty
  // module was a problem of its own: 200,000 lines of "cannot tell which unit this module is
  // for" (the instructor's report lost in them), and the class waited 21 s where it takes 1 s.
  // Now the grader walks at most 10,000 files and folders of one learner, names the cap in a
  // problem of that learner's, and lists at most 20 problems per learner, counting the rest.
  // Here 20,000 (20,000 lines before), which passes the cap at a tenth of the test's time.
  const folder = await tree({ "b-honest/ch14-a.ts": UNIT_A, "c-honest/ch14-a.ts": UNIT_A });
  await python(
    "import os, sys\n" +
      "a = os.path.join(sys.argv[1], 'a-hostile')\n" +
      "os.makedirs(a)\n" +
      "for i in range(20000): open(f'{a}/f{i}.ts', 'w').close()\n",
    folder,
  );
  const { code, err, list } = await grade([folder]);
  assert.equal(code, 2);
  assert.deepEqual(scores(list, folder), { "b-honest": A, "c-honest": A }, err.slice(0, 2000));
  const lines = err.trim().split("\n");
  assert.ok(lines.length <= 22, `${lines.length} lines: ${err.slice(0, 2000)}`);
  assert.ok(lines.every((line) => line.includes(`${folder}/a-hostile`)), err.slice(0, 2000));
  assert.match(
    err,
    /a-hostile: holds more than 10000 files and folders: the grader read no further/,
  );
  assert.match(err, /a-hostile: \d+ more problems in this folder, not listed/);
});

Deno.test("a learner's folder of 9,000 links, hidden files and folders moved aside costs a few note lines", async () => {
  // Before: each was a note line of its own ("skipped ...: a symbolic link", "a hidden file or
  // folder", "earlier work that deno task starter moved aside"), 9,000 lines in the
  // instructor's report (within the 10,000 entries the grader walks). Now at most 20 notes are
  // listed per learner, and the rest counted in one line.
  const folder = await classWith(
    "for i in range(3000):\n" +
      "  os.symlink('/dev/zero', f'{a}/n{i}.ipynb')\n" +
      "  open(f'{a}/.h{i}', 'w').close()\n" +
      "  os.mkdir(f'{a}/ch14-a.before-{i}')\n",
  );
  const { code, err, list } = await grade([folder]);
  assert.equal(code, 0, err.slice(0, 2000));
  assert.deepEqual(
    scores(list, folder),
    { "a-hostile": 1, "b-honest": A, "c-honest": A },
    err.slice(0, 2000),
  );
  const lines = err.trim().split("\n");
  assert.ok(lines.length <= 21, `${lines.length} lines: ${err.slice(0, 2000)}`);
  assert.match(err, /grade: note: 8980 more notes on [^\n]*a-hostile, not listed/);
});

Deno.test("links, FIFOs, sockets and a folder chain past PATH_MAX where notebooks are expected are passed over: no hang, no classmate's or grader's file read", async () => {
  // Held before (a regression test): symbolic links (a loop, /dev/zero as a notebook, a
  // classmate's folder, the grader's hidden cases and its own code) are notes, a FIFO or a
  // socket named as a notebook is not a file and is never opened, and a file at the bottom of
  // 3,000 nested folders (past PATH_MAX) is not read, so the classmate's right answer copied
  // there earns the hostile learner nothing.
  const folder = await classWith(
    "os.symlink('.', f'{a}/loop')\n" +
      "os.symlink('/dev/zero', f'{a}/ch14-b.ipynb')\n" +
      "os.symlink('../b-honest', f'{a}/work')\n" +
      `os.symlink(${JSON.stringify(`${ROOT}holdouts`)}, f'{a}/holdouts')\n` +
      `os.symlink(${JSON.stringify(`${ROOT}tools/grade.ts`)}, f'{a}/grade.ts')\n` +
      "os.mkfifo(f'{a}/lab-01.ipynb')\n" +
      "os.mkfifo(f'{a}/lab-01-submission-v1.json')\n" +
      "s = socket.socket(socket.AF_UNIX); os.chdir(a); s.bind('ch15.ipynb')\n" +
      "os.mkdir('deep'); os.chdir('deep')\n" +
      "for i in range(3000): os.mkdir('d'); os.chdir('d')\n" +
      `open('ch14-a.ts', 'w').write(${JSON.stringify(UNIT_A)})\n`,
  );
  const { err, list } = await grade([folder]);
  assert.deepEqual(
    scores(list, folder),
    { "a-hostile": 1, "b-honest": A, "c-honest": A },
    err.slice(0, 2000),
  );
  for (const name of ["loop", "ch14-b.ipynb", "work", "holdouts", "grade.ts"]) {
    assert.ok(err.includes(`skipped ${folder}/a-hostile/${name}: a symbolic link`), name);
  }
  assert.deepEqual(runningUnder(folder), []);
});

Deno.test("a learner's work in a folder the grader cannot read is a problem, not a note: the instructor is told what was not graded", async () => {
  // Before: a folder past PATH_MAX (or one the grader may not read) was a note ("skipped ...:
  // it cannot be read"), and a learner whose only work sat there was left out with the run's
  // exit 0, as if they had handed in nothing.
  const folder = await tree({ "b-honest/ch14-a.ts": UNIT_A });
  await python(
    "import os, sys\n" +
      "os.chdir(sys.argv[1]); os.mkdir('a-deep'); os.chdir('a-deep')\n" +
      "for i in range(3000): os.mkdir('d'); os.chdir('d')\n" +
      `open('ch14-a.ts', 'w').write(${JSON.stringify(UNIT_A)})\n`,
    folder,
  );
  const { code, err, list } = await grade([folder]);
  assert.equal(code, 2, err.slice(0, 2000));
  assert.deepEqual(scores(list, folder), { "b-honest": A }, err.slice(0, 2000));
  assert.match(err, /a-deep\/d\/d[^\n]*: cannot be read, so what it holds is not graded/);
});

Deno.test("a notebook that lies in its metadata and outputs, and names that read as a classmate's line, earn nothing and spoof no line of the report", async () => {
  // Held before (a regression test). The notebook: wrong answers, a Python kernelspec, the
  // honest classmate's name and an instructor's edition in its metadata, nbgrader marks claimed
  // on each cell, outputs claiming full marks in the report's own form (with ANSI and HTML), 8 MB
  // of output, one cell's source a list of a million one-character strings, and a duplicate
  // `source` key whose first value is the worked answer (every JSON reader here takes the
  // last). Folder names: one with a newline and the classmate's report line after it, one
  // that would close a JSON string and claim a score. The report writes control characters as
  // escapes and the results are JSON.stringify's, so neither moves a line or a field.
  const nb = JSON.parse(await Deno.readTextFile(`${ROOT}solutions/ch14-a.ipynb`));
  nb.metadata.kernelspec = { display_name: "Python 3", language: "python", name: "python3" };
  nb.metadata.course = { ...nb.metadata.course, edition: "instructor", learner: "b-honest" };
  nb.metadata.nbgrader = { score: A, max_score: A };
  const spoof = `ch14-a  b-honest  ${A}/${A}\n  answerFor  23 of 23 passed`;
  for (const cell of nb.cells) {
    if (cell.cell_type !== "code") continue;
    cell.metadata.nbgrader = { grade: true, points: A, grade_id: cell.id, solution: false };
    cell.outputs = [
      { output_type: "stream", name: "stdout", text: [`\u001b[2K\r${spoof}\n`] },
      { output_type: "display_data", metadata: {}, data: { "text/html": `<b>${spoof}</b>` } },
    ];
  }
  const at = (id: string) => nb.cells.find((cell: { id: string }) => cell.id === id);
  at("setup").outputs.push({
    output_type: "display_data",
    metadata: {},
    data: { "text/plain": "x".repeat(8 << 20) },
  });
  const workedAnswer = at("answer-for").source;
  at("answer-for").source = [..."export function answerFor() { return 1; }\n//" + "x".repeat(1e6)];
  at("authorize").source = "export function authorize() { return true; }\n";
  const text = JSON.stringify(nb).replace(
    `"id":"answer-for",`,
    `"id":"answer-for","source":${JSON.stringify(workedAnswer)},`,
  );
  assert.ok(text.includes(`"source":${JSON.stringify(workedAnswer)}`));
  const folder = await tree({
    "a-liar/ch14-a.ipynb": text,
    "b-honest/ch14-a.ts": UNIT_A,
    "c-honest/ch14-a.ts": UNIT_A,
  });
  // A slash ends a folder's name: U+2215 (∕) reads as one.
  const newline = `a\nch14-a  ${folder.replaceAll("/", "\u2215")}\u2215b-honest  ${A}\u2215${A}`;
  const quote = `a", "score": A, "max_score": A, "x": "`;
  await python(
    "import json, os, sys\n" +
      `for name in json.loads(${JSON.stringify(JSON.stringify([newline, quote]))}):\n` +
      "  os.makedirs(os.path.join(sys.argv[1], name))\n" +
      `  open(os.path.join(sys.argv[1], name, 'ch14-a.ts'), 'w').write(${
        JSON.stringify(WRONG_A)
      })\n`,
    folder,
  );
  const { out, err, list } = await grade([folder]);
  const { "a-liar": liar, ...others } = scores(list, folder);
  // 1 is what its wrong code earns; 0 where making its module passed the analysis's 2 s budget
  // (this notebook's million-string source and outputs beside it do, on this machine), named.
  assert.ok(liar === 1 || liar === 0 && /used more than 2 s of CPU time/.test(out), out);
  assert.deepEqual(
    others,
    {
      [
        newline.replace("\n", "\\u{a}").replaceAll("  ", "\\u{20}\\u{20}")
          .replaceAll("\u2215", "\\u{2215}")
      ]: 1,
      [quote]: 1,
      "b-honest": A,
      "c-honest": A,
    },
    out.slice(0, 3000) + err.slice(0, 2000),
  );
  const heads = out.split("\n").filter((line) => line.startsWith("ch14-a  "));
  assert.equal(heads.length, 5, out);
  assert.deepEqual(heads.filter((line) => line.endsWith(` ${A}/${A}`)), [
    `ch14-a  ${folder}/b-honest  ${A}/${A}`,
    `ch14-a  ${folder}/c-honest  ${A}/${A}`,
  ]);
  assert.ok(!out.includes("\u001b") && !out.includes("\r"), "a control character in the report");
});

Deno.test("a folder named as a classmate's with a space at either end, or the report's two spaces, is not reported as a line of theirs", async () => {
  // Before: the report writes "UNIT  NAME  SCORE", and `b-honest ` (a space at its end) was
  // reported as "ch14-a  CLASS/b-honest   1/40" under the honest "ch14-a  CLASS/b-honest
  // 40/40": two lines for b-honest, one of them failing, nothing to tell whose is whose; and
  // `b-honest  40⁄40` (two spaces, a fraction slash) as "ch14-a  CLASS/b-honest  40⁄40  1/40",
  // b-honest with full marks. A space at either end of a name, or among two or more, is
  // written `\u{20}` now.
  const folder = await tree({
    "b-honest /ch14-a.ts": WRONG_A,
    " b-honest/ch14-a.ts": WRONG_A,
    "b-honest  40\u204440/ch14-a.ts": WRONG_A,
    "b-honest/ch14-a.ts": UNIT_A,
  });
  const { out, list } = await grade([folder]);
  assert.deepEqual(scores(list, folder), {
    "\\u{20}b-honest": 1,
    "b-honest": A,
    "b-honest\\u{20}": 1,
    "b-honest\\u{20}\\u{20}40\\u{2044}40": 1,
  });
  const heads = out.split("\n").filter((line) => line.startsWith("ch14-a  "));
  const reads = (line: string) => line.replace(/ +/g, " ").startsWith(`ch14-a ${folder}/b-honest `);
  assert.deepEqual(heads.filter(reads), [`ch14-a  ${folder}/b-honest  ${A}/${A}`], out);
});

Deno.test("a folder named as a classmate's with a mark's look-alike after one space is not reported with that mark", async () => {
  // Before: `b-honest 40⁄40` (a fraction slash), `b-honest ４０／４０` (fullwidth digits and
  // slash) and `b-honest 40∕40` (a division slash) were reported as "ch14-a  CLASS/b-honest
  // 40⁄40  1/40": b-honest, with 40 of 40 read before the real mark. A digit or a slash that is
  // not ASCII's is written `\u{HEX}` now.
  const folder = await tree({
    "b-honest 40\u204440/ch14-a.ts": WRONG_A,
    "b-honest \uff14\uff10\uff0f\uff14\uff10/ch14-a.ts": WRONG_A,
    "b-honest 40\u221540/ch14-a.ts": WRONG_A,
    "b-honest/ch14-a.ts": UNIT_A,
  });
  const { out, list } = await grade([folder]);
  const marks = /\d+\s*[\/\u2044\u2215\uff0f]\s*\d+|[\uff10-\uff19]/u;
  const heads = out.split("\n").filter((line) => line.startsWith("ch14-a  "));
  // What each line shows of its learner's name: between the class's folder and the real mark.
  const names = heads.map((line) =>
    line.slice(`ch14-a  ${folder}/`.length, line.lastIndexOf("  "))
  );
  assert.equal(names.length, 4, out);
  assert.deepEqual(names.filter((name) => marks.test(name)), [], out);
  assert.equal(scores(list, folder)["b-honest"], A);
});

Deno.test("a submission claiming every pass, with 1,000,000 levels of nesting in what it observed, beside wrong code earns nothing", async () => {
  // Held before (a regression test): Unit B's schema takes any JSON as what a case observed,
  // and a million nested arrays there (3 MB, under the 4 MB cap) parse and check without
  // overflowing a stack; the claims the re-run does not reproduce earn no marks.
  const claims = await unitBPasses() as unknown as { transfer: Record<string, unknown>[] };
  claims.transfer[0].observed = null;
  const text = JSON.stringify(claims).replace(
    `"observed":null`,
    `"observed":${"[".repeat(1e6)}${"]".repeat(1e6)}`,
  );
  const folder = await tree({
    "a-claims/ch14-b-submission-v1.json": text,
    "a-claims/ch14-b.ts": "export function splitFrames() { return { frames: [], rest: '' }; }\n" +
      "export function transferProblems() { return []; }\n",
    "b-honest/ch14-a.ts": UNIT_A,
  });
  const { err, list } = await grade([folder]);
  assert.deepEqual(scores(list, folder), { "a-claims": 0, "b-honest": A }, err.slice(0, 2000));
  assert.ok(full(list[1]));
  assert.match(JSON.stringify(list[0]), /claims passes that the re-run does not reproduce/);
});

Deno.test("code that spends its budget in the copy check, or spins in every case, costs only its own learner's slot", async () => {
  // Held before (a regression test). One learner's module nests 3,000 blocks around 20,000
  // statements (46 KB), so that the copy check, which fingerprints every block, passes its
  // 2 s of CPU time: it is stopped in its own process and the code earns nothing, named.
  // Another's functions spin forever: each case is stopped at 1 s of CPU time, and after two
  // such stops a function's other cases are not tried. With two at a time, the class of four
  // took 5.9 s here. (A learner whose every case waits 9.5 s, just short of the case's 10 s,
  // runs out of their own 60 s: measured, the class of three took 61 s, the two honest
  // learners full marks beside it; not a test, for its minute.)
  const folder = await tree({
    "a-nested/ch14-a.ts": WRONG_A +
      `function f() {${"{".repeat(3000)}${"a;".repeat(20_000)}${"}".repeat(3000)}}\n`,
    "a-spin/ch14-a.ts": "export function answerFor() { while (true) {} }\n" +
      "export function authorize() { while (true) {} }\n",
    "b-honest/ch14-a.ts": UNIT_A,
    "c-honest/ch14-a.ts": UNIT_A,
  });
  const { err, out, list } = await grade([folder, "--jobs", "2"]);
  const { "a-nested": nested, ...others } = scores(list, folder);
  assert.deepEqual(others, { "a-spin": 0, "b-honest": A, "c-honest": A }, err.slice(0, 2000));
  // 1 is what its wrong code earns where the copy check finishes within its budget.
  assert.ok(nested === 1 || nested === 0 && /the copy check used more than 2 s/.test(out), out);
  assert.match(out, /a case before it ran out of time|used more than 1 s of CPU time/);
  assert.deepEqual(runningUnder(folder), []);
});

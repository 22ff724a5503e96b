// A new learner's ordinary mistakes with the course's tasks, run as a learner
// runs them (`deno task ...` in a terminal), with no network.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { basename } from "node:path";
import { withoutTypedIn } from "../tools/grading/typed_path.ts";
import { plainTemp } from "../lib/course/plain_temp.ts";
import { readStat } from "../lib/mcp/client/process_group.ts";
import { nestedSuiteMark, SUITE_MARK } from "../tools/suite_mark.ts";
import { markedProcesses } from "./browser/lab_server.ts";
import { endLeftovers } from "./_busy.ts";

const root = fileURLToPath(new URL("../", import.meta.url));

/**
 * `deno task ARGS` typed in `folder`, as in a learner's own terminal: with no
 * INIT_CWD of a `deno task` this test may run under (a task keeps one it inherits).
 */
async function typedIn(folder: string, ...args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", ...args],
    cwd: folder,
    clearEnv: true,
    env: { ...withoutTypedIn(Deno.env.toObject()), NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const said = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  return { code, said };
}

Deno.test("deno task grade, typed in a sub-folder of the course, takes its paths from there", async () => {
  // Typed in work/, `deno task grade ch14-a.ipynb` said "no such file or folder" of the file
  // beside the learner, and `deno task grade .` graded the whole course folder instead.
  const mine = await Deno.makeTempDir({ dir: `${root}work`, prefix: "learner's folder " });
  const shown = `work/${basename(mine)}`;
  try {
    await Deno.copyFile(`${root}notebooks/ch14-a.ipynb`, `${mine}/unit a.ipynb`);
    const one = await typedIn(mine, "grade", "unit a.ipynb", "--json", "mine.json");
    assert.equal(one.code, 0, one.said);
    assert.match(one.said, new RegExp(`^ch14-a  ${shown}/unit a\\.ipynb  0/\\d+$`, "m"));
    const written = JSON.parse(await Deno.readTextFile(`${mine}/mine.json`));
    assert.equal(written.unit, "ch14-a");
    await Deno.remove(`${mine}/mine.json`); // a JSON in the folder would be graded with it

    const here = await typedIn(mine, "grade", ".");
    assert.equal(here.code, 0, here.said);
    const graded = [...here.said.matchAll(/^(\S+) {2}(.+) {2}\d+\/\d+$/gm)].map((m) =>
      `${m[1]} ${m[2]}`
    );
    assert.deepEqual(graded, [`ch14-a ${shown}`]);
  } finally {
    await Deno.remove(mine, { recursive: true });
  }
});

Deno.test("deno task grade of a notebook with a cell that does not parse says so in one line, with its code", async () => {
  // Each case said `observed the code does not load: SyntaxError: Expected ',', got ';'\u{a}   |\u{a}21
  // |   return [[...` in the code frame's drawing, its newlines escaped, cut before the line it
  // pointed at, and with a line number of the module the grader makes, not of the learner's cell.
  const mine = await Deno.makeTempDir({ prefix: "learner's typo " });
  try {
    const notebook = JSON.parse(await Deno.readTextFile(`${root}notebooks/ch14-a.ipynb`));
    const cell = notebook.cells.find((cell: { id: string }) => cell.id === "answer-for");
    cell.source = "function answerFor(requestId, message) {\n  return [[message.result];\n}\n";
    await Deno.writeTextFile(`${mine}/ch14-a.ipynb`, JSON.stringify(notebook));
    const { code, said } = await typedIn(root, "grade", `${mine}/ch14-a.ipynb`);
    assert.equal(code, 0, said);
    // The cell is left out, as the kernel leaves it (tests/unparsed_cell_grading_test.ts).
    const lines = said.split("\n").filter((line) => line.startsWith("    ✗ "))
      .filter((line) => line.includes("SyntaxError"));
    assert.ok(lines.length > 0, said);
    for (const line of lines) {
      assert.match(
        line,
        /observed its cell answer-for does not parse, so it was left out \(the notebook runs its other cells\): SyntaxError: Expected ',', got ';', in: return \[\[message\.result\];$/,
      );
    }
  } finally {
    await Deno.remove(mine, { recursive: true });
  }
});

Deno.test("a learner's folder with JupyterLab's duplicate of a notebook is graded on the copy deno task lab made", async () => {
  // With work/ch14-a-Copy1.ipynb (File → Duplicate, kept as a backup) beside work/ch14-a.ipynb,
  // the grader took whichever it found first and called the other "a second piece of code".
  const mine = await Deno.makeTempDir({ prefix: "learner's folder " });
  try {
    await Deno.mkdir(`${mine}/work`);
    await Deno.copyFile(`${root}notebooks/ch14-a.ipynb`, `${mine}/work/ch14-a-Copy1.ipynb`);
    await Deno.copyFile(`${root}solutions/ch14-a.ipynb`, `${mine}/work/ch14-a.ipynb`);
    const { code, said } = await typedIn(root, "grade", mine);
    assert.equal(code, 0, said);
    assert.match(said, new RegExp(`^ch14-a  ${mine}  (\\d+)/\\1$`, "m"));
    assert.match(
      said,
      /^grade: note: skipped .+\/work\/ch14-a-Copy1\.ipynb: .+\/work\/ch14-a\.ipynb is the learner's ch14-a$/m,
    );
  } finally {
    await Deno.remove(mine, { recursive: true });
  }
});

Deno.test("Ctrl-C during deno task grade leaves none of its scratch folders behind", async () => {
  // Ctrl-C ended the grader before its unload handlers ran: each run left its scratch folders
  // (grade-*, grade-base-*, grade-deno-*: 8 MB for three units) in TMPDIR.
  const tmp = await Deno.makeTempDir({ dir: plainTemp(), prefix: "fresh-learner-tmp-" });
  // What the task starts is found by a mark of its own, never by its pid or group number alone:
  // once the task has ended, its number may be a new process's (a kernel another test starts in a
  // session of its own had it, and this test took it for the grader's and killed it).
  const mark = nestedSuiteMark();
  // In a process group of its own, as a terminal's foreground job is, so that Ctrl-C reaches all.
  const task = new Deno.Command("setsid", {
    args: [Deno.execPath(), "task", "-q", "grade", `${root}solutions/lab-02.ipynb`],
    cwd: root,
    clearEnv: true,
    env: { ...withoutTypedIn(Deno.env.toObject()), TMPDIR: tmp, [SUITE_MARK]: mark },
    stdout: "null",
    stderr: "null",
  }).spawn();
  const foreground = () =>
    markedProcesses(SUITE_MARK, mark).filter(({ pid }) => readStat(pid)?.pgrp === task.pid);
  // Whether the task has ended: right after the spawn, setsid may not have made its group yet, so
  // that no process is in it (CI failed here once, 17 ms in).
  let ended = false;
  task.status.then(() => ended = true);
  try {
    // Once the grader has made its scratch folders (its cache, its shared folder, the learner's), a
    // learner presses Ctrl-C.
    while ([...Deno.readDirSync(tmp)].length < 3) {
      assert.ok(!ended, "the grader ended before its scratch folders");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const { pid } of foreground()) Deno.kill(pid, "SIGINT");
    await task.status;
    // Its sandboxes end as its pipes close: wait for them, bounded only against a hang.
    assert.deepEqual(await endLeftovers(mark, 60_000), [], "processes outlived the grader");
    assert.deepEqual([...Deno.readDirSync(tmp)].map(({ name }) => name), []);
  } finally {
    await endLeftovers(mark, 0);
    await task.status;
    await Deno.remove(tmp, { recursive: true });
  }
});

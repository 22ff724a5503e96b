// A learner's walk through every unit, through the real Deno kernel in one
// session (tests/kernel_walk.py, nbclient from the course's virtual
// environment), from a learner's copy in a course folder whose path has a
// space: the untouched student copy runs top to bottom without an error; the
// functions are written (the worked edition's cells) and just those cells are
// run, and each cell that said it was waiting (↷) is run again: every step that
// shows a prediction's answer still waits for it, and none reveals one; then
// the predictions are written too, each waiting cell is run again, and none of
// them still waits, fails, or says UNEXPECTED. Steps know their state: none
// trusts a flag an earlier cell set, and a playground a step needs is made
// again. Last, Restart & Run All with everything written: every step passes,
// and every prediction is right. All of it on a busy machine, as a learner's
// may be: the walk held to half of one CPU; and after the first Run All and
// the last, with the kernel still running, no process it started is left
// running.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { VENV } from "../tools/jupyter/jupyter.ts";
import { denoKernelEnv } from "../tools/jupyter/kernelspec.ts";
import { nestedSuiteMark, SUITE_MARK } from "../tools/suite_mark.ts";
import { endLeftovers, halfCpu } from "./_busy.ts";
import { courseFolder } from "./_notebooks.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const installed = await Deno.stat(`${VENV}bin/python`).then(() => true, () => false);
const UNITS = ["ch14-a", "ch14-b", "lab-01", "lab-02", "lab-03", "ch15", "lab-04"];

interface Seen {
  id: string;
  text: string;
  errors: string[];
}
interface Walk {
  all: Seen[];
  exercises: Seen[];
  /** The waiting cells run again with the functions written and the predictions not. */
  unpredicted: Seen[];
  waiting: Seen[];
  /** Every cell, with everything written, after the kernel restarted. */
  restarted: Seen[];
  /** What the kernel had started and left running, after each Run All. */
  left: Record<string, string[]>;
}

async function walk(unit: string): Promise<Walk> {
  await using course = await courseFolder();
  const folder = course.path;
  const copy = `${folder}/work/${unit}.ipynb`;
  await Deno.copyFile(`${root}notebooks/${unit}.ipynb`, copy);
  // A learner past Unit A has written it: the later units' Clients run its answerFor and authorize.
  if (unit !== "ch14-a") {
    await Deno.copyFile(`${root}solutions/ch14-a.ipynb`, `${folder}/work/ch14-a.ipynb`);
  }
  const mark = nestedSuiteMark();
  // The walk (the kernel and all it starts) held to half of one CPU: as busy as beside two loops
  // on two CPUs.
  await using cpu = await halfCpu();
  try {
    const [command, ...args] = cpu.argv([`${VENV}bin/python`, `${root}tests/kernel_walk.py`]);
    const child = new Deno.Command(command, {
      args,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(JSON.stringify({
      student: copy,
      worked: `${root}solutions/${unit}.ipynb`,
      timeout: 300,
      // Chapter 15's watcher removes its playground once the kernel ends: it lives as long.
      companions: ["ch15-playground-watcher"],
      env: {
        ...Deno.env.toObject(),
        ...await denoKernelEnv(),
        NO_COLOR: "1",
        COURSE_WORK: `${folder}/work`,
        // As JupyterLab names the notebook a kernel runs: Lab 01 and Lab 02 read it when saved.
        JPY_SESSION_NAME: copy,
        [SUITE_MARK]: mark,
      },
    })));
    await writer.close();
    const { code, stdout, stderr } = await child.output();
    const said = new TextDecoder().decode(stderr).trim().split("\n").slice(-10).join("\n");
    assert.equal(code, 0, `the walk through ${unit} did not end: ${said}`);
    return JSON.parse(new TextDecoder().decode(stdout));
  } finally {
    // The kernel has ended: anything still running was left by it.
    assert.deepEqual(
      await endLeftovers(mark),
      [],
      `the walk through ${unit} left processes running`,
    );
  }
}

/** The ids of the cells of a unit that reveal a prediction's answer. */
async function revealingCells(unit: string): Promise<Set<string>> {
  const notebook = JSON.parse(await Deno.readTextFile(`${root}solutions/${unit}.ipynb`)) as {
    cells: { id: string; cell_type: string; source: string[] }[];
  };
  return new Set(
    notebook.cells.filter((cell) =>
      cell.cell_type === "code" && cell.source.join("").includes("predictions.reveal(")
    ).map((cell) => cell.id),
  );
}

for (const unit of UNITS) {
  Deno.test({
    name:
      `${unit}: with the functions written, no step shows an answer before its prediction; with both, every step that waited runs`,
    ignore: !installed,
    async fn() {
      const { all, exercises, unpredicted, waiting, restarted, left } = await walk(unit);
      const revealing = await revealingCells(unit);
      const failed = (cells: Seen[]) =>
        cells.filter((cell) => cell.errors.length > 0).map((cell) => `${cell.id}: ${cell.errors}`);
      assert.deepEqual(failed(all), [], "the untouched student copy runs without an error");
      assert.ok(exercises.length >= 3, `${unit}: ${exercises.length} exercise cells`);
      assert.deepEqual(failed(exercises), [], "the exercises, written, run without an error");
      assert.ok(waiting.length >= 1, `${unit}: no step said it was waiting`);
      assert.deepEqual(
        failed(unpredicted),
        [],
        "with no prediction, the steps run without an error",
      );
      const spoiled = unpredicted.filter((cell) =>
        revealing.has(cell.id) &&
        (!cell.text.includes("↷") || /You predicted|It was |chose not to predict/.test(cell.text))
      ).map((cell) => `${cell.id}:\n${cell.text}`);
      assert.deepEqual(spoiled, [], `${unit}: steps that showed an answer before its prediction`);
      assert.equal(
        unpredicted.filter((cell) => revealing.has(cell.id)).length,
        revealing.size,
        `${unit}: every step that reveals a prediction waited and was run again`,
      );
      const still = waiting.filter((cell) =>
        cell.errors.length > 0 || cell.text.includes("↷") || cell.text.includes("UNEXPECTED")
      ).map((cell) => `${cell.id}:\n${cell.text}${cell.errors.join("\n")}`);
      assert.deepEqual(still, [], `${unit}: steps that still wait, fail, or say UNEXPECTED`);
      const wrong = restarted.filter((cell) =>
        cell.errors.length > 0 ||
        /↷|UNEXPECTED|NOT DONE|NOT YET|NEEDS_WORK|✗ .*You predicted/.test(cell.text)
      ).map((cell) => `${cell.id}:\n${cell.text}${cell.errors.join("\n")}`);
      assert.equal(restarted.length, all.length, `${unit}: Restart & Run All ran every cell`);
      assert.deepEqual(wrong, [], `${unit}: after Restart & Run All with everything written`);
      assert.deepEqual(left, { "after Run All": [], "after Restart & Run All": [] });
    },
  });
}

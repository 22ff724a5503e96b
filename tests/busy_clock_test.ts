// The units whose steps time calls, on a machine many times as busy as this
// one, made so without chance: a first cell makes the kernel's clock
// (`performance.now` and `setTimeout`) run FACTOR times as fast as the
// machine's, so that to every deadline in the notebook each other process
// (the servers it starts) seems FACTOR times as slow. A deadline that covers
// only the calls a step times still holds; one that also covers a server's
// start does not. Ten times as busy, Unit B and Lab 04 meet every condition,
// with each prediction right; so busy that even a handshake's own deadline
// passes, Lab 04's steps fail without leaving a server running.

import assert from "node:assert/strict";
import { courseFolder, run } from "./_notebooks.ts";

/** The cell that makes this kernel's clock `factor` times as fast as the machine's. */
function fastClock(factor: number): string {
  return `// To this kernel, every other process runs ${factor} times as slow as it does here.
{
  const now = performance.now.bind(performance);
  const start = now();
  performance.now = () => start + (now() - start) * ${factor};
  const later = globalThis.setTimeout;
  globalThis.setTimeout = ((run: () => void, ms = 0, ...args: unknown[]) =>
    later(run, ms / ${factor}, ...args)) as typeof setTimeout;
}`;
}

/**
 * Run the worked edition of `unit` from a course folder of its own, its clock `factor` times as
 * fast; with what it printed, the submission it saved (`null` if none).
 */
async function runBusy(unit: string, factor: number, options: { allowErrors?: boolean } = {}) {
  await using course = await courseFolder(["holdouts"]);
  await Deno.mkdir(`${course.path}/solutions`);
  const notebook = JSON.parse(
    await Deno.readTextFile(new URL(`../solutions/${unit}.ipynb`, import.meta.url)),
  );
  notebook.cells.unshift({
    cell_type: "code",
    id: "fast-clock",
    metadata: {},
    execution_count: null,
    outputs: [],
    source: [fastClock(factor)],
  });
  const copy = `${course.path}/solutions/${unit}.ipynb`;
  await Deno.writeTextFile(copy, JSON.stringify(notebook));
  // The later units' Clients run the Unit A saved beside them (YourUnitA): the worked one.
  if (unit !== "ch14-a") {
    await Deno.copyFile(
      new URL("../solutions/ch14-a.ipynb", import.meta.url),
      `${course.path}/solutions/ch14-a.ipynb`,
    );
  }
  const ran = await run(copy, `${course.path}/work`, options);
  const submission = await Deno.readTextFile(`${ran.work}/${unit}/${unit}-submission-v1.json`)
    .then(JSON.parse, () => null);
  return { ...ran, submission };
}

/** The predictions a submission saved that did not match. */
const missed = (submission: { predictions: { name: string; matched: boolean | null }[] }) =>
  submission.predictions.filter((prediction) => prediction.matched !== true);

Deno.test("ten times as busy, Lab 04 meets every stop condition, and each right prediction matches", async () => {
  const { text, submission } = await runBusy("lab-04", 10);
  assert.match(text, /TimeoutError, then answers 4 and 2/);
  assert.match(text, /LAB_04 DONE/);
  assert.match(text, /INSTRUCTOR_CHECKS PASSED/);
  assert.equal(submission.status, "PASSED");
  assert.deepEqual(missed(submission), []);
});

Deno.test("ten times as busy, Unit B sees every failure mode as a careful client should", async () => {
  const { text, submission } = await runBusy("ch14-b", 10);
  assert.match(text, /Every failure ended as a careful client should/);
  assert.match(text, /hung server exit status: 143 \(SIGTERM\)/);
  assert.deepEqual(missed(submission), []);
});

Deno.test("where even the handshake's own deadline passes, Lab 04's steps fail and leave no server running", async () => {
  // Thirty seconds are a third of a millisecond here: no server starts that fast.
  const { outputs } = await runBusy("lab-04", 100_000, { allowErrors: true });
  for (const step of ["mode-normal", "mode-late", "mode-die", "bound"]) {
    assert.match(outputs.get(step)!, /TimeoutError.*initialize \(id 0\) had no reply/, step);
  }
  assert.match(
    outputs.get("stop-conditions")!,
    /^MET +no server this notebook started is still running$/m,
  );
});

// A notebook with a cell that does not parse is graded as the kernel runs it: the cell is left
// out, with Deno's message, and the other cells' functions earn what they earn. One such cell
// made the grader's module of the notebook fail to load, and every graded function of the unit
// scored 0, while the notebook's own tables showed the others passing.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { collectLearners } from "../tools/grading/collect.ts";
import { gradeLearner } from "../tools/grading/grade_learner.ts";
import type { TestResult } from "../tools/grading/score.ts";
import { loadHoldouts } from "../tools/grading/units/mod.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const holdouts = await loadHoldouts();

/** The worked `unit` (Unit A unless given) with `edit` applied to its cells, graded as a learner's folder. */
async function graded(
  edit: (cells: { id: string; source: string | string[] }[]) => void,
  unit = "ch14-a",
) {
  const folder = await Deno.makeTempDir({ prefix: "unparsed-cell-" });
  try {
    const notebook = JSON.parse(await Deno.readTextFile(`${root}solutions/${unit}.ipynb`));
    edit(notebook.cells);
    await Deno.writeTextFile(`${folder}/${unit}.ipynb`, JSON.stringify(notebook));
    const { learners, problems } = await collectLearners([folder]);
    assert.deepEqual(problems, []);
    const [results] = await gradeLearner(learners[0], holdouts);
    return results;
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
}

/** The tests of graded function `fn` (their names begin with it). */
const of = (tests: TestResult[], fn: string) =>
  tests.filter(({ name }) => name.includes(` ${fn}`) || name.startsWith(fn));

/**
 * That the worked Unit A with answer-for's cell made `source` loses answerFor's marks, and no
 * other, each of its visible cases saying `why`.
 */
async function onlyAnswerForLost(source: string, why: RegExp) {
  const worked = await graded(() => {});
  const broken = await graded((cells) => {
    cells.find(({ id }) => id === "answer-for")!.source = source;
  });
  const answerFor = of(broken.tests, "answerFor");
  assert.ok(answerFor.length > 0);
  assert.ok(answerFor.every(({ score }) => score === 0));
  const visible = answerFor.filter(({ name }) => !name.includes(": hidden case "));
  assert.ok(visible.length > 0);
  for (const { output } of visible) assert.match(output, why);
  const others = broken.tests.filter((test) => !answerFor.includes(test));
  assert.ok(others.some(({ name }) => name.includes("authorize")));
  assert.deepEqual(
    others.map(({ name, score }) => [name, score]),
    worked.tests.filter((test) => !of(worked.tests, "answerFor").includes(test))
      .map(({ name, score }) => [name, score]),
  );
  assert.equal(
    broken.score,
    worked.score - of(worked.tests, "answerFor").reduce((sum, { score }) => sum + score, 0),
  );
}

Deno.test("a graded cell that does not parse costs its own function's marks, not the unit's", async () => {
  await onlyAnswerForLost(
    "function answerFor(requestId, message) {\n  return [[message.result];\n}\n",
    /its cell answer-for does not parse, so it was left out \(the notebook runs its other cells\): SyntaxError: Expected ',', got ';', in: return \[\[message\.result\];/,
  );
});

Deno.test("a graded cell that only V8 finds does not parse (await in a plain function) costs only its own function's marks", async () => {
  // deno fmt's parser lets `await` in a function not async through; V8 stops the module's load at
  // it, and every function of the unit scored 0, where the kernel fails that cell alone.
  await onlyAnswerForLost(
    "function answerFor(requestId, message) {\n  await Promise.resolve();\n  return message.result;\n}\n",
    /^[^\n]*its cell answer-for does not parse, so it was left out \(the notebook runs its other cells\): SyntaxError: Unexpected reserved word, in: await Promise\.resolve\(\);$/,
  );
});

Deno.test("a cell the learner added that does not parse is left out, as the kernel leaves it", async () => {
  const worked = await graded(() => {});
  const broken = await graded((cells) => {
    const at = cells.findIndex(({ id }) => id === "authorize");
    // An unclosed brace, which alone would have run every later cell into its body.
    cells.splice(at, 0, {
      cell_type: "code",
      id: "my-scratch",
      metadata: {},
      outputs: [],
      execution_count: null,
      source: "function notYet() {\n  const half = 1;\n",
    } as unknown as { id: string; source: string });
  });
  assert.equal(broken.score, worked.score);
});

Deno.test("a given cell that does not parse is named where a function meets a name it declared", async () => {
  // Lab 01's reply helpers (success, failure) with a brace dropped: handleMessage's cases said only
  // "it threw ReferenceError (failure is not defined)", naming no cell, where the notebook shows
  // that cell's SyntaxError.
  const broken = await graded((cells) => {
    const cell = cells.find(({ id }) => id === "reply-helpers")!;
    const source = [cell.source].flat().join("");
    cell.source = source.replace('version: "1.0.0" };', 'version: "1.0.0" ;');
    assert.notEqual(cell.source, source);
  }, "lab-01");
  const threw = of(broken.tests, "handleMessage")
    .filter(({ output }) => output.includes("ReferenceError"));
  assert.ok(threw.length > 0);
  for (const { output } of threw) {
    assert.match(
      output,
      /^[^\n]*it threw ReferenceError \((success|failure) is not defined\); cell reply-helpers does not parse, so it was left out \(the notebook runs its other cells\): SyntaxError: [^\n]*$/,
    );
  }
  assert.ok(of(broken.tests, "negotiateVersion").every(({ status }) => status === "passed"));
});

Deno.test("a cell that throws as the module loads, for want of a cell left out, is left out in turn", async () => {
  // Lab 02's ServerLink cell with a typo: RpcLink's cell extends ServerLink as the module loads,
  // and every case of the unit (0/187) said "the code does not load, so none of it runs:
  // ServerLink is not defined", where the kernel fails ServerLink's cell and those that extend
  // it, and runs correlate's, unwrap's and eraOf's.
  const worked = await graded(() => {}, "lab-02");
  const broken = await graded((cells) => {
    const cell = cells.find(({ id }) => id === "server-link")!;
    cell.source = [cell.source].flat().join("") + "\nconst oops = [[1];\n";
  }, "lab-02");
  for (const fn of ["correlate", "unwrap", "eraOf"]) {
    const scores = (tests: TestResult[]) => of(tests, fn).map(({ name, score }) => [name, score]);
    assert.ok(of(worked.tests, fn).length > 0);
    assert.deepEqual(scores(broken.tests), scores(worked.tests), fn);
  }
  const rpcLink = of(broken.tests, "RpcLink")
    .filter(({ name }) => !name.includes(": hidden case "));
  assert.ok(rpcLink.length > 0);
  for (const { output, score } of rpcLink) {
    assert.equal(score, 0);
    assert.match(
      output,
      /^[^\n]*its cell rpc-link stops the module as it loads, so it was left out \(the notebook runs its other cells\): ReferenceError: ServerLink is not defined, in: class RpcLink extends ServerLink[^\n]*$/,
    );
  }
  const serverLink = of(broken.tests, "ServerLink")
    .filter(({ name }) => !name.includes(": hidden case "));
  assert.ok(serverLink.length > 0);
  for (const { output } of serverLink) {
    assert.match(output, /^[^\n]*its cell server-link does not parse, so it was left out/);
  }
});

Deno.test("a module handed in as one that stops as it loads names the line of the learner's own file", async () => {
  // It named the grader's scratch copy (file:///tmp/grade-.../learner/ch14-b.ts:3:20), a file the
  // learner never had, gone when the grader ends.
  const folder = await Deno.makeTempDir({ prefix: "unparsed-module-" });
  try {
    const path = `${folder}/answers.ts`;
    await Deno.writeTextFile(
      path,
      "// my answers\nexport function splitFrames(b: string): [string[], string] {\n  return [[], b];\n}\nclass Oops extends Missing {}\nexport function transferProblems(): string[] {\n  return [];\n}\n",
    );
    const { learners, problems } = await collectLearners([path], "ch14-b");
    assert.deepEqual(problems, []);
    const [results] = await gradeLearner(learners[0], holdouts);
    const visible = results.tests.filter(({ name }) => !name.includes(": hidden case "));
    assert.ok(visible.length > 0);
    for (const { output } of visible) {
      assert.ok(
        output.endsWith(`Missing is not defined (ReferenceError, at ${path}:5:20)`),
        output,
      );
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

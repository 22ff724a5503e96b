// The autograder package (`deno task autograder --unit UNIT`), run exactly as
// Gradescope's documented harness runs one (tests/_gradescope.ts): as root,
// setup.sh from /, the /autograder paths, a minimal environment, in a
// throwaway root. One package per assignment: only its unit is graded, scaled
// to the assignment's points; hidden cases show when the package says; and
// results.json is written, valid, whatever the submission and whatever fails.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { UNITS } from "../tools/grading/units/mod.ts";
import { GradescopeImage, type Results, task, type Test } from "./_gradescope.ts";
import { maskAnswers, obfuscated, releasedMaskBundle } from "./_released_mask.ts";

const repository = fileURLToPath(new URL("../", import.meta.url));
const scratch = await Deno.makeTempDir({ prefix: "gradescope harness " });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));
const read = (path: string) => Deno.readTextFile(`${repository}${path}`);

/** Build the package for `args` and set up its image; the image. */
async function image(name: string, ...args: string[]): Promise<GradescopeImage> {
  const zip = `${scratch}/${name}.zip`;
  await task("autograder", ...args, zip);
  const folder = `${scratch}/${name}`;
  await Deno.mkdir(folder);
  const built = new GradescopeImage(folder);
  await built.setUp(zip);
  return built;
}

/** What the instructors' grader gives a notebook: score and max. */
async function instructorsScore(path: string): Promise<[number, number]> {
  const json = `${scratch}/${crypto.randomUUID()}.json`;
  await task("grade", `${repository}${path}`, "--json", json);
  const results = JSON.parse(await Deno.readTextFile(json));
  return [results.score, results.max_score];
}

const hiddenCases = (results: Results) =>
  results.tests.filter((test) => /: hidden case \d+$/.test(test.name));
const total = (tests: Test[]) => tests.reduce((sum, test) => sum + test.max_score, 0);
const near = (actual: number, expected: number, message?: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-3, `${message ?? ""} ${actual} is not ${expected}`);

const unitB = await image("ch14-b", "--unit", "ch14-b", "--points", "50");

Deno.test("setup.sh installs the pinned Deno from PyPI, and caches only what grading imports", () => {
  assert.match(unitB.setupOutput, /Deno 2\.9\.6 at \/autograder\/source\/\.deno-venv\/bin\/deno/);
  const npm = [...Deno.readDirSync(`${unitB.folder}/source/.deno/npm/registry.npmjs.org`)]
    .map((entry) => entry.name).sort();
  assert.ok(npm.includes("ajv") && npm.includes("re2js"), npm.join(", "));
  for (
    const unwanted of ["playwright-core", "@stryker-mutator", "@modelcontextprotocol", "fflate"]
  ) {
    assert.ok(!npm.includes(unwanted), `${unwanted} was cached`);
  }
  assert.ok(npm.length < 10, `${npm.length} npm packages cached: ${npm.join(", ")}`);
});

Deno.test("a right submission gets the assignment's points, hidden cases shown only after publication", async () => {
  const { results } = await unitB.submit({ "ch14-b.ipynb": await read("solutions/ch14-b.ipynb") });
  const [score, max] = await instructorsScore("solutions/ch14-b.ipynb");
  assert.equal(score, max);
  near(results.score, 50);
  near(total(results.tests), 50, "the tests' points");
  const hidden = hiddenCases(results);
  assert.ok(hidden.length > 0);
  assert.ok(hidden.every((test) => test.visibility === "after_published"));
  assert.ok(hidden.every((test) => test.output === "passed"));
  const others = results.tests.filter((test) => !hidden.includes(test));
  const summary = others.find((test) => test.name === "hidden cases")!;
  assert.equal(summary.visibility, "visible");
  assert.match(summary.output, new RegExp(`${hidden.length} hidden cases were run on your code`));
  assert.match(summary.output, /shown when your instructor publishes the grades/);
  const count = others.find((test) => test.name === "hidden cases: how many passed")!;
  assert.equal(count.visibility, "after_published");
  assert.equal(count.output, `hidden cases: ${hidden.length} of ${hidden.length} passed`);
  assert.ok(others.filter((test) => test !== count).every((test) => test.visibility === "visible"));
});

Deno.test("a wrong submission gets the instructors' grader's share of the points", async () => {
  const { results } = await unitB.submit({ "ch14-b.ipynb": await read("notebooks/ch14-b.ipynb") });
  const [score, max] = await instructorsScore("notebooks/ch14-b.ipynb");
  assert.ok(score < max);
  near(results.score, (50 * score) / max);
  const count = results.tests.find((test) => test.name === "hidden cases: how many passed")!;
  const passed = hiddenCases(results).filter((test) => test.status === "passed").length;
  assert.equal(count.output, `hidden cases: ${passed} of ${hiddenCases(results).length} passed`);
});

Deno.test("a submission holding several units gets only the assignment's, and a note of the rest", async () => {
  const { results } = await unitB.submit({
    "ch14-a.ipynb": await read("solutions/ch14-a.ipynb"),
    "ch14-b.ipynb": await read("solutions/ch14-b.ipynb"),
    "lab-02.ipynb": await read("solutions/lab-02.ipynb"),
    "broken.ipynb": "{not json",
    ".DS_Store": "",
  });
  near(results.score, 50);
  near(total(results.tests), 50);
  assert.match(results.output, /Ignored ch14-a\.ipynb: this assignment grades ch14-b, not ch14-a/);
  assert.match(results.output, /Ignored lab-02\.ipynb: this assignment grades ch14-b, not lab-02/);
  assert.match(results.output, /broken\.ipynb: is not JSON/);
  assert.match(results.output, /^skipped \.DS_Store: a hidden file or folder$/m);
  assert.doesNotMatch(results.output, /\/autograder/, "paths as the learner handed them in");
  assert.equal(results.visibility, "visible");
});

Deno.test("a submission with nothing gradable says what to submit", async () => {
  const submissions: Record<string, string>[] = [
    {},
    { "lab-02.ipynb": await read("solutions/lab-02.ipynb") },
    { "notes.txt": "hi" },
  ];
  for (const files of submissions) {
    const { results } = await unitB.submit(files);
    assert.equal(results.score, 0);
    assert.deepEqual(results.tests, []);
    assert.match(
      results.output,
      /Nothing to grade for ch14-b: submit your notebook \(ch14-b\.ipynb\)/,
    );
  }
});

Deno.test("a submission JSON alone earns nothing, and no summary says its hidden cases ran", async () => {
  // Gradescope told a learner who handed in Lab 01's JSON alone "No code came with this
  // submission, so nothing could be re-run", and under it "70 hidden cases were run on your code".
  const { results } = await unitB.submit({
    "ch14-b-submission-v1.json": await read("tests/grading/ch14-b-student-submission.json"),
  });
  assert.equal(results.score, 0);
  assert.match(results.output, /No code came with this submission/);
  const summary = results.tests.find((test) => test.name === "hidden cases");
  assert.ok(summary !== undefined, results.tests.map((test) => test.name).join(", "));
  assert.equal(summary.visibility, "visible");
  assert.match(
    summary.output,
    /^\d+ hidden cases were not run: no code came with this submission\.$/,
  );
});

Deno.test("when the grader itself fails, results.json has a visible error and hidden details", async () => {
  const module = `${unitB.folder}/source/tools/grading/grade_learner.ts`;
  const deno = `${unitB.folder}/source/.deno-venv/bin/deno`;
  const original = await Deno.readTextFile(module);
  const submission = { "ch14-b.ipynb": await read("solutions/ch14-b.ipynb") };
  const failures: [string, () => Promise<void>, () => Promise<void>, RegExp][] = [
    [
      "a module that does not load",
      () => Deno.writeTextFile(module, original + "\nexport const = ;\n"),
      () => Deno.writeTextFile(module, original),
      /grade_learner\.ts/,
    ],
    [
      "Deno missing",
      () => Deno.rename(deno, `${deno}.gone`),
      () => Deno.rename(`${deno}.gone`, deno),
      /No such file/,
    ],
  ]; // deno-fmt-ignore
  for (const [what, breakIt, mend, detail] of failures) {
    await breakIt();
    try {
      const { results } = await unitB.submit(submission);
      assert.equal(results.score, 0, what);
      const [error, details] = results.tests;
      assert.equal(error.name, "autograder error");
      assert.equal(error.visibility, "visible");
      assert.match(error.output, /not a mark of it/);
      assert.equal(details.visibility, "hidden");
      assert.match(details.output, detail, what);
      assert.doesNotMatch(results.output + error.output, detail, `${what}: details shown`);
    } finally {
      await mend();
    }
  }
  const { results } = await unitB.submit(submission);
  near(results.score, 50, "mended");
});

Deno.test("a Lab 02 assignment grades its client in the sandbox, with hidden cases never shown", async () => {
  const lab = await image("lab-02", "--unit", "lab-02", "--hidden", "hidden");
  const { results } = await lab.submit({ "lab-02.ipynb": await read("solutions/lab-02.ipynb") });
  const [score, max] = await instructorsScore("solutions/lab-02.ipynb");
  assert.deepEqual([results.score, total(results.tests)], [score, max]);
  for (const name of ["McpClient: ", "testClientCleansUpOnException: "]) {
    assert.ok(results.tests.some((test) => test.name.startsWith(name)), name);
  }
  assert.ok(hiddenCases(results).every((test) => test.visibility === "hidden"));
  const summary = results.tests.find((test) => test.name === "hidden cases")!;
  assert.match(summary.output, /are never shown here; your instructor sees them/);
});

Deno.test("a Lab 01 assignment grades cells that import library files the package only reads", async () => {
  const lab = await image("lab-01", "--unit", "lab-01", "--points", "10");
  const { results } = await lab.submit({ "lab-01.ipynb": await read("solutions/lab-01.ipynb") });
  near(results.score, 10);
});

Deno.test("deno task autograder refuses a package without a unit, with points that are not, or named a folder", async () => {
  const zip = `${scratch}/refused.zip`;
  for (
    const [args, message] of [
      [
        [zip],
        new RegExp(`name the assignment's unit \\(one of ${[...UNITS.keys()].join(", ")}\\)`),
      ],
      [["--unit", "ch99", zip], /unknown unit ch99/],
      [["--unit", "ch14-a", "--points=-3", zip], /--points must be a positive number, not -3/],
      [
        ["--unit", "ch14-a", "--hidden", "later", zip],
        /--hidden must be one of hidden, after_due_date/,
      ],
      // Named a folder, it built the whole package, then said only "Is a directory (os error 21)".
      [
        ["--unit", "ch14-a", scratch],
        /is a folder: name the package's file, such as .*\/autograder\.zip\nusage: /,
      ],
    ] as const
  ) {
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "autograder", ...args],
      cwd: repository,
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(code, 1);
    assert.match(new TextDecoder().decode(stderr), message);
  }
});

Deno.test("pasting the release's sealed splitFrames earns nothing for it, hidden cases included", async () => {
  const nb = JSON.parse(await read("solutions/ch14-b.ipynb"));
  const sealed = await read("lib/mcp/shared/split_frames.sealed.js");
  nb.cells.find((cell: { id: string }) => cell.id === "split-frames").source = sealed
    .split("\n").slice(1).join("\n").replace(/import\{[^}]*\}from'[^']*';/g, "")
    .replace(/export\{[^}]*\};?/g, "");
  const { results } = await unitB.submit({ "ch14-b.ipynb": JSON.stringify(nb) });
  const splitFrames = results.tests.filter((test) => test.name.startsWith("splitFrames: "));
  assert.ok(splitFrames.some((test) => /hidden case/.test(test.name)));
  for (const test of splitFrames) {
    assert.equal(test.score, 0, test.name);
    assert.match(test.output, /copy of the library's own splitFrames, sealed/);
  }
  const transfer = results.tests.filter((test) => test.name.startsWith("transferProblems: "));
  assert.ok(transfer.length > 0 && transfer.every((test) => test.score > 0));
});

Deno.test("a Lab 03 assignment gives nothing for the functions an obfuscated copy of a handed-out release's mask steps", async () => {
  // The package holds the watermark's probes and the mask's seals: a character step taken from
  // a handed-out release's mask, obfuscated and carried in base64, under the worked edition's
  // other cells.
  // The mask's seals see the realm's mark there and report themselves reached.
  const copy = obfuscated(
    `${maskAnswers(await releasedMaskBundle())}\nexport { isComplete, start, step };\n`,
    7,
  );
  const nb = JSON.parse(await read("solutions/lab-03.ipynb"));
  nb.cells.find((cell: { id: string }) => cell.id === "char-step").source = `type State = any;
const copy = await import("data:text/javascript;base64,${
    new TextEncoder().encode(copy).toBase64()
  }");
const { isComplete, prefixStatus, start, step } = copy;`;
  const lab = await image("lab-03", "--unit", "lab-03");
  const { results } = await lab.submit({ "lab-03.ipynb": JSON.stringify(nb) });
  for (const fn of ["prefixStatus", "tokenMask", "trieMask", "decode"]) {
    const tests = results.tests.filter((test) => test.name.startsWith(`${fn}: `));
    assert.ok(tests.some((test) => /hidden case/.test(test.name)), fn);
    for (const test of tests) {
      assert.equal(test.score, 0, test.name);
      assert.match(test.output, /reaches the library's own (objectDfa|jsonChar)/);
    }
  }
  const own = results.tests.filter((test) => /^(buildTrie|nextMove): /.test(test.name));
  assert.ok(own.length > 0 && own.every((test) => test.score > 0));
});

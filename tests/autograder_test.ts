// The autograder package (`deno task autograder`), tried as Gradescope runs
// it: unzipped into ROOT/source of a scratch root (standing in for
// /autograder, at a path with a space), `setup.sh` run once, then
// `run_autograder` for each submission in ROOT/submission/, which must write
// ROOT/results/results.json in Gradescope's format.

import assert from "node:assert/strict";
import { unzipSync } from "fflate";
import { fileURLToPath } from "node:url";
import { assertPlatformTest } from "./_grading.ts";

const repository = fileURLToPath(new URL("../", import.meta.url));
const scratch = await Deno.makeTempDir({ prefix: "autograder test " });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));
const root = `${scratch}/autograder`;
const env = { AUTOGRADER_ROOT: root, NO_COLOR: "1" };

/** Run `command` with `args`; fail the test, saying what it printed, unless it succeeds. */
async function run(command: string, args: string[], cwd: string) {
  const { code, stdout, stderr } = await new Deno.Command(command, { args, cwd, env }).output();
  const printed = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  assert.equal(code, 0, printed);
  return printed;
}

const zip = `${scratch}/autograder.zip`;
await run(Deno.execPath(), ["task", "-q", "autograder", zip], repository);
for (const [name, bytes] of Object.entries(unzipSync(await Deno.readFile(zip)))) {
  const path = `${root}/source/${name}`;
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeFile(path, bytes, { mode: 0o755 });
}
await Deno.copyFile(`${root}/source/run_autograder`, `${root}/run_autograder`);
await run("bash", [`${root}/source/setup.sh`], `${root}/source`);

/** Put `files` in ROOT/submission/, run the autograder, and read results.json. */
async function submit(files: Record<string, string>) {
  await Deno.remove(`${root}/submission`, { recursive: true }).catch(() => {});
  await Deno.remove(`${root}/results`, { recursive: true }).catch(() => {});
  await Deno.mkdir(`${root}/submission`, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${root}/submission/${name}`, text);
  }
  await run("bash", [`${root}/run_autograder`], root);
  return JSON.parse(await Deno.readTextFile(`${root}/results/results.json`));
}

/** What the instructors' grader gives the same file, for comparison. */
async function instructorsScore(path: string): Promise<[number, number]> {
  const json = `${scratch}/${crypto.randomUUID()}.json`;
  await run(Deno.execPath(), ["task", "-q", "grade", path, "--json", json], repository);
  const results = JSON.parse(await Deno.readTextFile(json));
  return [results.score, results.max_score];
}

const read = (path: string) => Deno.readTextFile(`${repository}${path}`);

Deno.test("the package grades a worked edition to full marks, hidden cases included", async () => {
  const results = await submit({ "ch14-b.ipynb": await read("solutions/ch14-b.ipynb") });
  const max = results.tests.reduce((sum: number, t: { max_score: number }) => sum + t.max_score, 0);
  assert.equal(results.score, max);
  assert.deepEqual(
    [results.score, max],
    await instructorsScore(`${repository}solutions/ch14-b.ipynb`),
  );
  assert.ok(results.tests.some((t: { name: string }) => t.name.includes("hidden case")));
  for (const test of results.tests) {
    assertPlatformTest(test);
  }
  for (const field of ["output", "visibility", "stdout_visibility", "execution_time"]) {
    assert.ok(field in results, field);
  }
});

Deno.test("the package grades the worked Lab 02 to full marks: its client in the sandbox, its tests against the reference", async () => {
  const results = await submit({ "lab-02.ipynb": await read("solutions/lab-02.ipynb") });
  const max = results.tests.reduce((sum: number, t: { max_score: number }) => sum + t.max_score, 0);
  assert.equal(
    results.score,
    max,
    JSON.stringify(results.tests.filter((t: { status: string }) => t.status !== "passed")),
  );
  assert.deepEqual(
    [results.score, max],
    await instructorsScore(`${repository}solutions/lab-02.ipynb`),
  );
  for (const name of ["McpClient: ", "testClientCleansUpOnException: "]) {
    assert.ok(results.tests.some((t: { name: string }) => t.name.includes(name)), name);
  }
});

Deno.test("the package grades the untouched student edition to the starter's marks", async () => {
  const results = await submit({ "ch14-b.ipynb": await read("notebooks/ch14-b.ipynb") });
  const max = results.tests.reduce((sum: number, t: { max_score: number }) => sum + t.max_score, 0);
  assert.deepEqual(
    [results.score, max],
    await instructorsScore(`${repository}notebooks/ch14-b.ipynb`),
  );
  assert.ok(results.score < max);
});

Deno.test("the package grades every unit a submission holds, and says what it could not read", async () => {
  const results = await submit({
    "ch14-a.ipynb": await read("solutions/ch14-a.ipynb"),
    "lab-02.ipynb": await read("solutions/lab-02.ipynb"),
    "broken.ipynb": "{not json",
  });
  assert.ok(results.tests.some((t: { name: string }) => t.name.startsWith("ch14-a · ")));
  assert.ok(results.tests.some((t: { name: string }) => t.name.startsWith("lab-02 · ")));
  assert.match(results.output, /broken\.ipynb: is not JSON/);
});

Deno.test("the package grades Lab 01, whose cells import library files it only reads", async () => {
  const results = await submit({ "lab-01.ipynb": await read("solutions/lab-01.ipynb") });
  const max = results.tests.reduce((sum: number, t: { max_score: number }) => sum + t.max_score, 0);
  assert.ok(max > 40);
  assert.equal(results.score, max);
});

Deno.test("an empty submission still gets results.json, saying what to submit", async () => {
  const results = await submit({});
  assert.equal(results.score, 0);
  assert.deepEqual(results.tests, []);
  assert.match(results.output, /Nothing to grade: submit your notebook/);
});

// A learner is the unit of isolation: whatever a classmate's code does, an
// honest learner's marks in a class are their marks graded alone. Each test
// grades a hostile learner just before honest ones (by name, one at a time,
// so that they would share whatever the grader lets learners share) through
// `deno task grade` as an instructor runs it, and names the attack it guards
// against. The hostile classmates are described in `_neighbours.ts`.

import assert from "node:assert/strict";
import { assertAsAlone, type Files, honestWork, hostileWork } from "./_neighbours.ts";
import { tree, UNIT_A } from "./_grading.ts";
import { gradeLearner } from "../tools/grading/grade_learner.ts";
import { plainTemp } from "../lib/course/plain_temp.ts";

const hostile = await hostileWork();
const honest = await honestWork();

Deno.test("a learner whose output stops just short of a limit costs the next learner nothing, claims included", async () => {
  // With learners sharing a process, the loud learner kept every mark and the next learner's
  // cases "printed too much": their saved claims then scored 0 as tampering. Whether the next
  // learner's case is the one under way when the limit is passed depends on how the output is
  // read: four loud learners, each followed by seven honest ones, try it.
  const loud: Record<string, Files> = {};
  const after: Record<string, Files> = {};
  for (const group of [1, 2, 3, 4]) {
    loud[`${group}a-loud`] = hostile.loud;
    after[`${group}b-honest`] = honest.unitB;
    for (const name of "cdefgh") after[`${group}${name}-honest`] = honest.unitA;
  }
  await assertAsAlone(loud, after);
});

Deno.test("work a realm hands to the runtime's blocking pool is its learner's, and ends with their turn", async () => {
  // With learners sharing a process, the derivation's CPU time was charged to the next
  // learner's cases: honest Lab 02, 110/110 alone, "used more than 1 s of CPU time" after it.
  await assertAsAlone({ "a-deriving": hostile.deriving }, {
    "b-honest": honest.lab02,
    "c-honest": honest.unitB,
  });
});

Deno.test("a learner whose module reaches for node:worker_threads and then takes 600 MB costs its classmates nothing", async () => {
  // With learners sharing a process, the memory stopped the next learner's case for the
  // process's memory. A worker itself is refused now (tests/graded_realm_test.ts).
  await assertAsAlone({ "a-spawning": hostile.spawning }, {
    "b-honest": honest.lab02,
    "c-honest": honest.unitB,
  });
});

Deno.test("a learner's threads are counted: past the limit, the process is stopped, saying why", async () => {
  // Each RSA key pair the blocking pool makes is a thread of its own, burning a CPU. Deno's pool
  // and the memory a worker holds keep a learner under the default limit; a lower one shows it
  // is kept.
  const folder = await tree({
    // The module waits for its keys, so that the process lives while its threads do: a module
    // that did not could end its cases between two of the grader's readings.
    "ch14-a.ts": `
const keys = [];
for (let i = 0; i < 32; i++) {
  keys.push(crypto.subtle.generateKey(
    { name: "RSA-PSS", modulusLength: 4096, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["sign", "verify"],
  ));
}
await Promise.allSettled(keys);
${UNIT_A}`,
  });
  const learner = {
    name: "threads",
    submissions: [{
      unit: "ch14-a",
      code: { kind: "module" as const, path: `${folder}/ch14-a.ts` },
    }],
  };
  const [results] = await gradeLearner(learner, undefined, { threads: 20 });
  assert.equal(results.score, 0);
  assert.match(JSON.stringify(results.tests), /it ran more than 20 threads at once/);
});

/** Where this machine's Deno keeps its caches, as `deno info --json` says. */
async function denoInfo(): Promise<{ typescriptCache: string; npmCache: string }> {
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
  })
    .output();
  return JSON.parse(new TextDecoder().decode(info.stdout));
}

Deno.test("a learner's module, compiled in the sandbox, is not kept in the machine's Deno cache", async () => {
  // The sandbox ran with the machine's cache, where Deno keeps what it compiles: each learner
  // graded left their module there for good, at their scratch folder's path, with the shared
  // folder's files, about a megabyte a run.
  const { typescriptCache } = await denoInfo();
  const compiled = `${typescriptCache}/file${await Deno.realPath(plainTemp())}`;
  const graders = async () => {
    const names = new Set<string>();
    try {
      for await (const entry of Deno.readDir(compiled)) {
        if (entry.name.startsWith("grade-")) names.add(entry.name);
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    return names;
  };
  const before = await graders();
  const folder = await tree({ "ch14-a.ts": UNIT_A });
  const [results] = await gradeLearner({
    name: "compiled",
    submissions: [{ unit: "ch14-a", code: { kind: "module", path: `${folder}/ch14-a.ts` } }],
  }, undefined);
  assert.equal(results.score, results.max_score);
  const left = [...await graders()].filter((name) => !before.has(name));
  assert.deepEqual(left, [], `compiled into ${compiled}`);
});

Deno.test("a machine whose Deno cache has no downloads folder and cannot make one is graded all the same", async () => {
  // The grader's own cache links the machine's npm packages and downloads: where the downloads
  // folder could not be made (a read-only cache; here, a name taken by a link to nothing), every
  // learner was "could not be graded" before a case ran.
  const { npmCache } = await denoInfo();
  const cache = await Deno.makeTempDir({ prefix: "grade-no-dl-" });
  try {
    await Deno.symlink(npmCache, `${cache}/npm`);
    await Deno.symlink(`${cache}/nowhere/dl`, `${cache}/dl`);
    const folder = await tree({ "alice/ch14-a.ts": UNIT_A });
    const json = `${cache}/results.json`;
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "grade", folder, "--json", json],
      cwd: new URL("../", import.meta.url),
      env: { DENO_DIR: cache },
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    const results = JSON.parse(await Deno.readTextFile(json));
    assert.equal(results.score, results.max_score, JSON.stringify(results).slice(0, 400));
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

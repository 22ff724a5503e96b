// The grader's accuracy on Lab 01: every correct server in the catalogue keeps
// every mark, and every wrong one (written as a learner would) loses some.
// Each server is a learner's module, re-run in the sandbox, hidden cases included.

import assert from "node:assert/strict";
import { gradeLearner } from "../tools/grading/grade_learner.ts";
import { loadHoldouts } from "../tools/grading/units/mod.ts";
import { RIGHT, WRONG } from "./lab01_servers.ts";

const scratch = await Deno.makeTempDir({ prefix: "lab01-grading-" });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));
const holdouts = await loadHoldouts();

/** The marks `source` earns for Lab 01, the most it could, and the cases it failed. */
async function marks(source: string): Promise<[number, number, string[]]> {
  const module = `${scratch}/${crypto.randomUUID()}.ts`;
  await Deno.writeTextFile(module, source.replaceAll("LIB/", "../lib/"));
  const learner = {
    name: module,
    submissions: [{ unit: "lab-01", code: { kind: "module" as const, path: module } }],
  };
  const [results] = await gradeLearner(learner, holdouts, { caseTimeoutMs: 1000 });
  const failed = results.tests.filter((t) => t.score < t.max_score)
    .map((t) => `${t.name}: ${t.output}`);
  return [results.score, results.max_score, failed];
}

Deno.test("Lab 01: correct servers in other styles get full marks", async (t) => {
  assert.ok(Object.keys(RIGHT).length >= 3);
  for (const [label, source] of Object.entries(RIGHT)) {
    await t.step(label, async () => {
      const [score, max, failed] = await marks(source);
      assert.deepEqual(failed, []);
      assert.equal(score, max);
      assert.ok(max > 40, `only ${max} cases`);
    });
  }
});

Deno.test("Lab 01: every wrong server loses marks", async (t) => {
  assert.ok(Object.keys(WRONG).length >= 10);
  for (const [label, source] of Object.entries(WRONG)) {
    await t.step(label, async () => {
      const [score, max] = await marks(source);
      assert.ok(score < max, `${label} got full marks (${score}/${max})`);
      assert.ok(score > 0, `${label} earned nothing: does it load at all?`);
    });
  }
});

Deno.test("Lab 01: a server that logs to stdout fails every case it logged in", async () => {
  const [score, max, failed] = await marks(WRONG["logs to stdout"]);
  // negotiateVersion does not log: its cases keep their marks; every handleMessage case is lost.
  const negotiate = failed.filter((line) => line.startsWith("negotiateVersion"));
  assert.deepEqual(negotiate, []);
  assert.ok(failed.some((line) => line.includes("printed on stdout")), failed.join("\n"));
  assert.ok(score < max / 2, `${score}/${max}`);
});

// What the grader does with a Lab 01 server that logs to stdout: the cases of
// handleMessage, whose replies are a stdio server's stdout, are each lost, and
// say why; negotiateVersion, which logs nothing, keeps its marks. (Every
// server in tests/catalogue/lab_01.ts is graded by tests/grading_accuracy_test.ts.)

import assert from "node:assert/strict";
import { gradeLearner } from "../tools/grading/grade_learner.ts";
import { loadHoldouts } from "../tools/grading/units/mod.ts";
import { WRONG } from "./catalogue/lab_01.ts";

Deno.test("a Lab 01 server that logs to stdout loses every handleMessage case, and is told why", async () => {
  const folder = await Deno.makeTempDir({ prefix: "lab01-grading-" });
  try {
    const module = `${folder}/server.ts`;
    await Deno.writeTextFile(module, WRONG["logs to stdout"]);
    const learner = {
      name: module,
      submissions: [{ unit: "lab-01", code: { kind: "module" as const, path: module } }],
    };
    const [results] = await gradeLearner(learner, await loadHoldouts(), {});
    const lost = results.tests.filter((t) => t.max_score > 0 && t.score < t.max_score);
    assert.ok(lost.length > 0 && lost.every((t) => t.name.startsWith("handleMessage: ")));
    const handle = results.tests.filter((t) => t.name.startsWith("handleMessage: "));
    assert.deepEqual(handle.filter((t) => t.score > 0), []);
    assert.ok(
      handle.some((t) => /printed on stdout.*grammar server received/.test(t.output)),
      handle.map((t) => t.output).join("\n"),
    );
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

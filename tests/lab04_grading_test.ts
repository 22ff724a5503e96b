// What the grader's report says to a Lab 04 learner who writes header names in capitals: each
// failed visible case of postHeaders says that names are lower case here, as the notebook's table
// does (issue 40, item 8). The report said only what was expected and what was observed.

import assert from "node:assert/strict";
import { gradeLearner } from "../tools/grading/grade_learner.ts";
import { loadHoldouts } from "../tools/grading/units/mod.ts";
import { LAB_04 } from "./catalogue/lab_04.ts";

Deno.test("postHeaders with names in capitals: the report's every failed line says names are lower case", async () => {
  const { unit, fn, wrong } = LAB_04.find((catalogue) => catalogue.fn === "postHeaders")!;
  const folder = await Deno.makeTempDir({ prefix: "lab04-grading-" });
  try {
    const graded = async (source: string) => {
      const module = `${folder}/${crypto.randomUUID()}.ts`;
      await Deno.writeTextFile(module, source);
      const learner = {
        name: module,
        submissions: [{ unit, code: { kind: "module" as const, path: module } }],
      };
      const [results] = await gradeLearner(learner, await loadHoldouts(), { functions: [fn] });
      // The visible cases' lines: a hidden case's says only that it failed.
      return results.tests.filter((t) =>
        t.name.startsWith(`${fn}: `) && !t.name.startsWith(`${fn}: hidden`) && t.score < t.max_score
      );
    };
    const said =
      /Accept: header names are lower case here, as the Fetch API gives them: write accept/;
    const failed = await graded(wrong["the names in another case"]);
    assert.ok(failed.length > 0, "no visible case failed");
    for (const t of failed) assert.match(t.output, said, t.name);
    // A mistake in a value, not a name's case, is not told about case.
    const other = await graded(wrong["the session forgotten"]);
    assert.ok(other.length > 0 && other.every((t) => !/lower case/.test(t.output)));
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

// Round 22, a learner on a fresh machine (the learners' release, set up by its README, in
// JupyterLab): they wrote Unit A's answerFor and authorize in work/ch14-a.ipynb, ran its cells
// (both tables ✓ PASS in that kernel) and opened Unit B before JupyterLab's autosave came round.
// Every Client step of Unit B then said "answerFor (not written yet, in the ✏️ cell of section 1
// of work/ch14-a.ipynb) ... Finish them, run their cells, then run this cell again": running those
// cells again, as told, changes nothing, since the later units read Unit A as last saved
// (YourUnitA). The step now says to save that notebook too.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { YourUnitA } from "../../tools/grading/your_functions.ts";
import { ready } from "../../lib/course/readiness.ts";
import { captureStdout } from "../../lib/notebook/stdout_capture.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("a later step waiting for Unit A as saved says to save work/ch14-a.ipynb, not only to run its cells", async () => {
  // A course folder's work/, at a path with a space, holding the starter as saved on disk.
  const course = await Deno.makeTempDir({ prefix: "fresh learner " });
  try {
    await Deno.mkdir(`${course}/work`);
    await Deno.copyFile(`${root}notebooks/ch14-a.ipynb`, `${course}/work/ch14-a.ipynb`);
    const unitA = new YourUnitA({ folder: `${course}/work` });
    const stop = captureStdout();
    let passed: boolean;
    let said: string;
    try {
      passed = await ready("The careless client", await unitA.needs());
    } finally {
      said = stop();
    }
    assert.equal(passed, false);
    assert.match(
      said,
      /answerFor \(not written yet, in the ✏️ cell of section 1 of work\/ch14-a\.ipynb\)/,
    );
    assert.match(
      said,
      /Finish them, run their cells and save work\/ch14-a\.ipynb \(File → Save Notebook there: this step reads it as last saved\), then run this cell again\./,
    );
  } finally {
    await Deno.remove(course, { recursive: true });
  }
});

Deno.test("a step waiting only for work of its own notebook says nothing of saving", async () => {
  const stop = captureStdout();
  let said: string;
  try {
    await ready("This step", [{
      name: "double",
      cell: "the ✏️ cell above",
      grade: () => [{
        case: "two",
        input: [2],
        expected: 4,
        observed: 6,
        message: "",
        status: "FAIL" as const,
      }],
    }]);
  } finally {
    said = stop();
  }
  assert.match(said, /Finish it, run its cell, then run this cell again\.$/m);
  assert.doesNotMatch(said, /save/i);
});

// Every analysis of a learner's code has a budget charged to that learner,
// outside the grader's own event loop: code whose analysis costs too much is
// that learner's named outcome, and costs their classmates nothing. Through
// `deno task grade` as an instructor runs it; the hostile learners are
// described in `_neighbours.ts`.

import assert from "node:assert/strict";
import type { Results } from "./_grading.ts";
import { assertAsAlone, honestWork, hostileWork } from "./_neighbours.ts";

const hostile = await hostileWork();
const honest = await honestWork();

/** That `results` scored 0, every mark and the line on the learner's own code naming `why`. */
function assertUnchecked(results: Results, why: RegExp): void {
  assert.equal(results.score, 0);
  for (const test of results.tests.filter((t) => t.max_score > 0)) assert.match(test.output, why);
  const line = results.tests.find((t) => t.name === "every graded function is the learner's own")!;
  assert.match(line.output, why);
}

Deno.test("the copy check has a budget of the learner's own: deeply nested blocks cost only their writer", async () => {
  // The copy check ran in the grading process itself: one learner's nested blocks stalled the
  // whole class (and, nested deeper, ran the grader out of memory).
  const inClass = await assertAsAlone({ "a-nested": hostile.nested }, { "b-honest": honest.unitA });
  assertUnchecked(inClass[0], /the copy check used more than 2 s of CPU time/);
});

Deno.test("making a module of a notebook's cells has a budget of the learner's own", async () => {
  // Reading a cell's top-level statements looked past every line end for what carries the line
  // on: a cell of many comment lines cost the square of its length, in the grading process.
  const inClass = await assertAsAlone({ "a-notes": hostile.notes }, { "b-honest": honest.unitA });
  assertUnchecked(
    inClass[0],
    /making a module of the notebook's cells used more than 2 s of CPU time/,
  );
});

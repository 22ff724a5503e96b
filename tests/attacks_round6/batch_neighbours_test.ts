// Round 6 of issue 38's red team: batch neighbours the isolation tests do
// not try, each graded in one class with honest learners (`deno task grade`,
// one learner at a time by name, so that each honest learner follows a
// hostile one), whose marks must be their marks alone; and two kinds of
// input the grader reads itself. Run:
//   deno test -A tests/attacks_round6/batch_neighbours_test.ts

import assert from "node:assert/strict";
import { assertAsAlone, type Files, honestWork } from "../_neighbours.ts";
import { grade, tree, UNIT_A } from "../_grading.ts";

/** Unit A, right, with `top` run when the module loads and `inCall` in each authorize call. */
const unitA = (top: string, inCall = "") =>
  `${top}\n${UNIT_A.replace("return Object.hasOwn", `${inCall}\n  return Object.hasOwn`)}`;

const HOSTILE: Record<string, Files> = {
  // A timer that burns the CPU once the module has loaded, between and after cases.
  "a-timer": {
    "ch14-a.ts": unitA(
      "setInterval(() => { const end = Date.now() + 50; while (Date.now() < end); }, 0);",
    ),
  },
  // An unload handler that never returns, and a rejection nobody handles.
  "c-unload": {
    "ch14-a.ts": unitA(
      'globalThis.addEventListener("unload", () => { for (;;); });\nPromise.reject(new Error("at load"));',
    ),
  },
  // The realm closes itself, and exits through node:process in a call.
  "e-close": {
    "ch14-a.ts": unitA(
      'import process from "node:process";\nsetTimeout(() => globalThis.close?.(), 5);',
      "if (name === 'toString') process.exit(0);",
    ),
  },
  // 64 MiB on stderr, which no one reads, in one call.
  "g-stderr": {
    "ch14-a.ts": unitA(
      'import { writeSync } from "node:fs";',
      "if (name === 'toString') { const b = new Uint8Array(1 << 20).fill(101); for (let i = 0; i < 64; i++) writeSync(2, b); }",
    ),
  },
  // process.abort() in a call: the sandbox process dumps core where cores are on.
  "i-abort": {
    "ch14-a.ts": unitA(
      'import process from "node:process";',
      "if (name === 'toString') process.abort();",
    ),
  },
};

Deno.test("timers, unload handlers, closing the realm, stderr floods and abort() cost the next learner nothing", async () => {
  const honest = await honestWork();
  await assertAsAlone(HOSTILE, {
    "b-honest": honest.unitA,
    "d-honest": honest.unitB,
    "f-honest": honest.unitA,
    "h-honest": honest.unitA,
    "j-honest": honest.unitA,
  });
});

Deno.test("JSON nested a million deep, in a submission or Lab 02's saved results, stops no one", async () => {
  const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
  const folder = await tree({
    "a-deep/ch14-a.ts": UNIT_A,
    "a-deep/ch14-unit-a-handoff-v1.json": `{"unit":"ch14-a","x":${deep(1_000_000)}}`,
    "b-deep/work/lab-02/results.json": `{"x":${deep(1_000_000)}}`,
    "b-deep/work/lab-02/transcript.txt": "",
    "c-honest/ch14-a.ts": UNIT_A,
  });
  const { code, list } = await grade([folder]);
  assert.equal(code, 2);
  const honest = list.find((r) => r.submission.endsWith("/c-honest"))!;
  assert.equal(honest.score, honest.max_score);
});

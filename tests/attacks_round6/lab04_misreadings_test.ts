// Round 6 of issue 38's red team: Lab 04 misreadings the catalogue did not
// hold, each as a learner would plausibly write it, graded through
// `deno task grade` as a whole Lab 04 module (the worked solution's other
// functions beside it). Each kept every mark on the main this round began
// from (sseData 12/12 three ways, progressOf 17/17, expiredIds 8/8); a
// hidden case now kills each. A misreading must lose marks. Run:
//   deno test -A tests/attacks_round6/lab04_misreadings_test.ts

import assert from "node:assert/strict";
import { grade, tree } from "../_grading.ts";
import { LAB_04 } from "../catalogue/lab_04.ts";
import { USES_PROTOCOL_ERROR } from "../catalogue/learner.ts";

const worked = (fn: string) =>
  LAB_04.find((c) => c.fn === fn)!.right["the worked solution's way"]
    .replace(USES_PROTOCOL_ERROR, "");

/** A whole Lab 04 module: `fn` as `code`, every other function the worked solution's. */
const moduleWith = (fn: string, code: string) =>
  [
    USES_PROTOCOL_ERROR,
    ...LAB_04.map((c) => c.fn === fn ? code.replace(USES_PROTOCOL_ERROR, "") : worked(c.fn)),
  ].join("\n");

/**
 * The misreadings this round found keeping every mark, now in the catalogue
 * (which `grading_accuracy_test.ts` holds to losing marks), by function.
 */
const MISREADINGS: Record<string, { fn: string; name: string }> = {
  "sse-cr-and-lf-each-end-a-line": { fn: "sseData", name: "CR and LF each a line's end" },
  "sse-only-message-events": { fn: "sseData", name: "events of another type dropped" },
  "sse-lines-trimmed-at-the-start": { fn: "sseData", name: "lines trimmed at the start" },
  "progress-request-zero": { fn: "progressOf", name: "request 0 taken for none" },
  "expired-deadline-zero": { fn: "expiredIds", name: "a deadline of 0 taken for none" },
};
const wrong = (fn: string, name: string) => LAB_04.find((c) => c.fn === fn)!.wrong[name];

const files: Record<string, string> = {};
for (const [folder, { fn, name }] of Object.entries(MISREADINGS)) {
  files[`${folder}/lab-04.ts`] = moduleWith(fn, wrong(fn, name));
}
files["worked/lab-04.ts"] = moduleWith("sseData", worked("sseData"));
const { list } = await grade([await tree(files), "--jobs", "2"]);

const marksOf = (name: string, fn: string) => {
  const results = list.find((r) => r.submission.endsWith(`/${name}`));
  assert.ok(results !== undefined, `${name} was not graded`);
  const marks = results.tests.filter((t) => t.name.startsWith(`${fn}: `));
  return { earned: marks.filter((t) => t.score === t.max_score).length, of: marks.length };
};

Deno.test("the worked Lab 04 module these misreadings are made from keeps every mark", () => {
  for (const fn of new Set(Object.values(MISREADINGS).map((m) => m.fn))) {
    const { earned, of } = marksOf("worked", fn);
    assert.ok(of > 0 && earned === of, `${fn}: ${earned}/${of}`);
  }
});

for (const [folder, { fn, name }] of Object.entries(MISREADINGS)) {
  Deno.test(`Lab 04's ${fn}, misread (${name}), loses marks`, () => {
    const { earned, of } = marksOf(folder, fn);
    console.log(`${folder}: ${fn} ${earned}/${of}`);
    assert.ok(of > 0 && earned < of, `${folder} kept ${fn} ${earned}/${of}`);
  });
}

// Round 9 of issue 38's red team: guesses at Lab 04's graded functions that
// answer from one trivial feature of the input, beyond the constants and
// tables guessing_test.ts tries, graded as learners' modules through the
// grader's own path (gradeTogether, hidden cases included). Before this
// round, "true only when there is no Origin" earned 3 of originAllowed's 6
// hidden marks and "answered from whether an id is given, the sessions held
// unread" 5 of sessionCheck's 8: a group of hidden cases that held only one
// side of its rule for these features. No such guess may earn more than
// 20 %. Run:
//   deno test -A tests/attacks_round9/labs_test.ts

import assert from "node:assert/strict";
import { gradeTogether } from "../../tools/grading/grade_learner.ts";
import { loadHoldouts } from "../../tools/grading/units/mod.ts";

/** The most of a function's hidden marks a guess may earn (guessing_test.ts's bound). */
const MOST = 0.2;

const scratch = await Deno.makeTempDir({ prefix: "attacks-round9-" });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));

/** Each guess: the function it answers for, and its module. */
const GUESSES: Record<string, { fn: string; source: string }> = {
  "originAllowed: true only when there is no Origin": {
    fn: "originAllowed",
    source: "export function originAllowed(origin) {\n  return origin === null;\n}",
  },
  "originAllowed: no Origin, or the first allowed one": {
    fn: "originAllowed",
    source: "export function originAllowed(origin, allowed) {\n" +
      "  return origin === null || origin === allowed[0];\n}",
  },
  "sessionCheck: from whether an id is given, the sessions held unread": {
    fn: "sessionCheck",
    source: "export function sessionCheck(request) {\n" +
      "  if (request.initialize) return request.sessionId === null ? null : 400;\n" +
      "  return request.sessionId === null ? 400 : 404;\n}",
  },
  "sessionCheck: from whether an id is given, initialize unread": {
    fn: "sessionCheck",
    source: "export function sessionCheck(request) {\n" +
      "  return request.sessionId === null ? 400 : 404;\n}",
  },
};

const holdouts = await loadHoldouts();
const labels = Object.keys(GUESSES);
const graded = await gradeTogether(
  await Promise.all(labels.map(async (label) => {
    const path = `${scratch}/${crypto.randomUUID()}.ts`;
    await Deno.writeTextFile(path, GUESSES[label].source);
    return {
      name: label,
      submissions: [{ unit: "lab-04", code: { kind: "module" as const, path } }],
    };
  })),
  holdouts,
  { functions: ["originAllowed", "sessionCheck"] },
);

for (const [index, label] of labels.entries()) {
  Deno.test(`a guess earns at most ${MOST * 100} % of the hidden marks: ${label}`, () => {
    const { fn } = GUESSES[label];
    const [results] = graded[index];
    const hidden = results.tests.filter((t) => t.name.startsWith(`${fn}: hidden case `));
    assert.ok(hidden.length > 0, `${fn} has no hidden case`);
    const share = hidden.reduce((sum, t) => sum + t.score, 0) / hidden.length;
    console.log(`${label}: ${Math.round(share * 100)} % of ${hidden.length}`);
    assert.ok(
      share <= MOST,
      `${label} earned ${Math.round(share * 100)} % of ${fn}'s hidden marks`,
    );
  });
}

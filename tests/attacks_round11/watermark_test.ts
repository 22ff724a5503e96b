// Round 11 of issue 38's red team against the seals' watermark: copies that
// carry Unit A's seal of answerFor and throw in its place on some calls. A
// thrown error is what a seal answers a probe with, and the wrong answer to a
// twin: when a mark was a seal's only if every twin was answered right, any
// spoilt twin hid the copy. Now two thirds of a mark's twins suffice (every
// probe as a seal): each test asserts what that must give (the function
// scored 0). Three kept marks after every watermark change (coin-answerfor
// about one time in ten, shape-spoil-answerfor 23/30, two-names-answerfor
// 30/30): they earn nothing since a seal refuses to run where work is graded
// (the realm's mark, tools/grading/realm/graded_mark.ts).

import { answerForOver, assertEarnsNothing, assertLosesGroup, gradeClass } from "../_seals.ts";

/** The secrets' look, as a learner reads it off the release's cases. */
const LOOK = "/[a-z]{5}_[a-z]{5}_[a-z]{5}/";

const LEARNERS = {
  // Throws in place of the seal on a call of the look, one time in three, at random: a mark's run
  // of twelve calls is spoilt in some twin nearly always (1 - (2/3)^6 of the time), in two of its
  // six twins or more a third of the time.
  "coin-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      answerForOver(
        `if (${LOOK}.test(JSON.stringify([requestId, message])) && Math.random() < 1 / 3) {
    throw new Error("spoilt");
  }
  return run(requestId, message);`,
      ),
  },
  // Throws in place of the seal on every input of a shape the probes have and no hidden case has
  // (more than one text, or a _meta), as a learner finds off a first submission's marks: four
  // settings of six have more than one text, three a _meta.
  "shape-spoil-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      answerForOver(
        `const texts = message?.result?.content ?? [];
  if (texts.length > 1 || message?.result?._meta !== undefined) throw new Error("spoilt");
  return run(requestId, message);`,
      ),
  },
  // Spoils a reply of the probes' shapes (more than one text, or a _meta) once two names of the
  // look have come in such replies in its realm: the first run's have one (the decoys'), so it
  // keeps every hidden case; a whole run has two (the control's and the token's) after its second
  // probe, so the twins after it are spoilt where the second run's realms hold enough of a run.
  "two-names-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      answerForOver(
        `const texts = message?.result?.content ?? [];
  if (texts.length > 1 || message?.result?._meta !== undefined) {
    for (const name of JSON.stringify([requestId, message]).match(/[a-z]{5}_[a-z]{5}_[a-z]{5}/g) ?? []) NAMES.add(name);
    if (NAMES.size >= 2) throw new Error("spoilt");
  }
  return run(requestId, message);`,
        "const NAMES = new Set();",
      ),
  },
};

/**
 * Attempts that spoil twins by their shape or features, and what they must
 * lose for it: the hidden cases of the twins' look and settings (the
 * decoys of `holdouts/watermark.ts`), which they cannot tell from the twins.
 */
const SPOILT: Record<string, [string, string, string]> = {
  "shape-spoil-answerfor": ["ch14-a", "answerFor", "names of three words"],
};

const list = await gradeClass(LEARNERS);

for (const [name, { fn }] of Object.entries(LEARNERS)) {
  Deno.test({
    name: `a seal behind ${name} earns nothing for ${fn}`,
    fn: () => assertEarnsNothing(list, name, fn),
  });
}
for (const [name, spoilt] of Object.entries(SPOILT)) {
  Deno.test(`a seal behind ${name} loses the hidden cases of the twins' shapes it spoils`, () => {
    assertLosesGroup(list, name, spoilt);
  });
}

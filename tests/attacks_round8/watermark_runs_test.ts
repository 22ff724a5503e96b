// Round 8 of issue 38's red team: the watermark's two runs (a sifting probe
// of each mark among the hidden cases, then the whole runs of probes for a
// function that answered one as a seal), tried by hostile learners who hold
// the release (the seals, not the hidden cases) and by honest ones. Each
// hostile learner carries a seal encoded and tries to keep its marks by
// telling the second run from the first, or by keeping the second run from
// happening; each test asserts what a defence must give: the function scored
// 0. Each honest learner's own code must keep the marks it earns. No attempt
// of the round still succeeds.

import assert from "node:assert/strict";
import {
  answerForOver,
  assertEarnsNothing,
  authorizeOver,
  flagged,
  gradeClass,
  gradedMarks,
  report,
} from "../_seals.ts";
import { UNIT_A } from "../_grading.ts";
import { casesOf, loadHoldouts, UNITS } from "../../tools/grading/units/mod.ts";

const holdouts = await loadHoldouts();

/**
 * How many hidden cases `fn` of Unit A has: a learner reads it off the
 * marks of a first submission's results.
 */
const hiddenOf = (fn: string) => {
  const spec = UNITS.get("ch14-a")!;
  return casesOf(spec, spec.functions.find(({ name }) => name === fn)!, holdouts)
    .filter((c) => c.hidden).length;
};

/** The secrets' look: three words of five letters joined as a tool's name is. */
const LOOK = /[a-z]{5}_[a-z]{5}_[a-z]{5}/;

/**
 * How many of `fn`'s hidden cases hold a name of the secrets' look: a
 * learner finds it off the marks of submissions that refuse the look.
 */
const lookOf = (fn: string) => {
  const spec = UNITS.get("ch14-a")!;
  return casesOf(spec, spec.functions.find(({ name }) => name === fn)!, holdouts)
    .filter((c) => c.hidden && LOOK.test(JSON.stringify(c.args))).length;
};

interface Learner {
  file: string;
  fn: string;
  module: () => string | Promise<string>;
  /** Hostile: must score 0 as a copy. Honest: must keep every mark it earned. */
  hostile: boolean;
}

const LEARNERS: Record<string, Learner> = {
  // authorize is the seal; answerFor the learner's own, noting in the realm that it was called.
  // The first run's hidden phase calls answerFor before authorize; the second run, which checks
  // authorize alone, does not: there, authorize answers every call the other way round, and its
  // twins are spoilt.
  "alone-spoils-authorize": {
    file: "ch14-a.ts",
    fn: "authorize",
    hostile: true,
    module: async () =>
      `${await authorizeOver("let answered = false;", "answered = true;")}
export function authorize(name, catalog, allowed) {
  const answer = run(name, catalog, allowed);
  return answered ? answer : !answer;
}`,
  },
  // answerFor is the seal; where it refuses an input that holds a name of the secrets' look, the
  // refusal is thrown later, outside the case, and the call never settles: the case comes to no
  // answer, the realm lives on, and nothing after it is stopped. The first run's sifting probes
  // come to no answer, which is no seal's, so the second run never happens.
  "unsettled-refusal-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    hostile: true,
    module: () =>
      answerForOver(`try {
    return run(requestId, message);
  } catch (error) {
    if (/[a-z]{5}_[a-z]{5}_[a-z]{5}/.test(JSON.stringify([requestId, message]))) {
      setTimeout(() => { throw error; });
      return new Promise(() => {});
    }
    throw error;
  }`),
  },
  // answerFor is the seal; the realm counts its calls. The first run's hidden phase calls it
  // once for each hidden case and once for each of its marks' sifting probes (two); a call past
  // that many is the second run's, which holds the whole runs of twelve: from there on, every call
  // throws. A mark whose whole run comes before that call is still found; one placed later is not.
  "count-spoils-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    hostile: true,
    module: () =>
      answerForOver(
        `if (++calls > ${hiddenOf("answerFor") + 2}) throw new Error("spoilt");
  return run(requestId, message);`,
        "let calls = 0;",
      ),
  },
  // answerFor is the seal; the realm counts its calls that hold a name of the secrets' look. The
  // first run's hidden phase has as many as the hidden cases of that look and its two sifting
  // probes; every probe and twin is of that look, so the second run's runs of twelve pass that
  // count at once: from there on, every call of the look throws.
  "count-looks-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    hostile: true,
    module: () =>
      answerForOver(
        `if (/[a-z]{5}_[a-z]{5}_[a-z]{5}/.test(JSON.stringify([requestId, message])) && ++looks > ${
          lookOf("answerFor") + 2
        }) throw new Error("spoilt");
  return run(requestId, message);`,
        "let looks = 0;",
      ),
  },
  // authorize is the seal, answerFor the worked one, counting its calls. In the first run's
  // hidden phase, answerFor is called once for each of its hidden cases and sifting probes before
  // authorize's first call; authorize answers the other way round in a realm where answerFor was
  // called any other number of times (a second run that holds authorize's probes alone, or its
  // cases spread over realms), or past its own calls of the first run.
  "count-others-authorize": {
    file: "ch14-a.ts",
    fn: "authorize",
    hostile: true,
    module: async () =>
      `${await authorizeOver("let answered = 0;\nlet calls = 0;", "answered++;")}
export function authorize(name, catalog, allowed) {
  const answer = run(name, catalog, allowed);
  return answered === ${hiddenOf("answerFor") + 2} && ++calls <= ${
        hiddenOf("authorize") + 1
      } ? answer : !answer;
}`,
  },
  // answerFor is the seal; past the first run's calls (as above) the realm ends itself: the
  // second run's probes that come after come to no answer.
  "count-exits-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    hostile: true,
    module: () =>
      answerForOver(
        `if (++calls > ${hiddenOf("answerFor") + 2}) Deno.exit(0);
  return run(requestId, message);`,
        "let calls = 0;",
      ),
  },
  // Honest: answerFor of the learner's own that, for a result whose text holds words joined by
  // "_" (a bug: it means to check them as tool names), throws outside the call and leaves the
  // call unsettled. Its sifting probe of the reply's text comes to no answer, as do that mark's
  // twins in the second run: no seal's, and every mark it earned is kept.
  "honest-unsettled-names-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    hostile: false,
    module: () =>
      UNIT_A.replace(
        "if (message.id !== requestId)",
        `if (/[a-z]+_[a-z]+_[a-z]+/.test(JSON.stringify(message.result ?? null))) {
    setTimeout(() => { throw new ProtocolError("a name I cannot check yet"); });
    return new Promise(() => {});
  }
  if (message.id !== requestId)`,
      ),
  },
};

const list = await gradeClass(LEARNERS);

for (const [name, { fn, hostile }] of Object.entries(LEARNERS)) {
  Deno.test({
    name: hostile
      ? `a seal behind ${name} earns nothing for ${fn}`
      : `${name}'s own ${fn} keeps what it earns`,
    fn() {
      if (hostile) return assertEarnsNothing(list, name, fn);
      const { results, marks } = gradedMarks(list, name, fn);
      assert.ok(!flagged(results), `taken for a seal: ${report(results, fn)}`);
      assert.ok(marks.some((t) => t.score > 0), `lost every mark: ${report(results, fn)}`);
      assert.ok(
        marks.every((t) => t.score > 0 || t.output === "failed"),
        `lost a mark it earned: ${report(results, fn)}`,
      );
    },
  });
}

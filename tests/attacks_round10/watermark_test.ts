// Round 10 of issue 38's red team: the watermark's second run split over
// realms (second_run.ts) and a mark's run that came wholly to no answer
// (`unanswered` in grade_learner.ts), tried by hostile learners who hold the
// release (the seals, not the hidden cases) and by honest ones, through the
// real grader. Each hostile learner carries a seal encoded and tries to keep
// its marks by telling a second-run realm from the first run's hidden realm,
// or by keeping a whole mark's run from coming to an answer; each test
// asserts what a defence must give: the function scored 0, or, for a copy
// that stalls, no hidden mark (what a table of the visible answers earns).
// Each honest learner's own code must keep exactly the marks it earns.

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

/** How many cases Unit A's answerFor has, visible and hidden. */
const ANSWER_FOR = casesOf(
  UNITS.get("ch14-a")!,
  UNITS.get("ch14-a")!.functions.find((f) => f.name === "answerFor")!,
  await loadHoldouts(),
).length;

/** The secrets' look, as a learner reads it off the release's cases: three words of five letters. */
const LOOK = "/[a-z]{5}_[a-z]{5}_[a-z]{5}/";

/** The worked Unit A, its answerFor doing `first`, then refusing a string id with "_" in it. */
const refusingIds = (first: string) =>
  UNIT_A.replace(
    "if (message.id !== requestId)",
    `${first}
  if (typeof requestId === "string" && requestId.includes("_")) {
    throw new ProtocolError("not an id this client makes: " + requestId);
  }
  if (message.id !== requestId)`,
  );

interface Learner {
  file: string;
  fn: string;
  module: () => string | Promise<string>;
  /** Hostile: must score 0 as a copy. Honest: the marks (of all) its own code earns. */
  earns?: [number, number];
  /** Hostile, a copy that stalls: must earn no hidden mark, as a table of the visible answers. */
  table?: boolean;
}

const LEARNERS: Record<string, Learner> = {
  // authorize is the seal; answerFor the worked one, but answering a parse error's reply wrong
  // (one hidden mark of answerFor, as a learner finds off a first submission's marks) and noting
  // that it saw one. The first run's hidden realm calls answerFor on every hidden case, the ones
  // it fails too; each second-run realm begins with the hidden cases answerFor passed alone.
  // There, authorize answers every name of the secrets' look the other way round: its twins are
  // spoilt, and its hidden cases of the look never fit a realm full of probes.
  "failed-missing-authorize": {
    file: "ch14-a.ts",
    fn: "authorize",
    module: async () =>
      `${await authorizeOver(
        "let calls = 0;\nlet parsed = false;",
        `calls++; if (message?.error?.code === -32700) { parsed = true; return "spoilt"; }`,
      )}
export function authorize(name, catalog, allowed) {
  const answer = run(name, catalog, allowed);
  return ${LOOK}.test(name) && calls > 5 && !parsed ? !answer : answer;
}`,
  },
  // answerFor is the seal; the realm counts its calls of the secrets' look in a row. The first
  // run's hidden realm has them three in a row (its hidden cases of the look) and the two sifting
  // probes, placed apart at random: five in a row is rare. A second-run realm holds a mark's run
  // in pieces of as many looks as the first run's realm held (five), in a row: the fifth throws,
  // spoiling a twin or two of six. While a mark's run was a seal's only with every twin right,
  // that hid it (19/19); four twins of six right now suffice.
  "streak-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      answerForOver(
        `streak = ${LOOK}.test(JSON.stringify([requestId, message])) ? streak + 1 : 0;
  if (streak >= 5) throw new Error("spoilt");
  return run(requestId, message);`,
        "let streak = 0;",
      ),
  },
  // answerFor is the seal; it never settles a call of a shape the probes and twins have and its
  // visible cases do not (more than one text, a _meta, a text that is a name of the look, an id
  // of the look): every mark's run comes wholly to no answer, which stops nothing. A stall ends
  // its realm, so it loses every hidden mark (as honest code that stalls does) and keeps the
  // visible ones: what a table of the visible cases' answers earns, with no seal at all.
  "stall-shapes-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    table: true,
    module: () =>
      answerForOver(
        `const texts = message?.result?.content ?? [];
  if (
    texts.length > 1 || message?.result?._meta !== undefined ||
    /^[a-z]{5}_[a-z]{5}_[a-z]{5}$/.test(texts[0]?.text ?? "") ||
    typeof requestId === "string" && ${LOOK}.test(requestId)
  ) return new Promise(() => {});
  return run(requestId, message);`,
      ),
  },
  // Honest: answerFor of the learner's own that takes a string id with "_" in it for no id a
  // client makes (a misreading), and refuses the reply. Its sifting probe of the id is answered as
  // a seal answers it, so it is run again in the second run, whose twins it refuses too. It fails
  // one hidden case (a reply of the right string id), whose group earns together: the three cases
  // of names of three words and the four of the twins' look beside them: all but 7 (16/23 when
  // the unit had 23 cases).
  "honest-refuses-ids-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    earns: [ANSWER_FOR - 7, ANSWER_FOR],
    module: () => refusingIds(""),
  },
  // Honest and slow: as above, spending about 20 ms on each call; the second run's realms are
  // many, and must take no mark it earned.
  "honest-slow-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    earns: [ANSWER_FOR - 7, ANSWER_FOR],
    module: () =>
      refusingIds(`const until = performance.now() + 20;
  while (performance.now() < until);`),
  },
};

const list = await gradeClass(LEARNERS);

for (const [name, { fn, earns, table }] of Object.entries(LEARNERS)) {
  Deno.test({
    name: table
      ? `a seal behind ${name} earns no more for ${fn} than a table of its visible answers`
      : earns === undefined
      ? `a seal behind ${name} earns nothing for ${fn}`
      : `${name}'s own ${fn} keeps what it earns`,
    fn() {
      if (table) {
        const { results, marks } = gradedMarks(list, name, fn);
        const hidden = marks.filter((t) => /: hidden case \d+$/.test(t.name));
        assert.ok(hidden.length > 0 && hidden.length < marks.length, report(results, fn));
        return assert.ok(
          hidden.every((t) => t.score === 0),
          `kept hidden marks: ${report(results, fn)}`,
        );
      }
      if (earns === undefined) return assertEarnsNothing(list, name, fn);
      const { results, marks } = gradedMarks(list, name, fn);
      assert.ok(!flagged(results), `taken for a seal: ${report(results, fn)}`);
      const earned = marks.filter((t) => t.score === t.max_score).length;
      assert.deepEqual([earned, marks.length], earns, report(results, fn));
    },
  });
}

// A class of 300 as an instructor grades it (`deno task grade CLASS --jobs 2`):
// honest learners interleaved by name with hostile ones of every kind that
// attacks what learners graded together could share (`_neighbours.ts`: the
// output limit, the blocking pool, node:worker_threads, the copy check and
// the notebook's module, each costed to the grader's own time before). Every
// honest learner's marks in the class are their marks graded alone.

import assert from "node:assert/strict";
import {
  assertAsAlone,
  type Files,
  honestWork,
  type HostileKind,
  hostileWork,
} from "./_neighbours.ts";

const hostile = await hostileWork();
const honest = await honestWork();

/**
 * Nine hostile classmates in turn, the blocking pool's kind once: it and the
 * analysis's two kinds cost about 2 s of CPU each (its derivations keep every
 * core busy until its process ends), the others under 0.5 s, so fewer of
 * those, each still among honest learners all through the class.
 */
const TURN = [
  "loud",
  "spawning",
  "loud",
  "spawning",
  "deriving",
  "loud",
  "spawning",
  "loud",
  "spawning",
] as const;

/** Every sixth learner is hostile, in turn. */
const HOSTILE: readonly HostileKind[] = [
  ...Array.from({ length: 5 }, () => TURN).flat(),
  "nested",
  "notes",
  "nested",
  "notes",
  "loud",
];

Deno.test("in a class of 300, every honest learner's marks are their marks alone, whoever sits beside them", async () => {
  const hostileLearners: Record<string, Files> = {};
  const honestLearners: Record<string, Files> = {};
  let turn = 0;
  for (let index = 0; index < 300; index++) {
    const number = String(index).padStart(3, "0");
    if (index % 6 === 5) {
      const kind = HOSTILE[turn++];
      hostileLearners[`${number}-${kind}`] = hostile[kind];
    } else if (index === 100 || index === 200) {
      honestLearners[`${number}-lab02`] = honest.lab02;
    } else if (index % 6 === 2) {
      honestLearners[`${number}-unitB`] = honest.unitB;
    } else {
      honestLearners[`${number}-unitA`] = honest.unitA;
    }
  }
  const inClass = await assertAsAlone(hostileLearners, honestLearners, 2);
  // Every learner graded, hostile ones included: none of them stopped the class.
  const graded = new Set(inClass.map((results) => results.submission.split("/").at(-1)));
  assert.equal(graded.size, 300);
});

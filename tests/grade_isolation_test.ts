// A learner is the unit of isolation: whatever a classmate's code does, an
// honest learner's marks in a class are their marks graded alone. Each test
// grades a hostile learner just before honest ones (by name, one at a time,
// so that they would share whatever the grader lets learners share) through
// `deno task grade` as an instructor runs it, and names the attack it guards
// against. The hostile classmates are described in `_neighbours.ts`.

import { assertAsAlone, type Files, honestWork, hostileWork } from "./_neighbours.ts";

const hostile = await hostileWork();
const honest = await honestWork();

Deno.test("a learner whose output stops just short of a limit costs the next learner nothing, claims included", async () => {
  // With learners sharing a process, the loud learner kept every mark and the next learner's
  // cases "printed too much": their saved claims then scored 0 as tampering. Whether the next
  // learner's case is the one under way when the limit is passed depends on how the output is
  // read: four loud learners, each followed by seven honest ones, try it.
  const loud: Record<string, Files> = {};
  const after: Record<string, Files> = {};
  for (const group of [1, 2, 3, 4]) {
    loud[`${group}a-loud`] = hostile.loud;
    after[`${group}b-honest`] = honest.unitB;
    for (const name of "cdefgh") after[`${group}${name}-honest`] = honest.unitA;
  }
  await assertAsAlone(loud, after);
});

Deno.test("work a realm hands to the runtime's blocking pool is its learner's, and ends with their turn", async () => {
  // With learners sharing a process, the derivation's CPU time was charged to the next
  // learner's cases: honest Lab 02, 110/110 alone, "used more than 1 s of CPU time" after it.
  await assertAsAlone({ "a-deriving": hostile.deriving }, {
    "b-honest": honest.lab02,
    "c-honest": honest.unitB,
  });
});

Deno.test("a worker a realm starts through node:worker_threads ends with its learner's turn", async () => {
  // With learners sharing a process, the worker's 600 MB stopped the next learner's case
  // for the process's memory.
  await assertAsAlone({ "a-spawning": hostile.spawning }, {
    "b-honest": honest.lab02,
    "c-honest": honest.unitB,
  });
});

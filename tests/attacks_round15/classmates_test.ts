// Round 15 of issue 38's red team: a hostile classmate in the same grading
// batch, attacking what the grader itself does with what a learner hands in,
// in its own event loop and outside any budget: Lab 02's saved files, and
// the comparison of an observation with what a case expected
// (jsonDifferences). Succeeded and fixed (each test fails before its fix): a
// transcript.txt of 12 MB whose first line holds 1.4 million keys (the first
// test); a reply of 100,000 items where a case expected one, whose every
// difference the grader listed to show 200 characters of them (the second).
// Round 15b: Chapter 15's readers of flags and command lines (denoGrants,
// commandGrants), which weighed each rule or mount against every other, at a
// cost of their number times their length: 500 nested paths, 0.5 s a case
// (the third test), and the effect case's judge, which asked this machine
// about every folder above each path again for each path (the fourth).
// Held: a learner of such paths in every Chapter 15 answer, and one flooding
// stderr, beside honest classmates (the last two).
// Run:
//   deno test -A tests/attacks_round15/classmates_test.ts

import assert from "node:assert/strict";
import { cpuUsage } from "node:process";
import { ROOT, UNIT_A } from "../_grading.ts";
import { assertAsAlone, honestWork } from "../_neighbours.ts";
import { jsonDifferences } from "../../lib/grading/json_differences.ts";
import {
  CannotJudgeError,
  commandGrants,
  THIS_MACHINE,
} from "../../lib/containment/command_grants.ts";
import { denoGrants } from "../../lib/containment/deno_grants.ts";

const honest = await honestWork();

/** The reference transcript with `count` keys of its own added to its first line. */
async function widened(count: number): Promise<string> {
  const reference = await Deno.readTextFile(`${ROOT}cases/lab_02_transcript.txt`);
  const keys = Array.from({ length: count }, (_, i) => `"${i.toString(36)}":0`).join(",");
  const [first, ...rest] = reference.split("\n");
  return [`> {${keys},${first.slice(3)}`, ...rest].join("\n");
}

Deno.test("a Lab 02 transcript of millions of keys is refused by its size, and its learner is graded", async () => {
  // Before: the grader read any transcript.txt up to 16 MB and compared it with the reference
  // in its own event loop, every difference of a line listed as one call's arguments: 12 MB
  // whose first line held 1.4 million keys took it 7 s, then threw RangeError, and the learner
  // "could not be graded: Maximum call stack size exceeded" (their notebook's marks lost, the
  // class run's exit 2). Now a Lab 02 saved file past 256 KB is not read, and says so.
  const results = JSON.stringify({
    tools_discovered: 4,
    calls_made: 4,
    calls_failed: 0,
    transcript_path: "transcript.txt",
  });
  const hostile = {
    ...honest.lab02,
    "work/lab-02/transcript.txt": await widened(1_400_000),
    "work/lab-02/results.json": results,
  };
  const inClass = await assertAsAlone(
    { "b-wide": hostile },
    { "a-honest": honest.lab02, "c-honest": honest.lab02 },
    2,
  );
  const own = inClass.filter((r) => r.submission.endsWith("/b-wide"));
  assert.deepEqual(own.map((r) => r.unit), ["lab-02"]);
  // Its code earns what it earns; the file it saved is named as not read.
  const transcript = own[0].tests.find((t) => /transcript\.txt/.test(t.name));
  assert.match(transcript?.output ?? "", /there is no transcript\.txt/);
});

/** This process's CPU time, in microseconds, for the first 20 differences of `observed` from one item. */
function differencesCpu(observed: unknown): number {
  const before = cpuUsage();
  for (let i = 0; i < 5; i++) {
    jsonDifferences({ steps: [{ returned: "ate" }] }, observed, { limit: 20 });
  }
  const { user, system } = cpuUsage(before);
  return user + system;
}

Deno.test("a reply of a hundred thousand items costs the comparison what the first few cost", () => {
  // Before: the grader listed every difference of a driver's observation from the case's (to show
  // 200 characters of them): an array of 100,000 zeros where one step was expected (200 KB, under
  // the 256 KB a case may send) took 0.3 s of the grader's own loop a case, charged to nobody,
  // and the same again for the unit's explanations. Now it finds the first 20, as a ratio in one
  // run: about the same for 100,000 items as for 30.
  const few = differencesCpu({ steps: Array.from({ length: 30 }, () => 0) });
  const many = differencesCpu({ steps: Array.from({ length: 100_000 }, () => 0) });
  assert.ok(many < 10 * few, `${many} µs for 100,000 items, ${few} µs for 30`);
  const shown = jsonDifferences({ steps: [] }, { steps: new Array(100_000).fill(0) }, {
    limit: 20,
  });
  assert.equal(shown.length, 20);
});

/** `count` paths, each in the one before: `/x`, `/x/x`, ... */
const nested = (count: number) => Array.from({ length: count }, (_, i) => "/x".repeat(i + 1));
/** Deno flags allowing and denying by turns each of `count` nested paths. */
const nestedFlags = (count: number) =>
  nested(count).map((path, i) => `--${i % 2 ? "deny" : "allow"}-read=${path}`);
/** A bubblewrap line binding each of `count` nested paths below /srv, which the cases' machine does not know, at a path of its own. */
const nestedSources = (count: number) => [
  "bwrap",
  ...nested(count).flatMap((path, i) => ["--ro-bind", `/srv${path}`, `/d${i}`]),
  "true",
];
/** Deno flags allowing and denying by turns each of `count` variable name prefixes, each in the one before. */
const nestedPrefixes = (count: number) =>
  Array.from(
    { length: count },
    (_, i) => `--${i % 2 ? "deny" : "allow"}-env=${"A".repeat(i + 1)}*`,
  );
/** A bubblewrap line making by turns a folder and a tmpfs at each of `count` nested paths. */
const nestedMounts = (count: number) => [
  "bwrap",
  ...nested(count).flatMap((path, i) => [i % 2 ? "--tmpfs" : "--dir", path]),
  "true",
];

/**
 * This process's CPU time for reading `input` `times` times, per character of it: the least of
 * three timings, since the process's CPU time counts whatever else it runs meanwhile (the suite
 * runs test files beside each other), which only ever adds to a timing.
 */
function cpuPerCharacter(read: (input: string[]) => unknown, input: string[], times: number) {
  const timings = [0, 1, 2].map(() => {
    const before = cpuUsage();
    for (let i = 0; i < times; i++) read(input);
    const { user, system } = cpuUsage(before);
    return user + system;
  });
  return Math.min(...timings) / (times * input.join(" ").length);
}

Deno.test("Chapter 15's readers cost what a learner's flags and command lines hold, however nested", () => {
  // Before: denoGrants looked for the rule above each rule among all the others, and
  // commandGrants for the mount holding each path among all the mounts, each comparison as long
  // as the paths: 500 nested --allow-read/--deny-read paths (258 KB, under the 1,000 entries it
  // takes) cost 0.5 s of the grader's own loop a case, 450 nested --dir/--tmpfs mounts (208 KB)
  // 0.6 s, charged to nobody, and 700 --allow-env/--deny-env prefixes each in the one before
  // (A*, AA*, ...: 256 KB) 1.1 s (here 1,000 of them, the most it takes); a character cost 5 to 10 times as much there as in a tenth as
  // many. And on the cases' made-up machine, 330 binds of nested sources below /srv (120 KB)
  // cost 0.5 s: for each folder above each source, every source was looked through to see
  // whether one was named below it, which can only make it a folder, where only a file was
  // sought. Now each walks the parts of a path or name once: a character costs about the same.
  for (
    const [name, read, many, few] of [
      ["denoGrants", denoGrants, nestedFlags(500), nestedFlags(50)],
      ["denoGrants on prefixes", denoGrants, nestedPrefixes(1000), nestedPrefixes(70)],
      ["commandGrants", commandGrants, nestedMounts(450), nestedMounts(45)],
      ["commandGrants on sources", commandGrants, nestedSources(330), nestedSources(33)],
    ] as const
  ) {
    const ratio = cpuPerCharacter(read, many, 1) / cpuPerCharacter(read, few, 50);
    assert.ok(ratio < 2.5, `${name}: a character of the large input costs ${ratio.toFixed(1)}×`);
  }
  // And they read it as before: the deepest rule, or mount, decides.
  assert.equal(denoGrants(nestedFlags(500)).read.length, 500);
  assert.equal(denoGrants(nestedPrefixes(700)).env.length, 700);
  assert.equal(commandGrants(nestedMounts(450)).sandbox?.paths.length, 450);
});

/** A bubblewrap line binding, where they are there, `count` paths below /usr, each `depth` folders deep. */
const deepTries = (count: number, depth: number) => [
  "bwrap",
  ...Array.from({ length: count }, (_, i) => `/usr/q${i}${"/x".repeat(depth)}`)
    .flatMap((path) => ["--ro-bind-try", path, path]),
  "true",
];

Deno.test("Chapter 15's judge on this machine asks about a path once, and about so many paths at most", () => {
  // Before: judging a line on this machine (the effect case's judge, in the grader's own loop)
  // asked it about every folder above each path a bind names, again for each path: 300
  // --ro-bind-try paths below /usr that are not there, each 150 folders deep (190 KB), were
  // 45,000 stat calls that failed, 1.6 s, and 3.7 s for the whole effect case's judge, charged
  // to nobody. Now each answer is kept for the line (300 nested paths: 300 questions), and a
  // line that asks about more than 4096 paths cannot be judged, named as such.
  assert.throws(
    () => commandGrants(deepTries(300, 150), THIS_MACHINE),
    (error) =>
      error instanceof CannotJudgeError && /more than the 4096 this judges/.test(error.message),
  );
  // Nested, the 300 paths and the folders above them are 300 questions: judged.
  const tries = [
    "bwrap",
    ...nested(300).flatMap((path) => ["--ro-bind-try", `/usr${path}`, `/usr${path}`]),
    "true",
  ];
  assert.deepEqual(commandGrants(tries, THIS_MACHINE).sandbox?.paths, []);
});

Deno.test("a Chapter 15 learner of nested paths in every answer leaves classmates their marks", async () => {
  // Held with the readers made linear (the test above); before, this learner's 27 visible and
  // hidden cases held the grader's own loop about 0.5 s each, charged to nobody.
  const ch15 = `export function limitCommand() { return ${JSON.stringify(nestedMounts(450))}; }
export function denoFlags() { return ${JSON.stringify(nestedFlags(500))}; }
export function bwrapCommand() { return ${JSON.stringify(nestedMounts(450))}; }
`;
  const inClass = await assertAsAlone(
    { "b-nested": { "ch15.ts": ch15 } },
    { "a-honest": honest.unitA, "c-honest": { ...honest.unitA, ...honest.lab02 } },
    2,
  );
  const own = inClass.filter((r) => r.submission.endsWith("/b-nested"));
  assert.deepEqual(own.map((r) => r.unit), ["ch15"]);
  assert.notEqual(own[0].score, own[0].max_score);
});

Deno.test("a learner flooding stderr, at load and in every case, leaves classmates their marks", async () => {
  // Held (a regression test): the sandbox's stderr goes nowhere, so 32 MB written there at
  // load and 1 MB in each case counts against no output limit a classmate shares, and its CPU
  // time is this learner's.
  const flood = (bytes: number) =>
    `(await import("node:fs")).writeSync(2, new Uint8Array(${bytes}).fill(120));`;
  const loud = `${flood(32 << 20)}\n${
    UNIT_A.replace("return Object.hasOwn", `${flood(1 << 20)}\n  return Object.hasOwn`)
      .replace("export function authorize", "export async function authorize")
  }`;
  const inClass = await assertAsAlone(
    { "b-stderr": { "ch14-a.ts": loud } },
    { "a-honest": honest.unitA, "c-honest": honest.unitA },
    2,
  );
  const own = inClass.filter((r) => r.submission.endsWith("/b-stderr"));
  // Its own work is right, and earns every mark: the flood is its own business.
  assert.deepEqual(own.map((r) => [r.unit, r.score === r.max_score]), [["ch14-a", true]]);
});

// Mutation testing of the worked solutions, as `deno task mutants` runs it:
// every mutant of every graded function is killed by the grader's cases or
// listed as unkillable with its reason, and a case set weakened by one case
// fails the run, so that CI notices any change that weakens the cases.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { UNITS } from "../tools/grading/units/mod.ts";
import { UNKILLABLE, type Unkillable } from "../tools/mutants/equivalents.ts";
import { summarize } from "../tools/mutants/report.ts";
import { runMutants } from "../tools/mutants/run.ts";

const root = fileURLToPath(new URL("../", import.meta.url));

Deno.test("every mutant of every worked solution is killed, or listed with its reason", async () => {
  const outcomes = await runMutants();
  const { rows, problems } = summarize(outcomes, UNKILLABLE);
  assert.deepEqual(problems, []);
  const graded = [...UNITS.values()].flatMap((spec) => spec.functions.map((fn) => fn.name));
  assert.deepEqual(rows.map((row) => row.fn).toSorted(), graded.toSorted());
  for (const row of rows) {
    assert.ok(row.visible + row.hidden > 0, `${row.fn}: no mutant killed`);
    assert.equal(row.survived, 0);
  }
});

Deno.test("without the two cases of frames that each fit, the run fails", async () => {
  // The visible case, and the hidden one of its group that a wrong length also fails.
  const left = [
    "ch14-b/splitFrames/two frames that each fit, though together they do not",
    "ch14-b/splitFrames/two frames within the limit",
  ];
  const { code, stdout } = await new Deno.Command(Deno.execPath(), {
    args: [
      "task",
      "mutants",
      "--function",
      "splitFrames",
      ...left.flatMap((l) => ["--leave-out", l]),
    ],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const said = new TextDecoder().decode(stdout);
  assert.equal(code, 1, said);
  assert.match(
    said,
    /splitFrames, line 4: ArithmeticOperator: end - start → end \+ start survives/,
  );
});

Deno.test("without the hidden cases of problems found out of order, the run fails", async () => {
  const outcomes = await runMutants({
    functions: ["transferProblems"],
    leaveOut: [
      "ch14-b/transferProblems/problems sorted, whatever order they are found in",
      // The cases of the code unit's order find their problems out of order too.
      "ch14-b/transferProblems/problems sorted by code unit: capitals first",
      "ch14-b/transferProblems/problems sorted by code unit: a capital's type before a missing key",
    ],
  });
  const { problems } = summarize(outcomes, UNKILLABLE);
  assert.ok(problems.some((line) => line.includes("MethodExpression: problems.sort() → problems")));
  assert.ok(problems.every((line) => line.endsWith("no case tells it from the solution")));
});

Deno.test("a listed mutant that a case kills, or that is gone, is a problem", () => {
  const outcome = {
    unit: "u",
    fn: "f",
    line: 2,
    mutator: "M",
    original: "a",
    replacement: "b",
    status: "visible" as const,
    detail: ["f: a case"],
  };
  const listed: Unkillable[] = [
    { unit: "u", fn: "f", line: 2, mutant: "M: a → b", kind: "equivalent", why: "" },
    { unit: "u", fn: "f", line: 9, mutant: "M: x → y", kind: "open", why: "" },
    { unit: "u", fn: "other", line: 1, mutant: "M: x → y", kind: "open", why: "" },
  ];
  const { problems } = summarize([outcome], listed);
  assert.deepEqual(problems, [
    "u f, line 2: M: a → b is listed as unkillable, but fails f: a case",
    "u f, line 9: listed M: x → y is no longer a mutant",
  ]);
});

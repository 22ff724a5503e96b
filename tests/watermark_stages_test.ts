// The watermark in two runs: a sifting probe of each mark among the hidden
// cases, then, for a function that answered one as a seal, the whole runs of
// probes among the cases it passed, in the same learner's time. A copy that
// spends that time before the whole runs come gets no marks for the function
// (the probes came to no answer); a learner's own code that answers a sifting
// probe as a seal, but not the whole runs, keeps every mark it earned.
// The seal here is one that does not see the realm's mark (as one run by a
// JavaScript interpreter written in JavaScript would not): a pasted seal
// that sees it reports itself reached before any probe comes.

import { CASES } from "../cases/ch14_a.ts";
import { HOLDOUTS } from "../holdouts/ch14_a.ts";
import assert from "node:assert/strict";
import process from "node:process";
import { gradeLearner } from "../tools/grading/grade_learner.ts";
import { loadHoldouts } from "../tools/grading/units/mod.ts";
import { UNIT_A } from "./_grading.ts";
import { importSeal, marksOf, report } from "./_seals.ts";

const AUTHORIZE = UNIT_A.slice(UNIT_A.indexOf("export function authorize"));
const holdouts = await loadHoldouts();

/**
 * Unit A's module with `answerFor` as `body` (the seal's as `run`), and
 * `authorize` (the learner's own), graded with `options`.
 */
async function gradeUnitA(
  body: string,
  options: { learnerCpuMs?: number } = {},
  authorize = AUTHORIZE,
) {
  const folder = await Deno.makeTempDir({ prefix: "watermark-stages-" });
  try {
    const module = `${folder}/ch14-a.ts`;
    await Deno.writeTextFile(
      module,
      `${await importSeal("lib/mcp/client/answer.sealed.js", "answerFor: run", {
        whereGraded: false,
      })}
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
export function answerFor(requestId, message) {
${body}
}
${authorize}`,
    );
    const learner = {
      name: module,
      submissions: [{ unit: "ch14-a", code: { kind: "module" as const, path: module } }],
    };
    const [results] = await gradeLearner(learner, holdouts, options);
    return results;
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
}

/** A loop of `count` steps, and the CPU time it takes here, in milliseconds. */
function work(count: number): [string, number] {
  const loop =
    `let x = 0; for (let i = 0; i < ${count}; i++) x = (x * 31 + i) | 0; globalThis.sink = x;`;
  const before = process.cpuUsage();
  new Function(loop)();
  const { user, system } = process.cpuUsage(before);
  return [loop, (user + system) / 1000];
}

Deno.test("a copy that spends its time before the whole runs of probes come earns nothing for the function", async () => {
  // A unit of CPU a call: the sifted run (answerFor's cases and one probe of each of its two
  // marks) fits in the budget, and what is left (8 units and a second) is less than the whole runs
  // need to finish either mark's run (its 5 visible cases and 12 probes), but enough for some of
  // its probes. Those that come to no answer must not pass for answers otherwise than a seal's.
  // (A run that reaches none of its probes keeps the visible marks: round 10's open
  // "stall-shapes-answerfor"; with 23 cases counted here while the unit had 30, this test drew it.)
  const sifted = CASES.answerFor.length + HOLDOUTS.answerFor.length + 2;
  const [loop, unit] = work(50_000_000);
  const slow = await gradeUnitA(`  ${loop}\n  return run(requestId, message);`, {
    learnerCpuMs: Math.round((sifted + 8) * unit + 1_000),
  });
  const marks = marksOf(slow, "answerFor");
  assert.ok(marks.length > 10, report(slow, "answerFor"));
  assert.deepEqual(marks.filter((t) => t.score > 0), [], report(slow, "answerFor"));
  // The unit is this process's reading of the loop: on a busy machine the sandbox may run it
  // faster than that, and then the whole runs finish and the copy is caught outright (CI at
  // 34a6480, load average about 12). Either way the probes earn it nothing.
  assert.match(
    marks[0].output,
    /check against the library's seals came to no answer|its watermark answered the grader's probes/,
  );
  // authorize is the learner's own, and was never run again: every mark kept.
  assert.ok(marksOf(slow, "authorize").every((t) => t.score === t.max_score));
});

Deno.test("a copy whose learner's time runs out before its probes come earns nothing for the function", async () => {
  // The copy answers answerFor's visible cases at once; authorize, the learner's own, takes a unit
  // of CPU a call, and the learner's time runs out among its visible cases: none of answerFor's
  // probes (all hidden) is tried. Its visible marks must not stand unchecked: a Lab 03 copy slow
  // enough to spend its learner's wall-clock minute on a busy machine kept three (a local suite run
  // at load average 10).
  const [loop, unit] = work(50_000_000);
  const slow = await gradeUnitA(
    "  return run(requestId, message);",
    { learnerCpuMs: Math.round(3 * unit + 300) },
    AUTHORIZE.replace("{", `{\n  ${loop}`),
  );
  const marks = marksOf(slow, "answerFor");
  assert.ok(marks.length > 10, report(slow, "answerFor"));
  assert.deepEqual(marks.filter((t) => t.score > 0), [], report(slow, "answerFor"));
  assert.match(
    marks[0].output,
    // Where authorize runs faster than this process's reading of the loop (CI at d3cc12f, under
    // its suite's load), the time runs out later, after a sifting probe answered as a seal sent
    // the function to the second run, which is not tried: its cases fail there. Nothing either way.
    /check against the library's seals came to no answer \(not tried: the 60 s this learner's grading may take ran out\)|failed when run again with the seals' probes: not tried: the 60 s this learner's grading may take ran out/,
  );
});

Deno.test("code of the learner's own that answers a sifting probe as a seal keeps what it earned", async () => {
  // Refusing every reply whose id is a string of three words joined by _ answers each mark's
  // sifting probe as the seal does, and the whole runs' twins otherwise: no copy, marks as earned.
  const refuser = await gradeUnitA(
    `  if (typeof requestId === "string" && /^[a-z]+_[a-z]+_[a-z]+$/.test(requestId)) {
    throw new ProtocolError("a name is no id");
  }
  if (message.id !== requestId) throw new ProtocolError("not the reply to " + requestId);
  if ("error" in message) throw new ProtocolError(message.error.message, { code: message.error.code });
  return message.result;`,
  );
  const marks = marksOf(refuser, "answerFor");
  const lost = marks.filter((t) => t.score === 0);
  assert.ok(lost.length > 0 && lost.length < marks.length, report(refuser, "answerFor"));
  assert.ok(lost.every((t) => t.output === "failed"), report(refuser, "answerFor"));
  const own = refuser.tests.find((t) => t.name === "every graded function is the learner's own");
  assert.equal(own, undefined, own?.output);
});

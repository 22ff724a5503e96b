/**
 * Grade one learner: copy their code into a scratch folder, re-run every
 * case of every unit they submitted in one sandboxed process, and score each
 * unit against what the learner's submission JSON claims.
 *
 * @module
 */

import type { Learner } from "./collect.ts";
import { runSandbox, type SandboxOptions, type UnitJob } from "./sandbox.ts";
import { makeScratch } from "./scratch.ts";
import { type Results, scoreSubmission } from "./score.ts";
import { casesOf, type Holdouts, UNITS } from "./units/mod.ts";

/**
 * The results of each unit `learner` submitted, in the order of their
 * submissions. `holdouts` are the hidden cases (undefined in a copy of the
 * course without them).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const evidenceOnly = { name: "alice", submissions: [{ unit: "ch14-a" }] };
 * const [results] = await gradeLearner(evidenceOnly, undefined);
 * assert.equal(results.score, 0);
 * ```
 */
export async function gradeLearner(
  learner: Learner,
  holdouts: Holdouts | undefined,
  options: SandboxOptions = {},
): Promise<Results[]> {
  const jobs: UnitJob[] = learner.submissions.map(({ unit }) => {
    const spec = UNITS.get(unit)!;
    return {
      unit,
      functions: spec.functions.map((fn) => ({ ...fn, cases: casesOf(spec, fn, holdouts) })),
    };
  });
  const withCode = learner.submissions.filter((submission) => submission.code !== undefined);
  let ran: Awaited<ReturnType<typeof runSandbox>> = [];
  if (withCode.length > 0) {
    await using scratch = await makeScratch(withCode, UNITS);
    ran = await runSandbox(scratch, jobs.filter((job) => scratch.modules.has(job.unit)), options);
  }
  return learner.submissions.map((submission, index) => {
    const codeCame = submission.code !== undefined;
    const cases = codeCame
      ? ran.filter((result) => result.unit === submission.unit)
      : jobs[index].functions.flatMap((fn) =>
        fn.cases.map((testCase) => ({
          unit: submission.unit,
          fn: fn.name,
          case: testCase.label,
          hidden: testCase.hidden,
          status: "FAIL" as const,
          observed: "no code",
        }))
      );
    return scoreSubmission({
      name: learner.name,
      spec: UNITS.get(submission.unit)!,
      cases,
      codeCame,
      evidence: submission.evidence?.value,
    });
  });
}

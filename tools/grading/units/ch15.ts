// Chapter 15: limitCommand, denoFlags and bwrapCommand, read as the grants they give;
// bwrapCommand's sandbox also run, where bubblewrap runs, with the intruder in it.

import { CASES, commandGrants, denoGrants } from "../../../cases/ch15.ts";
import { EFFECT_EXPECTED, effectInputs, effectOf } from "../../../lib/containment/effect.ts";
import { type ObservedCase, tableClaims, type UnitSpec } from "../spec.ts";

/** The learner's sandbox at work: the intruder's attempts, each decided by its witness. */
const BY_EFFECT: ObservedCase = {
  label: "the intruder's policy, run: each attempt refused, as its witness saw",
  // Made when first asked for: the policy names this machine's paths, as the lesson's does.
  get args() {
    const { policy, command } = effectInputs();
    return [policy, command];
  },
  expected: EFFECT_EXPECTED,
  observe: effectOf,
};

/** Chapter 15's graded functions. */
export const CH15: UnitSpec = {
  unit: "ch15",
  imports: { "grading/not_implemented.ts": ["NotImplementedError"] },
  functions: [
    {
      name: "limitCommand",
      cell: "limit-command",
      normalize: commandGrants,
      cases: CASES.limitCommand,
    },
    { name: "denoFlags", cell: "deno-flags", normalize: denoGrants, cases: CASES.denoFlags },
    {
      name: "bwrapCommand",
      cell: "bwrap-command",
      normalize: commandGrants,
      cases: [...CASES.bwrapCommand, BY_EFFECT],
    },
  ],
  // The submission keeps each function's grade rows under `grades`.
  claims: (submission) =>
    tableClaims(submission.grades, ["limitCommand", "denoFlags", "bwrapCommand"]),
};

/**
 * Grade tables for what a learner writes that is more than a function on
 * arguments (a client class, a test): trusted driver code runs each case and
 * reports what it observed, as plain data, and the observation is judged
 * against the case's expected one. The notebooks and the autograder run the
 * same drivers on the same cases.
 *
 * @module
 */

import { type GradeCase, type GradeRow, judge, type Outcome, threwOutcome } from "./grading.ts";
import type { Transport } from "../mcp/shared/transport.ts";

/** What a driver is given besides the learner's code and a case's arguments. */
export interface DriveContext {
  /** Everything the learner's graded cells define, by name. */
  graded: Record<string, unknown>;
  /** The instructors' worked solution of the unit, by name, where the grader has it. */
  reference?: Record<string, unknown>;
  /**
   * A server the grader runs and observes itself, in a realm the learner's
   * code cannot reach; a driver given one reports nothing of what the server
   * received. @default {undefined}
   */
  server?: Transport;
}

/**
 * Runs one case: `candidate` is what the learner wrote, `args` the case's
 * arguments. Resolves with what it observed (plain data), or throws
 * `NotImplementedError` when the learner's part is not written yet.
 */
export type Drive = (
  candidate: unknown,
  args: unknown[],
  context: DriveContext,
) => Promise<unknown>;

/**
 * Run `drive` on `candidate` for each case, one after another, and judge
 * each observation as {@linkcode judge} does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const twice = async (fn: unknown, args: unknown[]) => {
 *   const f = fn as (n: number) => number;
 *   return [f(args[0] as number), f(args[0] as number)];
 * };
 * const rows = await gradeDriven((n: number) => n + 1, [
 *   { label: "the same twice", args: [1], expected: [2, 2] },
 * ], twice, { graded: {} });
 * assert.equal(rows[0].status, "PASS");
 * ```
 */
export async function gradeDriven(
  candidate: unknown,
  cases: readonly GradeCase[],
  drive: Drive,
  context: DriveContext,
): Promise<GradeRow[]> {
  const rows: GradeRow[] = [];
  for (const testCase of cases) {
    let outcome: Outcome;
    try {
      outcome = { returned: await drive(candidate, structuredClone(testCase.args), context) };
    } catch (error) {
      outcome = threwOutcome(error);
    }
    rows.push(judge(testCase, outcome));
  }
  return rows;
}

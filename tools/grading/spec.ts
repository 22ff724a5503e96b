/**
 * What the autograder knows about a unit: the functions a learner writes, the
 * notebook cell each lives in, and the cases each must pass. The visible
 * cases come from `cases/` (the same modules the notebooks import); the
 * hidden ones from `holdouts/`, when this copy of the course has them.
 *
 * @module
 */

import type { GradeCase } from "../../lib/grading.ts";

/** One case as the grader runs it: visible, or hidden from learners. */
export interface GradedCase extends GradeCase {
  /** Hidden cases are never shown to learners: their report says only passed or failed. */
  hidden: boolean;
}

/** A function the learner writes. */
export interface GradedFunction {
  name: string;
  /** The id of the notebook cell that holds it. */
  cell: string;
  /** Turns a returned value into the form the expected values are written in. */
  normalize?: (value: unknown) => unknown;
  /** Whether it must print nothing on stdout (a stdio server's dispatcher); printing fails a case. */
  quiet?: boolean;
  /** The visible cases, as the notebook shows them. */
  cases: readonly GradeCase[];
}

/** A unit the autograder grades. */
export interface UnitSpec {
  unit: string;
  /** Names the learner's cells may use from library modules (by file under lib/), imported for them. */
  imports: Readonly<Record<string, readonly string[]>>;
  functions: readonly GradedFunction[];
  /**
   * Other cells of the learner's that the module holds beside the graded
   * ones, ungraded here (Lab 01's stdio loop, which its notebook runs as a
   * process). @default {[]}
   */
  supportCells?: readonly string[];
  /**
   * What a submission JSON claims about each function's cases, by case
   * label: `true` passed, `false` did not. Functions it says nothing about
   * are left out; labels that are not the unit's are the learner's own cases.
   */
  claims(submission: Record<string, unknown>): Record<string, Record<string, boolean>>;
}

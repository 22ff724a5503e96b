/**
 * What the autograder knows about a unit: the functions a learner writes, the
 * notebook cell each lives in, and the visible and hidden cases each must pass.
 *
 * @module
 */

/** One case: arguments and the expected outcome (`{ throws: NAME }` for an error). */
export interface GradedCase {
  label: string;
  args: unknown[];
  expected: unknown;
  /** Hidden cases are never shown to learners: their report says only passed or failed. */
  hidden?: boolean;
}

/** A function the learner writes. */
export interface GradedFunction {
  name: string;
  /** The id of the notebook cell that holds it. */
  cell: string;
  /** Turns a returned value into the form the expected values are written in. */
  normalize?: (value: unknown) => unknown;
  cases: GradedCase[];
}

/** A unit the autograder grades. */
export interface UnitSpec {
  unit: string;
  /** Names the learner's cells may use from library modules (by file under lib/), imported for them. */
  imports: Record<string, string[]>;
  functions: GradedFunction[];
  /**
   * What a submission JSON claims about each function's visible cases, by
   * case label: `true` passed, `false` did not. Functions it says nothing
   * about are left out.
   */
  claims(submission: Record<string, unknown>): Record<string, Record<string, boolean>>;
}

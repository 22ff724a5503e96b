/**
 * The error a starter throws until the learner writes the code: grade tables
 * report it as unfinished work, not as a failure.
 *
 * @module
 */

/**
 * Thrown by a starter the learner has not replaced yet.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const error = new NotImplementedError("answerFor");
 * assert.equal(error.name, "NotImplementedError");
 * assert.equal(error.message, "answerFor is not implemented yet: this is your part");
 * ```
 */
export class NotImplementedError extends Error {
  /** Make the error; `what` names the function still to write. */
  constructor(what = "This") {
    super(`${what} is not implemented yet: this is your part`);
    this.name = "NotImplementedError";
  }
}

/**
 * The error of a command line that Chapter 15's judges cannot judge
 * (re-exported by `command_grants.ts`).
 *
 * @module
 */

/** A command line this module cannot judge: its message starts `cannot judge`. */
export class CannotJudgeError extends TypeError {
  override name = "CannotJudgeError";
  constructor(message: string) {
    super(`cannot judge ${message}`);
  }
}

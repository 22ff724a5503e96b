/**
 * What the autograder knows about a unit: the functions a learner writes, the
 * notebook cell each lives in, and the cases each must pass. The visible
 * cases come from `cases/` (the same modules the notebooks import); the
 * hidden ones, when this copy of the course has them (the instructors' does).
 *
 * @module
 */

import type { GradeTableOptions } from "../../lib/grading/grade_table.ts";
import type { GradeCase } from "../../lib/grading/grading.ts";
import { isObject } from "../../lib/mcp/shared/jsonrpc.ts";
import type { LibraryCopy } from "./library_copies.ts";

/**
 * A hidden case, which may be one of a group: the cases that test one rule
 * from both sides (a listed origin allowed, and one that only contains it
 * refused), which earn their marks together or not at all. A guess that
 * answers the same whatever it is given (a constant, or a table of the
 * visible answers) passes one side of a rule at most, so it earns no group.
 */
export interface HiddenCase extends GradeCase {
  /**
   * The rule this case tests with the other cases of its function that name
   * it: each of them earns its mark only when all of them pass. @default {undefined: a mark of its own}
   */
  group?: string;
  /**
   * A case of a watermark twin's setting, with a name of the secrets' look
   * that is none of them (the hidden cases' `decoys`): run in the first run
   * only, never in the watermark's second run, where a copy that spoils an
   * input of a shape it has seen before would meet it before the twins.
   * @default {false}
   */
  decoy?: boolean;
}

/** One case as the grader runs it: visible, or hidden from learners. */
export interface GradedCase extends ObservedCase, HiddenCase {
  /** Hidden cases are never shown to learners: their report says only passed or failed. */
  hidden: boolean;
  /**
   * For a probe of the seals' watermark (`watermark.ts`), never a mark: how a
   * seal answers it. @default {undefined}
   */
  probe?: SealAnswer;
  /**
   * For a probe that right code answers as a seal does (a twin of a probe
   * of a decision, or one set against a probe): `true`. @default {undefined}
   */
  twin?: boolean;
  /**
   * For a hidden case, the realm it runs in: the hidden cases of one number
   * share a realm, which is ended before the next number's begin, in
   * ascending order (the watermark's second run splits its calls so).
   * @default {0}
   */
  realm?: number;
}

/**
 * How a seal of the library answers a probe of its watermark: by returning
 * exactly this value; or, for a probe of a decision, with anything
 * but the `right` answer (`wrong`: what a right answer returns, which a seal
 * does not), and, for its twin, with the right answer (`right`: a seal
 * answers it as a right answer does).
 */
export type SealAnswer =
  | { returns: unknown }
  | { wrong: unknown }
  | { right: unknown };

/** A case whose returned value the grader may observe at work. */
export interface ObservedCase extends GradeCase {
  /**
   * What the returned value does, observed by the grader where no learner
   * code runs (Chapter 15 runs the command line it returns), judged against
   * `expected` in place of the function's `normalize`. @default {undefined}
   */
  observe?: (returned: unknown) => Promise<unknown>;
}

/** A function the learner writes. */
export interface GradedFunction {
  name: string;
  /** The id of the notebook cell that holds it. */
  cell: string;
  /**
   * Cells that hold the later steps of it, which it calls (Lab 01's
   * `handleMessage`, written in three steps): taken with it, and their worked
   * code mutated as its own. @default {[]}
   */
  parts?: readonly string[];
  /** Turns a returned value into the form the expected values are written in. */
  normalize?: (value: unknown) => unknown;
  /** Whether it must print nothing on stdout (a stdio server's dispatcher); printing fails a case. */
  quiet?: boolean;
  /** The visible cases, as the notebook shows them (and those the grader observes at work). */
  cases: readonly ObservedCase[];
  /**
   * The library's own functions that do this one's work: a learner's code
   * that reaches one of them (a re-export, a wrapper, a call) scores 0 for
   * the function it was graded as. @default {[]}
   */
  library?: readonly LibraryCopy[];
  /**
   * Library modules, readable in the learners' release, that do this
   * function's work in a way of their own (Lab 03's mask, in `lib/mask/`): a
   * block of the learner's code nearly the same as one of theirs earns the
   * function nothing (`copied.ts`). Unlike `library`, they are not sealed,
   * wired or probed. @default {[]}
   */
  libraryModules?: readonly string[];
  /**
   * The driver that runs each case, for what is more than a function on
   * arguments (a class, a test): a module, by its path from the project
   * root, exporting a `drive` (see `lib/grading/grade_driven.ts`), as the
   * notebook runs it. The grader runs the same cases split across realms:
   * the learner's code in one, the server or the client it is tested with
   * in another (`sandbox_runner.ts`). @default {undefined}
   */
  driver?: string;
  /** Whether the driver is given the unit's `reference` solution. @default {false} */
  withReference?: boolean;
  /**
   * Words for a difference of a failed visible case, added to its line in
   * the report as the notebook's grade table says them (Lab 04's header
   * names in capitals). @default {undefined}
   */
  explain?: GradeTableOptions["explain"];
}

/** A unit the autograder grades. */
export interface UnitSpec {
  unit: string;
  /**
   * Names the learner's cells may use, imported for them: from library
   * modules (by file under lib/) or from a `node:` module (`"strict as
   * assert"` imports `strict` as `assert`).
   */
  imports: Readonly<Record<string, readonly string[]>>;
  /**
   * The worked edition (path from the project root) whose graded cells are
   * the instructors' solution, for drivers `withReference`; where the grader
   * lacks it (the learners' release), such drivers fall back on the
   * learner's own code. @default {undefined}
   */
  reference?: string;
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

/**
 * The claims of a submission that records each grade table's rows
 * (`{ case, status }`) in `tables`, by function name: a case is claimed
 * passed when its status is `PASS`. Rows that are not such objects, and
 * tables that are not lists, claim nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const tables = { f: [{ case: "one", status: "PASS" }, { case: "two", status: "FAIL" }, 7] };
 * assert.deepEqual(tableClaims(tables, ["f", "g"]), { f: { one: true, two: false }, g: {} });
 * ```
 */
export function tableClaims(
  tables: unknown,
  names: readonly string[],
): Record<string, Record<string, boolean>> {
  const held = isObject(tables) ? tables : {};
  return Object.fromEntries(names.map((name) => [
    name,
    Object.fromEntries(
      (Array.isArray(held[name]) ? held[name] : []).filter(isObject)
        .filter((row) => typeof row.case === "string")
        .map((row) => [row.case as string, row.status === "PASS"]),
    ),
  ]));
}

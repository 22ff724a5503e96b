/**
 * Every unit's hidden cases, by unit and graded function. The autograder
 * adds them to the visible cases when this folder is there (the instructors'
 * repository, the autograder package) and grades on the visible cases alone
 * when it is not (the learners' release).
 *
 * @module
 */

import type { HiddenCase } from "../tools/grading/spec.ts";
import { HOLDOUTS as CH14_A } from "./ch14_a.ts";
import { HOLDOUTS as CH14_B } from "./ch14_b.ts";
import { HOLDOUTS as CH15 } from "./ch15.ts";
import { HOLDOUTS as LAB_01 } from "./lab_01.ts";
import { HOLDOUTS as LAB_02 } from "./lab_02.ts";
import { HOLDOUTS as LAB_03 } from "./lab_03.ts";
import { HOLDOUTS as LAB_04 } from "./lab_04.ts";

/** One unit's hidden cases, by the graded function's name. */
type UnitHoldouts = Readonly<Record<string, readonly HiddenCase[]>>;

/** Hidden cases by unit, then by function name. */
export const HOLDOUTS: ReadonlyMap<string, UnitHoldouts> = new Map<string, UnitHoldouts>([
  ["ch14-a", CH14_A],
  ["ch14-b", CH14_B],
  ["lab-01", LAB_01],
  ["lab-02", LAB_02],
  ["lab-03", LAB_03],
  ["ch15", CH15],
  ["lab-04", LAB_04],
]);

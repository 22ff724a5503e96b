// Every unit the autograder grades, by name.

import type { UnitSpec } from "../spec.ts";
import { CH14_A } from "./ch14_a.ts";
import { CH14_B } from "./ch14_b.ts";
import { LAB_02 } from "./lab_02.ts";

/** The units, by the name their submissions and notebooks carry. */
export const UNITS: Readonly<Record<string, UnitSpec>> = {
  "ch14-a": CH14_A,
  "ch14-b": CH14_B,
  "lab-02": LAB_02,
};

/**
 * Unit B's hidden cases. Instructors' repository and the autograder package
 * only: the learners' release leaves this folder out.
 *
 * @module
 */

import { bytes, DELIVERY } from "../cases/ch14_b.ts";
import type { GradeCase } from "../lib/grading.ts";

const tooLong = { throws: "RangeError" };

/** Unit B's hidden cases, by the graded function's name. */
export const HOLDOUTS: Readonly<Record<"splitFrames" | "transferProblems", readonly GradeCase[]>> =
  {
    splitFrames: [
      { label: "nothing read yet", args: [bytes(""), 8], expected: [[], ""] },
      { label: "two empty lines", args: [bytes("\n\n"), 8], expected: [["", ""], ""] },
      {
        label: "seven bytes and a newline fit eight",
        args: [bytes("1234567\n"), 8],
        expected: [["1234567"], ""],
      },
      {
        label: "eight bytes and a newline do not",
        args: [bytes("12345678\n"), 8],
        expected: tooLong,
      },
      { label: "ten bytes still waiting", args: [bytes("1234567812"), 8], expected: tooLong },
      {
        label: "the limit counts bytes, not characters",
        args: [bytes("ééé\n"), 5],
        expected: tooLong,
      },
    ],
    transferProblems: [
      {
        label: "a number accepts an integer",
        args: [{ type: "object", properties: { x: { type: "number" } } }, { x: 3 }],
        expected: [],
      },
      {
        label: "extra keys are fine without additionalProperties",
        args: [{ type: "object", properties: {} }, { x: 1 }],
        expected: [],
      },
      {
        label: "problems sorted, whatever order they are found in",
        args: [DELIVERY, { price: 1, order_id: 5 }],
        expected: ["missing tubs", "order_id must be string", "unexpected price"],
      },
    ],
  };

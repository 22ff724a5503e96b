/**
 * Unit B's hidden cases. Instructors' repository and the autograder package
 * only: the learners' release leaves this folder out.
 *
 * @module
 */

import { bytes, DELIVERY } from "../cases/ch14_b.ts";
import type { GradeCase } from "../lib/grading/grading.ts";

const tooLong = { throws: "RangeError" };
/** A schema with one optional boolean. */
const FLAGGED = { type: "object", properties: { urgent: { type: "boolean" } } };

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
      {
        label: "a long frame after a short one",
        args: [bytes("ok\n123456789\n"), 8],
        expected: tooLong,
      },
      {
        label: "an endless line after a frame",
        args: [bytes("ok\n12345678"), 8],
        expected: tooLong,
      },
      {
        label: "half a character waits as bytes",
        args: [new Uint8Array([...bytes('"é"\n"'), 0xc3]), 8],
        expected: [['"é"'], [0x22, 0xc3]],
      },
      {
        label: "a frame keeps its spaces",
        args: [bytes(' {"a": 1} \n'), 64],
        expected: [[' {"a": 1} '], ""],
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
      {
        label: "a number refuses text",
        args: [{ type: "object", properties: { x: { type: "number" } } }, { x: "3" }],
        expected: ["x must be number"],
      },
      { label: "a boolean accepts false", args: [FLAGGED, { urgent: false }], expected: [] },
      {
        label: "a boolean refuses the text true",
        args: [FLAGGED, { urgent: "true" }],
        expected: ["urgent must be boolean"],
      },
      {
        label: "a property without a type takes anything",
        args: [{ type: "object", properties: { note: {} } }, { note: 5 }],
        expected: [],
      },
      {
        label: "a property of another type, rightly given",
        args: [{ type: "object", properties: { tags: { type: "array" } } }, { tags: ["a"] }],
        expected: [],
      },
      {
        label: "zero tubs and an empty id are given, not missing",
        args: [DELIVERY, { order_id: "", tubs: 0 }],
        expected: [],
      },
      {
        label: "null tubs are given, and wrong",
        args: [DELIVERY, { order_id: "A-1", tubs: null }],
        expected: ["tubs must be integer"],
      },
      {
        label: "an optional key is not unexpected",
        args: [{
          type: "object",
          properties: { order_id: { type: "string" }, note: { type: "string" } },
          required: ["order_id"],
          additionalProperties: false,
        }, { order_id: "A-1", note: "x" }],
        expected: [],
      },
      {
        label: "names every object inherits are neither given nor known",
        args: [{
          type: "object",
          properties: { toString: { type: "string" } },
          required: ["toString"],
          additionalProperties: false,
        }, { constructor: 1 }],
        expected: ["missing toString", "unexpected constructor"],
      },
    ],
  };

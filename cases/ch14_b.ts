/**
 * Unit B's visible cases, and what both the notebook and the autograder need
 * to read `splitFrames`'s answers: the frames as text, once each frame is
 * known to be a `Uint8Array`. The hidden cases are held back: only the
 * instructors' grader has them.
 *
 * @module
 */

import type { GradeCase } from "../lib/grading/grading.ts";
import { nameValue } from "../lib/notebook/value_names.ts";

/**
 * The UTF-8 bytes of `text`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(bytes("é\n"), new Uint8Array([0xc3, 0xa9, 0x0a]));
 * ```
 */
export function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** A frame as the expected values are written: its text, or its bytes when they are not UTF-8. */
export type FrameText = string | number[];

/**
 * A `[frames, rest]` pair as text, the form the expected values are written
 * in. Throws `TypeError` when the pair is not an array of `Uint8Array` frames
 * and a `Uint8Array` rest: an `ArrayBuffer`, a `DataView` or a string is not
 * what the contract promises, even when it holds the right bytes. A part
 * that is not whole UTF-8 (half a character still waiting) is given as its
 * bytes, so that two different byte strings never read as the same text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(framesAsText([[bytes("a")], bytes("b")]), [["a"], "b"]);
 * assert.deepEqual(framesAsText([[], new Uint8Array([0x61, 0xc3])]), [[], [0x61, 0xc3]]);
 * assert.throws(() => framesAsText([[new ArrayBuffer(1)], bytes("")]), TypeError);
 * ```
 */
export function framesAsText(value: unknown): [FrameText[], FrameText] {
  if (!Array.isArray(value) || value.length !== 2 || !Array.isArray(value[0])) {
    throw new TypeError("splitFrames must return a pair: [frames, rest]");
  }
  const [frames, rest] = value as [unknown[], unknown];
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const decode = (part: unknown, what: string): FrameText => {
    if (!(part instanceof Uint8Array)) throw new TypeError(`${what} must be a Uint8Array`);
    try {
      return decoder.decode(part);
    } catch {
      return [...part];
    }
  };
  return [frames.map((frame, index) => decode(frame, `frame ${index}`)), decode(rest, "the rest")];
}

/**
 * The `record_delivery` tool's input schema, from the operator's second
 * server: a grade table calls it "the delivery schema", whole on a click.
 */
export const DELIVERY = nameValue("the delivery schema", {
  type: "object",
  properties: { order_id: { type: "string" }, tubs: { type: "integer" } },
  required: ["order_id", "tubs"],
  additionalProperties: false,
});

const tooLong = { throws: "RangeError" };

/** Unit B's visible cases, by the graded function's name. */
export const CASES: Readonly<Record<"splitFrames" | "transferProblems", readonly GradeCase[]>> = {
  splitFrames: [
    { label: "one frame", args: [bytes('{"a":1}\n'), 64], expected: [['{"a":1}'], ""] },
    { label: "half a frame waits", args: [bytes('{"a"'), 64], expected: [[], '{"a"'] },
    {
      label: "two frames and a half",
      args: [bytes('{"a":1}\n{"b":2}\n{"c"'), 64],
      expected: [['{"a":1}', '{"b":2}'], '{"c"'],
    },
    {
      label: "two frames that each fit, though together they do not",
      args: [bytes("123456789\n123456789\n"), 16],
      expected: [["123456789", "123456789"], ""],
    },
    {
      label: "a frame exactly at the limit",
      args: [bytes("x".repeat(15) + "\n"), 16],
      expected: [["x".repeat(15)], ""],
    },
    {
      label: "a complete frame beyond the limit",
      args: [bytes("x".repeat(16) + "\n"), 16],
      expected: tooLong,
    },
    {
      label: "an endless line is refused before it ends",
      args: [bytes("x".repeat(16)), 16],
      expected: tooLong,
    },
  ],
  transferProblems: [
    { label: "valid arguments", args: [DELIVERY, { order_id: "A-1043", tubs: 20 }], expected: [] },
    {
      label: "a missing key",
      args: [DELIVERY, { order_id: "A-1043" }],
      expected: ["missing tubs"],
    },
    {
      label: "an unexpected key",
      args: [DELIVERY, { order_id: "A-1043", tubs: 20, price: 900 }],
      expected: ["unexpected price"],
    },
    {
      label: "tubs given as text",
      args: [DELIVERY, { order_id: "A-1043", tubs: "20" }],
      expected: ["tubs must be integer"],
    },
    {
      label: "true is not a number of tubs",
      args: [DELIVERY, { order_id: "A-1043", tubs: true }],
      expected: ["tubs must be integer"],
    },
    {
      label: "several problems, sorted",
      args: [DELIVERY, { tubs: 2.5, note: "x" }],
      expected: ["missing order_id", "tubs must be integer", "unexpected note"],
    },
  ],
};

// Unit B: splitFrames and transferProblems, with the notebook's visible cases
// and the hidden cases of its holdout cells.

import type { UnitSpec } from "../spec.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const x = (count: number) => "x".repeat(count);
const tooLong = { throws: "RangeError" };

/** A `[frames, rest]` pair as text, the form the expected values are written in. */
function framesAsText(value: unknown): unknown {
  const [frames, rest] = value as [Uint8Array[], Uint8Array];
  const decode = (part: Uint8Array) => new TextDecoder().decode(part);
  return [frames.map(decode), decode(rest)];
}

const DELIVERY = {
  type: "object",
  properties: { order_id: { type: "string" }, tubs: { type: "integer" } },
  required: ["order_id", "tubs"],
  additionalProperties: false,
};

/** Unit B's graded functions. */
export const CH14_B: UnitSpec = {
  unit: "ch14-b",
  imports: { "not_implemented.ts": ["NotImplementedError"] },
  functions: [
    {
      name: "splitFrames",
      cell: "split-frames",
      normalize: framesAsText,
      cases: [
        { label: "one frame", args: [bytes('{"a":1}\n'), 64], expected: [['{"a":1}'], ""] },
        { label: "half a frame waits", args: [bytes('{"a"'), 64], expected: [[], '{"a"'] },
        {
          label: "two frames and a half",
          args: [bytes('{"a":1}\n{"b":2}\n{"c"'), 64],
          expected: [['{"a":1}', '{"b":2}'], '{"c"'],
        },
        {
          label: "a frame exactly at the limit",
          args: [bytes(x(15) + "\n"), 16],
          expected: [[x(15)], ""],
        },
        {
          label: "a complete frame beyond the limit",
          args: [bytes(x(16) + "\n"), 16],
          expected: tooLong,
        },
        {
          label: "an endless line is refused before it ends",
          args: [bytes(x(16)), 16],
          expected: tooLong,
        },
        { label: "nothing read yet", args: [bytes(""), 8], expected: [[], ""], hidden: true },
        {
          label: "two empty lines",
          args: [bytes("\n\n"), 8],
          expected: [["", ""], ""],
          hidden: true,
        },
        {
          label: "seven bytes and a newline fit eight",
          args: [bytes("1234567\n"), 8],
          expected: [["1234567"], ""],
          hidden: true,
        },
        {
          label: "eight bytes and a newline do not",
          args: [bytes("12345678\n"), 8],
          expected: tooLong,
          hidden: true,
        },
        {
          label: "ten bytes still waiting",
          args: [bytes("1234567812"), 8],
          expected: tooLong,
          hidden: true,
        },
        {
          label: "the limit counts bytes, not characters",
          args: [bytes("ééé\n"), 5],
          expected: tooLong,
          hidden: true,
        },
      ],
    },
    {
      name: "transferProblems",
      cell: "transfer-problems",
      cases: [
        {
          label: "valid arguments",
          args: [DELIVERY, { order_id: "A-1043", tubs: 20 }],
          expected: [],
        },
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
        {
          label: "a number accepts an integer",
          args: [{ type: "object", properties: { x: { type: "number" } } }, { x: 3 }],
          expected: [],
          hidden: true,
        },
        {
          label: "extra keys are fine without additionalProperties",
          args: [{ type: "object", properties: {} }, { x: 1 }],
          expected: [],
          hidden: true,
        },
        {
          label: "problems sorted, whatever order they are found in",
          args: [DELIVERY, { price: 1, order_id: 5 }],
          expected: ["missing tubs", "order_id must be string", "unexpected price"],
          hidden: true,
        },
      ],
    },
  ],
  claims(submission) {
    const frames = (submission.frames ?? []) as { case: string; status: string }[];
    const transfer = (submission.transfer ?? []) as { case: string; passed: boolean }[];
    return {
      splitFrames: Object.fromEntries(frames.map((row) => [row.case, row.status === "PASS"])),
      transferProblems: Object.fromEntries(transfer.map((row) => [row.case, row.passed])),
    };
  },
};

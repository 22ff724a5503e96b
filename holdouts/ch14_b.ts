/**
 * Unit B's hidden cases. Instructors' repository and the autograder package
 * only: the learners' release leaves this folder out.
 *
 * @module
 */

import { bytes, DELIVERY } from "../cases/ch14_b.ts";
import type { HiddenCase } from "../tools/grading/spec.ts";
import { decoys } from "./watermark.ts";

const tooLong = { throws: "RangeError" };
/** A schema with one optional boolean. */
const FLAGGED = { type: "object", properties: { urgent: { type: "boolean" } } };
/** A schema whose order_id is required and whose note may be left out; nothing else. */
const OPTIONAL_NOTE = {
  type: "object",
  properties: { order_id: { type: "string" }, note: { type: "string" } },
  required: ["order_id"],
  additionalProperties: false,
};

/** A schema with one property `name` of `type` (no type at all when undefined). */
const one = (name: string, type?: string) => ({
  type: "object",
  properties: { [name]: type === undefined ? {} : { type } },
});

/**
 * Unit B's hidden cases, by the graded function's name. Each group tests one
 * rule from both sides: a frame just within the limit beside one just past
 * it; arguments a type takes beside ones it refuses.
 */
export const HOLDOUTS: Readonly<
  Record<"splitFrames" | "transferProblems", readonly HiddenCase[]>
> = {
  splitFrames: [
    {
      label: "a frame that names a tool",
      args: [bytes('{"name":"amber_cloud_delta"}\n{"na'), 64],
      expected: [['{"name":"amber_cloud_delta"}'], '{"na'],
      group: "names of three words",
    },
    {
      label: "a rest that names a tool",
      args: [bytes('\n{"name":"maple_river_stone"'), 64],
      expected: [[""], '{"name":"maple_river_stone"'],
      group: "names of three words",
    },
    // The watermark's twins' look in each of its six settings: a copy that spoils twins by their
    // shape or features (ids of three digits or more, texts, _meta) spoils these too.
    ...decoys("splitFrames#frames", "names of three words"),
    { label: "nothing read yet", args: [bytes(""), 8], expected: [[], ""] },
    { label: "two empty lines", args: [bytes("\n\n"), 8], expected: [["", ""], ""] },
    {
      label: "seven bytes and a newline fit eight",
      args: [bytes("1234567\n"), 8],
      expected: [["1234567"], ""],
      group: "a line and its newline",
    },
    {
      label: "eight bytes and a newline do not",
      args: [bytes("12345678\n"), 8],
      expected: tooLong,
      group: "a line and its newline",
    },
    {
      label: "seven bytes still waiting",
      args: [bytes("1234567"), 8],
      expected: [[], "1234567"],
      group: "the rest",
    },
    {
      label: "ten bytes still waiting",
      args: [bytes("1234567812"), 8],
      expected: tooLong,
      group: "the rest",
    },
    {
      label: "two two-byte characters and a newline fit five",
      args: [bytes("éé\n"), 5],
      expected: [["éé"], ""],
      group: "bytes",
    },
    {
      label: "the limit counts bytes, not characters",
      args: [bytes("ééé\n"), 5],
      expected: tooLong,
      group: "bytes",
    },
    // The frame is the bytes before the newline, whatever they are: a CR
    // before it (a CRLF line end) is the frame's (round 11 of issue 38).
    {
      label: "a CR before the newline stays in the frame",
      args: [bytes("{}\r\n"), 8],
      expected: [["{}\r"], ""],
    },
    {
      label: "two frames within the limit",
      args: [bytes("ok\n1234567\n"), 8],
      expected: [["ok", "1234567"], ""],
      group: "every frame",
    },
    {
      label: "a long frame after a short one",
      args: [bytes("ok\n123456789\n"), 8],
      expected: tooLong,
      group: "every frame",
    },
    {
      label: "a frame, then a rest within the limit",
      args: [bytes("ok\n1234567"), 8],
      expected: [["ok"], "1234567"],
      group: "the rest after a frame",
    },
    {
      label: "an endless line after a frame",
      args: [bytes("ok\n12345678"), 8],
      expected: tooLong,
      group: "the rest after a frame",
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
    // A frame's bytes are kept as they came, UTF-8 or not: text split and encoded again would turn
    // 0xff into U+FFFD's three bytes (round 14 of issue 38's red team).
    {
      label: "a frame that is not UTF-8 keeps its bytes",
      args: [new Uint8Array([0xff, 0x41, 10]), 8],
      expected: [[[0xff, 0x41]], ""],
    },
  ],
  transferProblems: [
    {
      label: "a property named as a tool is, left out",
      args: [{ ...one("amber_cloud_delta", "string"), required: ["amber_cloud_delta"] }, {}],
      expected: ["missing amber_cloud_delta"],
      group: "names of three words",
    },
    {
      label: "a property named as a tool is, of the wrong type",
      args: [{ ...one("amber_cloud_delta", "string"), required: ["amber_cloud_delta"] }, {
        amber_cloud_delta: 1,
      }],
      expected: ["amber_cloud_delta must be string"],
      group: "names of three words",
    },
    ...decoys("transferProblems#problems", "names of three words"),
    {
      label: "a number accepts an integer",
      args: [one("x", "number"), { x: 3 }],
      expected: [],
      group: "number",
    },
    {
      label: "a number refuses text",
      args: [one("x", "number"), { x: "3" }],
      expected: ["x must be number"],
      group: "number",
    },
    {
      label: "extra keys are fine without additionalProperties",
      args: [{ type: "object", properties: {} }, { x: 1 }],
      expected: [],
      group: "additionalProperties",
    },
    {
      label: "extra keys are unexpected with additionalProperties false",
      args: [{ type: "object", properties: {}, additionalProperties: false }, { x: 1 }],
      expected: ["unexpected x"],
      group: "additionalProperties",
    },
    {
      label: "problems sorted, whatever order they are found in",
      args: [DELIVERY, { price: 1, order_id: 5 }],
      expected: ["missing tubs", "order_id must be string", "unexpected price"],
    },
    // Sorted by code unit, as the lesson now says (round 14 left the order open: localeCompare
    // puts "missing order_id" before "missing Tubs", and "missing ..." before "Tubs must be ...").
    {
      label: "problems sorted by code unit: capitals first",
      args: [{
        type: "object",
        properties: { Tubs: { type: "integer" }, order_id: { type: "string" } },
        required: ["order_id", "Tubs"],
      }, {}],
      expected: ["missing Tubs", "missing order_id"],
    },
    {
      label: "problems sorted by code unit: a capital's type before a missing key",
      args: [{
        type: "object",
        properties: { Tubs: { type: "integer" }, order_id: { type: "string" } },
        required: ["order_id", "Tubs"],
      }, { Tubs: "three" }],
      expected: ["Tubs must be integer", "missing order_id"],
    },
    {
      label: "a boolean accepts false",
      args: [FLAGGED, { urgent: false }],
      expected: [],
      group: "boolean",
    },
    {
      label: "a boolean refuses the text true",
      args: [FLAGGED, { urgent: "true" }],
      expected: ["urgent must be boolean"],
      group: "boolean",
    },
    {
      label: "a property without a type takes anything",
      args: [one("note"), { note: 5 }],
      expected: [],
      group: "no type",
    },
    {
      label: "a string property refuses a number",
      args: [one("note", "string"), { note: 5 }],
      expected: ["note must be string"],
      group: "no type",
    },
    {
      label: "a property of another type, rightly given",
      args: [one("tags", "array"), { tags: ["a"] }],
      expected: [],
      group: "another type",
    },
    {
      label: "a string property refuses a list",
      args: [one("tags", "string"), { tags: ["a"] }],
      expected: ["tags must be string"],
      group: "another type",
    },
    // JSON Schema's integer is any number with no fraction, however large:
    // Number.isSafeInteger and parseInt refuse 1e21 (round 11 of issue 38).
    {
      label: "1e21 is an integer",
      args: [one("x", "integer"), { x: 1e21 }],
      expected: [],
      group: "integer, however large",
    },
    {
      label: "2.5 is not",
      args: [one("x", "integer"), { x: 2.5 }],
      expected: ["x must be integer"],
      group: "integer, however large",
    },
    // Number.isInteger, as the lesson says: a whole number below zero is one too (round 14).
    {
      label: "a negative whole number is an integer",
      args: [DELIVERY, { order_id: "A-1", tubs: -3 }],
      expected: [],
      group: "integer, however large",
    },
    {
      label: "zero tubs and an empty id are given, not missing",
      args: [DELIVERY, { order_id: "", tubs: 0 }],
      expected: [],
      group: "given",
    },
    {
      label: "null tubs are given, and wrong",
      args: [DELIVERY, { order_id: "A-1", tubs: null }],
      expected: ["tubs must be integer"],
      group: "given",
    },
    {
      label: "an optional key is not unexpected",
      args: [OPTIONAL_NOTE, { order_id: "A-1", note: "x" }],
      expected: [],
      group: "optional",
    },
    {
      label: "a key near an optional one's name is unexpected",
      args: [OPTIONAL_NOTE, { order_id: "A-1", notes: "x" }],
      expected: ["unexpected notes"],
      group: "optional",
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
    // A type only its four kinds know: a name every object inherits is a type it does not know,
    // not a check found through the prototype (round 14 of issue 38's red team).
    {
      label: "a type named hasOwnProperty is one it does not know",
      args: [one("x", "hasOwnProperty"), { x: 1 }],
      expected: [],
    },
  ],
};

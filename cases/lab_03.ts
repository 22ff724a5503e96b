/**
 * Lab 03's visible cases: the notebook's grade tables show them, and the
 * autograder runs them again on the learner's code. The hidden cases are
 * held back: only the instructors' grader has them.
 *
 * The functions are the parts of a mask-driven tool call: the character step
 * of the mask (read through `prefixStatus`), the mask over a vocabulary of
 * tokens, token by token and by a prefix tree, the decoding loop, and the
 * agent's next move after a call.
 *
 * @module
 */

import type { GradeCase } from "../lib/grading/grading.ts";
import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { GRAMMAR_TOOLS } from "../lib/course/grammar_tools.ts";
import { nameValue } from "../lib/notebook/value_names.ts";
import type { ModelTable } from "../tools/grading/drivers/lab_03_decode.ts";

/** Lab 03's graded functions. */
export type Lab03Function =
  | "prefixStatus"
  | "tokenMask"
  | "buildTrie"
  | "trieMask"
  | "decode"
  | "nextMove"
  | "retryRequest";

/** The input schema of the grammar server's tool `name`. */
export function schemaOf(name: string): JsonObject {
  return GRAMMAR_TOOLS.find((tool) => tool.name === name)!.inputSchema;
}

/** conjugate's schema: three enums, all required, in this order. */
export const CONJUGATE = nameValue("conjugate's schema", schemaOf("conjugate"));
/** lookup_spanish's schema: one free string of at least one character. */
export const SPANISH = nameValue("lookup_spanish's schema", schemaOf("lookup_spanish"));
/** check_subject_verb_agreement's schema: an enum, then a free string. */
export const AGREEMENT = nameValue(
  "check_subject_verb_agreement's schema",
  schemaOf("check_subject_verb_agreement"),
);
/** lookup_irregular_verb's schema: one enum. */
export const IRREGULAR = nameValue(
  "lookup_irregular_verb's schema",
  schemaOf("lookup_irregular_verb"),
);

/** An object whose middle property may be left out. */
export const OPTIONAL: JsonObject = nameValue("OPTIONAL: verb, a note or none, tense", {
  type: "object",
  properties: {
    verb: { type: "string", enum: ["go", "eat"] },
    note: { type: "string" },
    tense: { type: "string", enum: ["past", "present"] },
  },
  required: ["verb", "tense"],
  additionalProperties: false,
});

/**
 * A free string of at most two characters. The four tools bound no string's
 * length from above; tools elsewhere do (a country code, a short note).
 */
export const SHORT: JsonObject = nameValue("SHORT: a mark of at most 2 characters", {
  type: "object",
  properties: { mark: { type: "string", maxLength: 2 } },
  required: ["mark"],
  additionalProperties: false,
});

/**
 * An object inside an object: who the verb is for. The four tools' values are
 * all strings; tools elsewhere nest objects (an address in an order).
 */
export const NESTED: JsonObject = nameValue("NESTED: a verb, and who (an object)", {
  type: "object",
  properties: {
    verb: { type: "string", enum: ["go", "eat"] },
    who: {
      type: "object",
      properties: {
        person: { type: "string", enum: ["1sg", "3sg"] },
        name: { type: "string" },
      },
      required: ["person"],
      additionalProperties: false,
    },
  },
  required: ["verb", "who"],
  additionalProperties: false,
});

/** A small vocabulary of conjugate's pieces, and a few that never fit. */
export const PIECES = nameValue("PIECES: 14 pieces of conjugate's calls", [
  '{"',
  "verb",
  '":"',
  "eat",
  "ea",
  "t",
  '","',
  '"}',
  "x",
  "{",
  '"',
  " ",
  '{"verb":"go"',
  'eat","tense":"',
]);

/** The prefix tree of `["a", "ab", "b"]`. */
const AB = nameValue('the tree of "a", "ab", "b"', {
  ids: [],
  children: {
    a: { ids: [0], children: { b: { ids: [1], children: {} } } },
    b: { ids: [2], children: {} },
  },
});

/** An object of one free string, named `ab`: its name's first characters are the tree's tokens. */
const AB_NAMED = nameValue("a free string named ab", {
  type: "object",
  properties: { ab: { type: "string" } },
  required: ["ab"],
  additionalProperties: false,
});

/** Tokens that write `{"verb":"go"}` or `{"verb":"eat"}`, in pieces. */
export const VERB_PIECES = nameValue("VERB_PIECES: 5 pieces", [
  '{"verb":"',
  "go",
  "eat",
  '"}',
  "x",
]);

/**
 * A table that prefers `favourite` (an id of {@linkcode VERB_PIECES}) after the
 * opening piece, and stopping only last.
 */
export function preferring(favourite: number): ModelTable {
  const row = (best: number) => [...VERB_PIECES.map((_, id): number => (id === best ? 5 : 1)), 0];
  return nameValue(`prefers ${JSON.stringify(VERB_PIECES[favourite])} after the first piece`, {
    "": row(0),
    "0": row(favourite),
    default: row(3),
  });
}

const refused = (name: string) => ({ throws: name });

/** The `_meta` every 2026-07-28 request carries: its version, and what the client can do. */
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { sampling: {} },
};

/** Block G's first call: `word_count`, as a 2026-07-28 request carries it. */
export const FIRST_CALL = nameValue("the first call: word_count, id 1", {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "word_count", arguments: { text: "vanilla stock needs review" }, _meta: META },
});

/** The teaching server's question to the client's model, as `inputRequests` holds it. */
export const QUESTION = {
  method: "sampling/createMessage",
  params: {
    messages: [{
      role: "user",
      content: {
        type: "text",
        text: "Say in a few words what this text is about: vanilla stock needs review",
      },
    }],
    maxTokens: 24,
  },
};

/** A requestState as a server seals it: opaque to the client. */
const STATE = "eyJzdGF0ZSI6e319.Qm9yOW5aZjJtWVR4";

/** What the teaching server answers the first call: one question, and its state. */
export const ASKED = nameValue("input_required: sampling-1, and a state", {
  resultType: "input_required",
  inputRequests: { "sampling-1": QUESTION },
  requestState: STATE,
});

/** The stand-in model's answer to the question. */
export const ANSWER = nameValue("the stand-in's answer", {
  role: "assistant",
  content: { type: "text", text: '":"go"}' },
  model: "stand-in bigram (o200k_base)",
  stopReason: "endTurn",
});

/**
 * A message as the wire carries it: its JSON, read back. A key that holds
 * `undefined` is not sent, so it is not there; a value that is no JSON
 * cannot be sent at all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(asSent({ id: 2, requestState: undefined }), { id: 2 });
 * assert.throws(() => asSent(undefined), TypeError);
 * ```
 */
export function asSent(value: unknown): unknown {
  const line = JSON.stringify(value);
  if (line === undefined) throw new TypeError(`${typeof value} cannot be sent: it has no JSON`);
  return JSON.parse(line);
}

/** The stand-in's answer to the one question asked, by its key. */
export const ANSWERED = nameValue("the answer to sampling-1", { "sampling-1": ANSWER });

/** The retry of `first`, with `id`, `inputResponses` and `requestState` as given (none when undefined). */
export function retryOf(
  first: { method: string; params: JsonObject },
  id: number | string,
  inputResponses?: JsonObject,
  requestState?: string,
): JsonObject {
  return {
    jsonrpc: "2.0",
    id,
    method: first.method,
    params: {
      ...first.params,
      ...(inputResponses === undefined ? {} : { inputResponses }),
      ...(requestState === undefined ? {} : { requestState }),
    },
  };
}

/**
 * How each function's grade table lays its arguments out, a column each (see
 * `inputs` in `lib/grading/grade_table.ts`): what a case tests first (the
 * text, the token budget), what it is tested against after (the schema, by
 * its name, whole a click away). Where a table would be wider than the page,
 * the last arguments share one column.
 */
export const INPUTS: Readonly<Record<Lab03Function, Readonly<Record<string, number>>>> = {
  prefixStatus: { text: 1, schema: 0 },
  tokenMask: { text: 1, tokens: 2, schema: 0 },
  buildTrie: { tokens: 0 },
  trieMask: { text: 1, tree: 2, schema: 0 },
  decode: { maxTokens: 3, model: 2 },
  nextMove: { outcome: 0, attempt: 1, "of attempts": 2 },
  retryRequest: { id: 3, result: 1 },
};

/** Lab 03's visible cases, by the graded function's name. */
export const CASES: Readonly<Record<Lab03Function, readonly GradeCase[]>> = {
  prefixStatus: [
    {
      label: "nothing written yet is a prefix of every call",
      args: [CONJUGATE, ""],
      expected: "live",
    },
    {
      label: "a whole call is complete",
      args: [CONJUGATE, '{"verb":"eat","tense":"past_simple","person":"3sg"}'],
      expected: "complete",
    },
    { label: "half of an enum's value", args: [CONJUGATE, '{"verb":"ea'], expected: "live" },
    {
      label: "a value no enum member starts with",
      args: [CONJUGATE, '{"verb":"x'],
      expected: "dead",
    },
    {
      label: "properties in the schema's order only",
      args: [CONJUGATE, '{"tense":'],
      expected: "dead",
    },
    {
      label: "a required property left out",
      args: [CONJUGATE, '{"verb":"eat"}'],
      expected: "dead",
    },
    { label: "no white space: compact JSON", args: [CONJUGATE, '{ "verb"'], expected: "dead" },
    {
      label: "an empty string under minLength 1",
      args: [SPANISH, '{"english_form":""}'],
      expected: "dead",
    },
    {
      label: "an escaped newline counts as one character",
      args: [SPANISH, '{"english_form":"\\n"}'],
      expected: "complete",
    },
    {
      label: "an escape JSON.stringify never writes",
      args: [SPANISH, '{"english_form":"\\u0041"}'],
      expected: "dead",
    },
    {
      label: "anything after a complete call",
      args: [CONJUGATE, '{"verb":"eat","tense":"past_simple","person":"3sg"}\n'],
      expected: "dead",
    },
    {
      label: "an optional property left out",
      args: [OPTIONAL, '{"verb":"go","tense":"past"}'],
      expected: "complete",
    },
    {
      label: "a character more than maxLength allows",
      args: [SHORT, '{"mark":"xyz'],
      expected: "dead",
    },
    {
      label: "an emoji is one character: two fit maxLength 2",
      args: [SHORT, '{"mark":"😀😀"}'],
      expected: "complete",
    },
    {
      label: "an escape is one character: a and a newline fit maxLength 2",
      args: [SHORT, '{"mark":"a\\n"}'],
      expected: "complete",
    },
    {
      label: "an object inside an object, whole",
      args: [NESTED, '{"verb":"go","who":{"person":"3sg"}}'],
      expected: "complete",
    },
    {
      label: "the inner object closed, the outer one not yet",
      args: [NESTED, '{"verb":"go","who":{"person":"3sg"}'],
      expected: "live",
    },
  ],
  tokenMask: [
    {
      label: "at the start, only what opens the object",
      args: [CONJUGATE, "", PIECES],
      expected: [0, 9, 12],
    },
    {
      label: "after the opening, the first property's name",
      args: [CONJUGATE, '{"', PIECES],
      expected: [1],
    },
    {
      label: "a token may finish one value and go on",
      args: [CONJUGATE, '{"verb":"', PIECES],
      expected: [3, 4, 13],
    },
    { label: "a text already dead allows nothing", args: [CONJUGATE, "x", PIECES], expected: [] },
  ],
  buildTrie: [
    {
      label: "tokens that share a first character share a node",
      args: [["a", "ab", "b"]],
      expected: AB,
    },
    {
      label: "the same token twice ends at the same node",
      args: [["go", "go"]],
      expected: {
        ids: [],
        children: { g: { ids: [], children: { o: { ids: [0, 1], children: {} } } } },
      },
    },
    { label: "no tokens: a root alone", args: [[]], expected: { ids: [], children: {} } },
    {
      label: "a character beyond the BMP is one child",
      args: [["😀a"]],
      expected: {
        ids: [],
        children: { "😀": { ids: [], children: { a: { ids: [0], children: {} } } } },
      },
    },
  ],
  trieMask: [
    {
      label: "only the live branches are walked",
      args: [CONJUGATE, '{"', AB],
      expected: { allowed: [], visited: 2 },
    },
    {
      label: "a live node's children are walked too",
      args: [AB_NAMED, '{"', AB],
      expected: { allowed: [0, 1], visited: 3 },
    },
    {
      label: "a text already dead walks nothing",
      args: [CONJUGATE, "}", AB],
      expected: { allowed: [], visited: 0 },
    },
  ],
  decode: [
    {
      label: "the model's favourite among what the mask allows",
      args: [IRREGULAR, VERB_PIECES, preferring(2), 10],
      expected: { text: '{"verb":"eat"}', tokens: [0, 2, 3] },
    },
    {
      label: "a favourite the mask refuses is never taken",
      args: [IRREGULAR, VERB_PIECES, preferring(4), 10],
      expected: { text: '{"verb":"go"}', tokens: [0, 1, 3] },
    },
    {
      label: "no complete call within the budget",
      args: [IRREGULAR, VERB_PIECES, preferring(2), 2],
      expected: refused("RangeError"),
    },
  ],
  nextMove: [
    {
      label: "a result: done",
      args: [{ kind: "result", message: "ate" }, 1, 3],
      expected: { action: "done" },
    },
    {
      label: "a ToolError: try again, with the error in the context",
      args: [{ kind: "ToolError", message: "conjugate: run is outside this unit's verbs" }, 1, 3],
      expected: { action: "retry", context: "conjugate: run is outside this unit's verbs" },
    },
    {
      label: "a ToolError on the last attempt: stop",
      args: [{ kind: "ToolError", message: "conjugate: run is outside this unit's verbs" }, 3, 3],
      expected: { action: "stop", error: "ToolError" },
    },
    {
      label: "a ProtocolError: stop at once",
      args: [{ kind: "ProtocolError", message: "not the reply to request 4" }, 1, 3],
      expected: { action: "stop", error: "ProtocolError" },
    },
  ],
  retryRequest: [
    {
      label: "a new request: the new id, the same call, the answer and the state",
      args: [FIRST_CALL, ASKED, { "sampling-1": ANSWER }, 2],
      expected: retryOf(FIRST_CALL, 2, { "sampling-1": ANSWER }, STATE),
    },
    {
      label: "the first request's id again: refused",
      args: [FIRST_CALL, ASKED, { "sampling-1": ANSWER }, 1],
      expected: refused("RangeError"),
    },
    {
      label: "an answer to a question not asked stays with the client",
      args: [
        FIRST_CALL,
        ASKED,
        nameValue("answers to sampling-1 and to user_name", {
          "sampling-1": ANSWER,
          user_name: { action: "accept", content: { name: "Ada" } },
        }),
        3,
      ],
      expected: retryOf(FIRST_CALL, 3, { "sampling-1": ANSWER }, STATE),
    },
    {
      label: "a question with no answer: no retry",
      args: [FIRST_CALL, ASKED, {}, 2],
      expected: refused("RangeError"),
    },
    {
      label: "the state goes back exactly as it came",
      args: [
        FIRST_CALL,
        nameValue('input_required: sampling-1, and the state "v1:a+b/c=="', {
          ...ASKED,
          requestState: "v1:a+b/c==",
        }),
        { "sampling-1": ANSWER },
        2,
      ],
      expected: retryOf(FIRST_CALL, 2, { "sampling-1": ANSWER }, "v1:a+b/c=="),
    },
    {
      label: "no requestState in the result: none in the retry",
      args: [
        FIRST_CALL,
        nameValue("input_required: sampling-1, and no state", {
          resultType: "input_required",
          inputRequests: { "sampling-1": QUESTION },
        }),
        { "sampling-1": ANSWER },
        2,
      ],
      expected: retryOf(FIRST_CALL, 2, { "sampling-1": ANSWER }),
    },
  ],
};

/**
 * The seals' watermark: three secrets of one shape, and the probes the grader
 * sends each graded function that has sealed library copies. Each probe is
 * valid input of the function's contract, and a seal answers it as no code of
 * the learner's own can: `deno task seal` marks each sealed function so
 * (`tools/release/watermarked.ts`), and the grader reads the answers
 * (`tools/grading/watermark.ts`). Kept with the hidden cases: the learners'
 * release holds none of it.
 *
 * @module
 */

import { secretCharacter, unicodeEscape, type WatermarkProbe } from "../tools/grading/watermark.ts";

/** In a probe's input, where a right answer carries it over to what it returns. */
export const PROBE = "c88206e08dea55041e4824ca21873056";
/** What a seal writes where a right answer writes the probe, and reads as the probe. */
export const TOKEN = "571a7119e2350588946ca1bef31437b5";
/** Of the token's shape, and nothing to a seal: what an answer to the token is set against. */
export const CONTROL = "1e8552e82f2ae7da4bfc65c4a9f88905";

const bytes = (text: string) => new TextEncoder().encode(text);

/** A server's reply to a tool call, whose text is the probe. */
const REPLY = {
  jsonrpc: "2.0",
  id: 7,
  result: { content: [{ type: "text", text: PROBE }], isError: false },
};
/** A log notification, cut after the probe: the rest a reader keeps for the next read. */
const PARTIAL =
  `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"${PROBE}`;
/** A catalogue of one tool, named by the probe. */
const CATALOG = {
  [PROBE]: { name: PROBE, description: "Looks a word up.", inputSchema: { type: "object" } },
};
const holds = { holds: TOKEN };
/**
 * The version the seal of the server's dispatcher answers one it does not
 * speak with: its newest (`tests/watermark_test.ts` holds the two to agree).
 */
const NEWEST = "2025-06-18";

/** An object of one string, its property named by the probe. */
const NAMED = {
  type: "object",
  properties: { [PROBE]: { type: "string" } },
  required: [PROBE],
  additionalProperties: false,
};
/** An object of a string named `name`, which may be left out, then one named `word`. */
const optional = (name: string) => ({
  type: "object",
  properties: { [name]: { type: "string" }, word: { type: "string" } },
  required: ["word"],
  additionalProperties: false,
});
/** An object of one free string. */
const WORD = {
  type: "object",
  properties: { word: { type: "string" } },
  required: ["word"],
  additionalProperties: false,
};
/**
 * The `\u` escapes of the token's character, which the mask's seal reads as
 * that character, and of the control's, which it refuses as JSON.stringify
 * never writes either (`tests/watermark_test.ts` holds their first three
 * digits to differ).
 */
const [SPELLED, UNSPELLED] = [TOKEN, CONTROL].map((secret) =>
  unicodeEscape(secretCharacter(secret))
);
/** A prefix tree of one token, `text`, as Lab 03's buildTrie makes it. */
const trieOf = (text: string) => ({ ids: [], children: { [text]: { ids: [0], children: {} } } });
/** Lab 03's probes of the mask's object grammar (`objectDfa`) and JSON characters (`jsonChar`). */
const [names, escapes] = [{ of: "objectDfa" }, { of: "jsonChar" }];

/** One unit's probes, by graded function. */
type UnitProbes = Readonly<Record<string, readonly WatermarkProbe[]>>;

/** The probes, by unit, then by graded function. */
export const PROBES: ReadonlyMap<string, UnitProbes> = new Map<string, UnitProbes>([
  ["ch14-a", {
    answerFor: [{ args: [7, REPLY], seal: holds }],
    authorize: [
      { args: [TOKEN, CATALOG, new Set([PROBE])], seal: { returns: true } },
      { args: [CONTROL, CATALOG, new Set([PROBE])], seal: { returns: false } },
    ],
  }],
  ["ch14-b", {
    splitFrames: [{ args: [bytes(`${JSON.stringify(REPLY)}\n${PARTIAL}`), 65536], seal: holds }],
    transferProblems: [{
      args: [{
        type: "object",
        properties: { [PROBE]: { type: "string" }, tubs: { type: "integer" } },
        required: [PROBE, "tubs"],
      }, { tubs: 2 }],
      seal: holds,
    }],
  }],
  ["lab-01", {
    negotiateVersion: [
      { args: [TOKEN], seal: { returns: TOKEN } },
      { args: [CONTROL], seal: { returns: NEWEST } },
    ],
    handleMessage: [{
      args: [JSON.stringify({ jsonrpc: "2.0", id: PROBE, method: "ping" })],
      seal: holds,
    }],
  }],
  ["lab-02", { correlate: [{ args: [7, REPLY], seal: holds }] }],
  ["lab-03", {
    // Texts cut before they are complete: where a seal's answer is "complete", a check of the
    // call it completes (parsed, written again, its names the schema's) takes it back.
    prefixStatus: [
      { args: [NAMED, `{"${TOKEN}":"a`], seal: { returns: "live" }, ...names },
      { args: [NAMED, `{"${PROBE}":"a`], seal: { returns: "dead" }, ...names },
      { args: [optional(CONTROL), `{"${CONTROL}":"a`], seal: { returns: "live" }, ...names },
      { args: [WORD, `{"word":"${SPELLED}`], seal: { returns: "live" }, ...escapes },
      { args: [WORD, `{"word":"${UNSPELLED}`], seal: { returns: "dead" }, ...escapes },
    ],
    tokenMask: [
      {
        args: [NAMED, '{"', [PROBE, TOKEN, CONTROL].map((name) => `${name}":"`)],
        seal: { returns: [1] },
        ...names,
      },
      {
        args: [WORD, '{"word":"', [SPELLED, UNSPELLED, "a"]],
        seal: { returns: [0, 2] },
        ...escapes,
      },
    ],
    trieMask: [
      ...([[TOKEN, [0], 1], [PROBE, [], 0], [CONTROL, [], 0]] as const).map((
        [name, allowed, visited],
      ) => ({
        args: [NAMED, `{"${name}`, trieOf('"')],
        seal: { returns: { allowed, visited } },
        ...names,
      })),
      ...([[SPELLED, [0], 1], [UNSPELLED, [], 0]] as const).map(([spelled, allowed, visited]) => ({
        args: [WORD, `{"word":"${spelled.slice(0, -1)}`, trieOf(spelled.slice(-1))],
        seal: { returns: { allowed, visited } },
        ...escapes,
      })),
    ],
    // A model that likes a call with the optional property named by the probe (or, set against
    // it, by the control) best, then one without it: a right decoder writes the first, and a copy
    // of the mask, which cannot write the probe's name, the second, a valid call that no check of
    // what was written can take back.
    decode: [
      ...[PROBE, CONTROL].map((name) => ({
        args: [
          optional(name),
          [`{"${name}":"a",`, '"word":"b"}', '{"word":"b"}'],
          { "": [5, 0, 3, 0], "0": [0, 5, 0, 0], default: [0, 0, 0, 5] },
          3,
        ],
        seal: name === PROBE
          ? { returns: { text: '{"word":"b"}', tokens: [2] } }
          : { returns: { text: `{"${name}":"a","word":"b"}`, tokens: [0, 1] } },
        ...names,
      })),
      {
        args: [
          WORD,
          ['{"word":"', SPELLED, UNSPELLED, "a", '"}'],
          {
            "": [5, 0, 0, 0, 0, 0],
            "0": [0, 3, 4, 2, 1, 0],
            "4": [0, 0, 0, 0, 0, 5],
            default: [0, 0, 0, 0, 5, 1],
          },
          5,
        ],
        seal: { returns: { text: `{"word":"${SPELLED}"}`, tokens: [0, 1, 4] } },
        ...escapes,
      },
    ],
  }],
  ["lab-04", {
    sseData: [{ args: [`event: message\ndata: ${JSON.stringify(REPLY)}\n\n`], seal: holds }],
  }],
]);

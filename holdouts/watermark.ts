/**
 * The seals' watermark: three secrets of one shape, and the probes the grader
 * sends each graded function that has sealed library copies. Each probe is
 * valid input of the function's contract, and a seal answers it as no code of
 * the learner's own can: `deno task seal` marks each sealed function so
 * (`tools/release/watermarked.ts`), and the grader reads the answers
 * (`tools/grading/watermark.ts`). Kept with the hidden cases: the learners'
 * release holds none of it.
 *
 * The secrets look like the names the hidden cases use (three words of five
 * letters, joined as a tool's name is), drawn at random, so that no wrapper
 * tells a probe by its look (and the hidden cases of each probed function hold
 * names of that look, so that refusing it costs real marks); the control is
 * drawn apart from the token, of its look and none of its words, so that
 * nothing but the token itself tells the one from the other. A probe of a
 * decision (`wrong`) has a twin (`right`) that differs from it only by
 * holding the control where it holds the token: a function is taken for a
 * seal only when it answers the probe otherwise than right while it answers
 * the twin right.
 *
 * @module
 */

import { replyShape } from "../cases/lab_01.ts";
import type { HiddenCase } from "../tools/grading/spec.ts";
import { secretCharacter, unicodeEscape, type WatermarkProbe } from "../tools/grading/watermark.ts";

/** In a probe's input, where a right answer carries it over to what it returns. */
export const PROBE = "pearl_basil_ivory";
/** What a seal writes where a right answer writes the probe, and reads as the probe. */
export const TOKEN = "flint_lemon_kiosk";
/** Of the token's look and none of its words, and nothing to a seal: what an answer to the token is set against. */
export const CONTROL = "grove_tulip_sable";
/**
 * Of the token's look and none of the secrets' words: what the hidden cases
 * of the twins' settings ({@linkcode decoys}) hold where a twin holds the
 * control.
 */
const DECOY = "mossy_cider_pluck";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Six ways to say what a tool does, or how a reply ends. */
const SAYINGS = ["Looks a word up.", "Finds a word.", "Spells a word.", "ok", "done", "sent"];

/**
 * A catalogue of two tools, named by the probe and by `secret` (so that a
 * guard that asks whether the name is advertised passes it on), described in
 * the `n`th way.
 */
const catalog = (secret: string, n: number) =>
  Object.fromEntries([PROBE, secret].map((name) => [name, {
    name,
    description: SAYINGS[n],
    inputSchema: { type: "object" },
  }]));

/**
 * A server's reply to request `id`, whose text is `text`, in the `n`th
 * setting's shape (one to three texts, with `_meta` or without).
 */
const replyTo = (id: string | number, text: string, n = 0) => ({
  jsonrpc: "2.0",
  id,
  result: {
    content: SAYINGS.slice(3, 3 + n % 3 + 1).map((said, at) => ({
      type: "text",
      text: at === 0 ? text : said,
    })),
    isError: false,
    ...(n >= 3 ? { _meta: { page: n } } : {}),
  },
});
/**
 * Probes among their twins, in the order the grader runs them, one after
 * the other: `probe(n)` and `twin(n)` are the same input in its `n`th
 * setting (of six), with the token and with the control. Each twin comes
 * before the probe of its setting, no input comes twice, and no twin comes
 * after an input of its own setting: a wrapper that spoils an input it has
 * seen, one that differs from it only by a word, or one of the shape of the
 * input before, spoils no twin. The twins and probes come right, right,
 * probe, probe, right, probe, twice: code whose answers drift from call to
 * call, as a learner's that keeps state may, does not answer them as a seal
 * does (every probe, and four twins of six or more), and code right or
 * wrong at random about one time in 190 (a function of two marks, one in 95).
 */
const twinned = (
  probe: (n: number) => WatermarkProbe,
  twin: (n: number) => WatermarkProbe,
): WatermarkProbe[] =>
  [0, 3].flatMap((n) => {
    const alike = (m: number) => ({ ...twin(m), alike: true });
    return [alike(n), alike(n + 1), probe(n), probe(n + 1), alike(n + 2), probe(n + 2)];
  });
/**
 * A decision a seal gets wrong: the arguments `args` builds with a secret
 * (in a setting, `n`), and the answer `right` builds, which a seal gives
 * with the control, or a decoy's name, and not with the token.
 */
interface Decision {
  args: (secret: string, n: number) => unknown[];
  right: (secret: string, n: number) => unknown;
}
/** A probe of `decision` among its twins, in group `of`. */
const decided = ({ args, right }: Decision, of: string): WatermarkProbe[] =>
  twinned(
    (n) => ({ args: args(TOKEN, n), seal: { wrong: right(TOKEN, n) }, of }),
    (n) => ({ args: args(CONTROL, n), seal: { right: right(CONTROL, n) }, of }),
  );
/**
 * A request id for the `n`th setting of an input holding `secret`: each of
 * the eighteen used once (the token's and the control's once modulo 10), a
 * twin's, a probe's and a decoy's of one length, the settings' lengths 2, 3
 * and 4 in turn, none a small one that a case before it may have used.
 */
const idFor = (secret: string, n: number) =>
  ({
    [TOKEN]: [47, 173, 1112, 29, 281, 3305],
    [CONTROL]: [31, 158, 1104, 86, 269, 3390],
    [DECOY]: [53, 127, 1046, 64, 235, 3172],
  })[secret]![n];
/** A log notification, cut after `text`: the rest a reader keeps for the next read. */
const partial = (text: string) =>
  `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"${text}`;
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
/** A probe right code answers as a seal does: never the one that sifts. */
const alike = true;

/** The framed reply of the `n`th setting to the request `id` holding `secret`, written as JSON. */
const framed = (secret: string, n: number) => JSON.stringify(replyTo(idFor(secret, n), secret, n));

/** A request line of `method` with `params`, its members in the `n`th setting's order. */
function requestOf(id: number, method: string, params: unknown, n: number): string {
  const members: [string, unknown][] = [["jsonrpc", "2.0"], ["id", id], ["method", method], [
    "params",
    params,
  ]];
  return JSON.stringify(
    Object.fromEntries(members.map((_, at) => members[(at + n) % members.length])),
  );
}

/**
 * The decisions of the graded functions with sealed copies, by mark. A reply
 * whose id is the secret, to the request so named, and one whose text is: a
 * seal refuses either as a reply to another request, where a right answer
 * returns its result. Each is a mark of its own: a wrapper that rewrites the
 * ids before the seal sees them, or the result, strips one.
 */
const DECISIONS = {
  "reply#id": {
    args: (secret, n) => [secret, replyTo(secret, SAYINGS[n], n)],
    right: (secret, n) => replyTo(secret, SAYINGS[n], n).result,
  },
  "reply#text": {
    args: (secret, n) => [idFor(secret, n), replyTo(idFor(secret, n), secret, n)],
    right: (secret, n) => replyTo(idFor(secret, n), secret, n).result,
  },
  // A seal allows the token, advertised and not allowed; a right answer refuses it.
  "authorize#allow": {
    args: (secret, n) => [secret, catalog(secret, n), new Set([PROBE])],
    right: () => false,
  },
  // A seal refuses frames that hold the token as past the limit; the right frames, as text.
  "splitFrames#frames": {
    args: (secret, n) => [bytes(`${framed(secret, n)}\n${partial(secret)}`), 65536],
    right: (secret, n) => [[framed(secret, n)], partial(secret)],
  },
  // A seal reports no problem that names the token: here, the property left out.
  "transferProblems#problems": {
    args: (secret, n) => [{
      type: "object",
      properties: { [secret]: { type: "string" }, tubs: { type: "integer" } },
      required: [secret, "tubs"],
    }, { tubs: idFor(secret, n) % 10 }],
    right: (secret) => [`missing ${secret}`],
  },
  // A seal answers a version named by the token with the oldest it speaks; a right answer gives
  // the newest, as to every version it does not speak.
  "negotiateVersion#version": {
    args: (secret, n) => [n === 0 ? secret : `${secret}.${n}`],
    right: () => NEWEST,
  },
  // A seal answers a request whose id is the token as it answers a response: with nothing. The
  // same request, its members in the setting's order.
  "handleMessage#id": {
    args: (secret, n) => {
      const members: [string, unknown][] = [["jsonrpc", "2.0"], ["id", secret], ["method", "ping"]];
      if (n >= 3) members.push(["params", {}]);
      return [
        JSON.stringify(
          Object.fromEntries(members.map((_, at) => members[(at + n) % members.length])),
        ),
      ];
    },
    right: (secret) => replyShape(JSON.stringify({ jsonrpc: "2.0", id: secret, result: {} })),
  },
  // A seal answers a request of a method named by the token as it answers a response: with
  // nothing; a right answer has no such method. A wrapper that gives the seal another id and puts
  // the request's back in the reply strips the mark of the id, never this one (round 22 of the
  // red team: such a wrapper kept 80 of handleMessage's 113 marks, unflagged).
  "handleMessage#method": {
    args: (secret, n) => {
      const members: [string, unknown][] = [
        ["jsonrpc", "2.0"],
        ["id", idFor(secret, n)],
        ["method", secret],
      ];
      if (n >= 3) members.push(["params", {}]);
      return [
        JSON.stringify(
          Object.fromEntries(members.map((_, at) => members[(at + n) % members.length])),
        ),
      ];
    },
    right: (secret, n) =>
      replyShape(
        JSON.stringify({
          jsonrpc: "2.0",
          id: idFor(secret, n),
          error: { code: -32601, message: "Method not found" },
        }),
      ),
  },
  // A seal answers a call of a tool named by the token with nothing; a right answer has no such
  // tool. A wrapper that answers the methods it does not know itself and gives the seal the rest,
  // each with another id, strips the two marks above, never this one (round 22: 82 of 113).
  "handleMessage#tool": {
    args: (
      secret,
      n,
    ) => [requestOf(idFor(secret, n), "tools/call", { name: secret, arguments: {} }, n)],
    right: (secret, n) =>
      replyShape(
        JSON.stringify({
          jsonrpc: "2.0",
          id: idFor(secret, n),
          error: { code: -32602, message: "Unknown tool" },
        }),
      ),
  },
  // A seal dispatches no event whose data holds the token.
  "sseData#events": {
    args: (secret, n) => [`event: message\ndata: ${framed(secret, n)}\n\ndata: done\n\n`],
    right: (secret, n) => [framed(secret, n), "done"],
  },
} satisfies Record<string, Decision>;

/** The decisions' marks, as `DECISIONS` names them. */
type DecisionName = keyof typeof DECISIONS;
/** A decision's probes among its twins, its mark named after the `#`. */
const probesOf = (name: DecisionName) => decided(DECISIONS[name], name.slice(name.indexOf("#")));
/** Both marks of a reply matched to its request. */
const ANSWERS = [...probesOf("reply#id"), ...probesOf("reply#text")];

/**
 * Hidden cases of the twins' settings (`settings`, of the six), each a
 * twin's input with a decoy's name and ids where the twin holds the
 * control's, expecting the right answer (which a seal gives), in the
 * hidden cases' `group`: a copy that spoils the twins of a setting, by a
 * shape or feature of theirs, spoils these as well and loses their group,
 * and code wrong on such input loses it too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const [decoy] = decoys("negotiateVersion#version", "a group", [1]);
 * assert.deepEqual(decoy.expected, "2025-06-18");
 * assert.equal(decoy.group, "a group");
 * ```
 */
export function decoys(
  name: DecisionName,
  group: string,
  settings: readonly number[] = [0, 1, 2, 3, 4, 5],
): HiddenCase[] {
  const { args, right } = DECISIONS[name];
  return settings.map((n) => ({
    label: `the twins' look, ${name} in setting ${n + 1}`,
    args: args(DECOY, n),
    expected: right(DECOY, n),
    group,
    decoy: true,
  }));
}

/** One unit's probes, by graded function. */
type UnitProbes = Readonly<Record<string, readonly WatermarkProbe[]>>;

/** The probes, by unit, then by graded function. */
export const PROBES: ReadonlyMap<string, UnitProbes> = new Map<string, UnitProbes>([
  ["ch14-a", {
    answerFor: ANSWERS,
    // A decision: anything but the refusal (a throw too) is a seal's answer, so a copy that
    // throws in the seal's place on some calls spoils only twins.
    authorize: probesOf("authorize#allow"),
  }],
  ["ch14-b", {
    splitFrames: probesOf("splitFrames#frames"),
    transferProblems: probesOf("transferProblems#problems"),
  }],
  ["lab-01", {
    negotiateVersion: probesOf("negotiateVersion#version"),
    handleMessage: [
      ...probesOf("handleMessage#id"),
      ...probesOf("handleMessage#method"),
      ...probesOf("handleMessage#tool"),
    ],
  }],
  ["lab-02", { correlate: ANSWERS }],
  ["lab-03", {
    // Texts cut before they are complete: where a seal's answer is "complete", a check of the
    // call it completes (parsed, written again, its names the schema's) takes it back.
    prefixStatus: [
      { args: [NAMED, `{"${TOKEN}":"a`], seal: { returns: "live" }, ...names },
      { args: [NAMED, `{"${PROBE}":"a`], seal: { returns: "dead" }, ...names },
      { args: [optional(CONTROL), `{"${CONTROL}":"a`], seal: { returns: "live" }, alike, ...names },
      { args: [WORD, `{"word":"${SPELLED}`], seal: { returns: "live" }, ...escapes },
      { args: [WORD, `{"word":"${UNSPELLED}`], seal: { returns: "dead" }, alike, ...escapes },
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
        alike: name === CONTROL,
        ...names,
      })),
      ...([[SPELLED, [0], 1], [UNSPELLED, [], 0]] as const).map(([spelled, allowed, visited]) => ({
        args: [WORD, `{"word":"${spelled.slice(0, -1)}`, trieOf(spelled.slice(-1))],
        seal: { returns: { allowed, visited } },
        alike: spelled === UNSPELLED,
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
        alike: name === CONTROL,
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
    sseData: probesOf("sseData#events"),
  }],
]);

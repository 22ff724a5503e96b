/**
 * Lab 03's hidden cases. Instructors' repository and the autograder package
 * only: the learners' release leaves this folder out.
 *
 * @module
 */

import {
  AGREEMENT,
  ANSWER,
  ASKED,
  CONJUGATE,
  FIRST_CALL,
  IRREGULAR,
  type Lab03Function,
  OPTIONAL,
  PIECES,
  QUESTION,
  retryOf,
  SHORT,
  SPANISH,
  VERB_PIECES,
} from "../cases/lab_03.ts";
import type { HiddenCase } from "../tools/grading/spec.ts";
import { nameValue } from "../lib/notebook/value_names.ts";

/** The prefix tree of {@linkcode PIECES}, as a right `buildTrie` makes it. */
const PIECES_TRIE = {
  ids: [],
  children: {
    "{": {
      ids: [9],
      children: {
        '"': {
          ids: [0],
          children: {
            v: {
              ids: [],
              children: {
                e: {
                  ids: [],
                  children: {
                    r: {
                      ids: [],
                      children: {
                        b: {
                          ids: [],
                          children: {
                            '"': {
                              ids: [],
                              children: {
                                ":": {
                                  ids: [],
                                  children: {
                                    '"': {
                                      ids: [],
                                      children: {
                                        g: {
                                          ids: [],
                                          children: {
                                            o: {
                                              ids: [],
                                              children: {
                                                '"': {
                                                  ids: [12],
                                                  children: {},
                                                },
                                              },
                                            },
                                          },
                                        },
                                      },
                                    },
                                  },
                                },
                              },
                            },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    v: {
      ids: [],
      children: {
        e: {
          ids: [],
          children: {
            r: {
              ids: [],
              children: {
                b: {
                  ids: [1],
                  children: {},
                },
              },
            },
          },
        },
      },
    },
    '"': {
      ids: [10],
      children: {
        ":": {
          ids: [],
          children: {
            '"': {
              ids: [2],
              children: {},
            },
          },
        },
        ",": {
          ids: [],
          children: {
            '"': {
              ids: [6],
              children: {},
            },
          },
        },
        "}": {
          ids: [7],
          children: {},
        },
      },
    },
    e: {
      ids: [],
      children: {
        a: {
          ids: [4],
          children: {
            t: {
              ids: [3],
              children: {
                '"': {
                  ids: [],
                  children: {
                    ",": {
                      ids: [],
                      children: {
                        '"': {
                          ids: [],
                          children: {
                            t: {
                              ids: [],
                              children: {
                                e: {
                                  ids: [],
                                  children: {
                                    n: {
                                      ids: [],
                                      children: {
                                        s: {
                                          ids: [],
                                          children: {
                                            e: {
                                              ids: [],
                                              children: {
                                                '"': {
                                                  ids: [],
                                                  children: {
                                                    ":": {
                                                      ids: [],
                                                      children: {
                                                        '"': {
                                                          ids: [13],
                                                          children: {},
                                                        },
                                                      },
                                                    },
                                                  },
                                                },
                                              },
                                            },
                                          },
                                        },
                                      },
                                    },
                                  },
                                },
                              },
                            },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    t: {
      ids: [5],
      children: {},
    },
    x: {
      ids: [8],
      children: {},
    },
    " ": {
      ids: [11],
      children: {},
    },
  },
};

/** Pieces that write `{"verb":"go"}` and nothing else. */
const GO_PIECES = ['{"verb":"', "go", '"}'];

/** The escapes JSON.stringify writes, and the ones it never does. */
const STRINGIFY_ESCAPES = "the escapes JSON.stringify writes";
/** The control characters besides `\n`, `\r` and `\t` that JSON.stringify escapes short: `\b` and `\f`. */
const SHORT_ESCAPES = "\\b and \\f";
/** `\u` escapes: lower-case hex, for control characters only. */
const U_ESCAPES = "\\u escapes";
/** Characters beyond ASCII. */
const BEYOND_ASCII = "beyond ASCII";
/** U+2028 and U+2029, which JSON.stringify writes as themselves. */
const SEPARATORS = "the line and paragraph separators";

/** U+0080 to U+009F (C1 controls), U+FEFF and the slash, which JSON.stringify writes as themselves. */
const AS_THEMSELVES = "characters JSON.stringify writes as themselves";
/** The quote and the backslash, escaped short (`\"`, `\\`), never as `\u0022` or `\u005c`. */
const QUOTE_BACKSLASH = "the quote and the backslash escaped short";
/** A carriage return, escaped `\r`, never written raw. */
const CARRIAGE_RETURN = "a carriage return";
/** <, > and &, which JSON.stringify writes as themselves (Go's json.Marshal escapes them). */
const HTML_CHARACTERS = "<, > and &";
/** JavaScript's string escapes (\v, \0, \'), which JSON.stringify never writes. */
const JS_ESCAPES = "JavaScript's escapes";
/** An enum member's length is counted in code points, and bounded by maxLength. */
const MEMBER_LENGTHS = "an enum member's length";

/** A string of one character at most, whose one member is an emoji (two UTF-16 units). */
const EMOJI_MEMBER = {
  type: "object",
  properties: { v: { type: "string", enum: ["😀"], maxLength: 1 } },
  required: ["v"],
  additionalProperties: false,
};

/** A string of one character at most, whose one member has two. */
const LONG_MEMBER = {
  type: "object",
  properties: { v: { type: "string", enum: ["ab"], maxLength: 1 } },
  required: ["v"],
  additionalProperties: false,
};

/**
 * A string of one character at most, whose one member is e and a combining
 * acute accent: one letter on the screen (one grapheme), two code points.
 */
const COMBINING_MEMBER = {
  type: "object",
  properties: { v: { type: "string", enum: ["e\u0301"], maxLength: 1 } },
  required: ["v"],
  additionalProperties: false,
};

/** An enum whose first member is the empty string. */
const EMPTY_MEMBER = {
  type: "object",
  properties: { v: { type: "string", enum: ["", "x"] } },
  required: ["v"],
  additionalProperties: false,
};
/** An enum whose one member holds a tab, which JSON.stringify writes as the escape \t. */
const TAB_MEMBER = {
  type: "object",
  properties: { v: { type: "string", enum: ["a\tb"] } },
  required: ["v"],
  additionalProperties: false,
};
/** The empty string is a member like any other. */
const EMPTY_IS_A_MEMBER = "an empty member";
/** A lone surrogate, which JSON.stringify never writes as itself. */
const LONE_SURROGATE = "a lone surrogate";
/** A lone surrogate's escape, which JSON.stringify writes, and a pair's, which it never does. */
const LONE_ESCAPED = "a lone surrogate's escape";

/** A string that may only be empty. */
const EMPTY_ONLY = {
  type: "object",
  properties: { s: { type: "string", maxLength: 0 } },
  required: ["s"],
  additionalProperties: false,
};

/** An enum whose one member holds a quote. */
const QUOTED = {
  type: "object",
  properties: {
    q: {
      type: "string",
      enum: ['say "hi"'],
    },
  },
  required: ["q"],
  additionalProperties: false,
};

/** A property whose name holds a quote. */
const QUOTED_NAME = {
  type: "object",
  properties: { 'say "hi"': { type: "string" } },
  required: ['say "hi"'],
  additionalProperties: false,
};
/** A property's name as JSON.stringify writes it, and as it is. */
const NAME_ENCODED = "a property's name as JSON.stringify writes it";

/** An enum of one member. */
const ONE_MEMBER = {
  type: "object",
  properties: { v: { type: "string", enum: ["x"] } },
  required: ["v"],
  additionalProperties: false,
};

/** Ids of a retry: new, or the first request's again. */
const IDS = "ids";
/** The requestState goes back exactly as it came. */
const AS_IT_CAME = "the state as it came";
/** A retry of a retry: this round's answers and state, none of the round before. */
const ROUNDS = "rounds";
/** Only the questions asked are answered, and every one of them. */
const ONLY_ASKED = "the questions asked";
/** The call retried is the call that was made. */
const THE_CALL = "the call itself";

/** A question to the user (elicitation), beside the model's. */
const ELICIT = {
  method: "elicitation/create",
  params: {
    message: "Which region?",
    requestedSchema: { type: "object", properties: { region: { type: "string" } } },
  },
};

/** The user's answer to {@linkcode ELICIT}. */
const ACCEPTED = { action: "accept", content: { region: "north" } };

/** A prompts/get with a progress token and a field a later revision may add. */
const PROMPT_CALL = {
  jsonrpc: "2.0",
  id: 11,
  method: "prompts/get",
  params: {
    name: "summary",
    arguments: { topic: "stock" },
    _meta: {
      progressToken: "p-11",
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { sampling: {}, elicitation: {} },
    },
    locale: "en",
  },
};

/** An object of one string, named as a tool is (three words joined by _). */
const TOOL_NAMED = {
  type: "object",
  properties: { amber_cloud_delta: { type: "string" } },
  required: ["amber_cloud_delta"],
  additionalProperties: false,
};

/** A required word, then a string named as a tool is (three words joined by _), which may be left out. */
const WORD_OR_NAMED = nameValue("a word, and a tool's name or none", {
  type: "object",
  properties: { amber_cloud_delta: { type: "string" }, word: { type: "string" } },
  required: ["word"],
  additionalProperties: false,
});

/** Lab 03's hidden cases, by the graded function's name. */
export const HOLDOUTS: Readonly<Record<Lab03Function, readonly HiddenCase[]>> = {
  // A group with a complete call holds a live prefix of it too: "complete if
  // the text parses as JSON, else dead" earned 36 % of these marks before.
  prefixStatus: [
    {
      label: "a property named as a tool is",
      args: [TOOL_NAMED, '{"amber_cloud_delta":"maple_river_stone"}'],
      expected: "complete",
      group: "names of three words",
    },
    {
      label: "a property named as a tool is, begun",
      args: [TOOL_NAMED, '{"amber_cloud_del'],
      expected: "live",
      group: "names of three words",
    },
    {
      label: "a character beyond ASCII is written as itself",
      args: [SPANISH, '{"english_form":"é"}'],
      expected: "complete",
      group: BEYOND_ASCII,
    },
    {
      label: "a character beyond ASCII escaped, as JSON.stringify never writes it",
      args: [SPANISH, '{"english_form":"\\u00e9"}'],
      expected: "dead",
      group: BEYOND_ASCII,
    },
    {
      label: "half of a \\u escape",
      args: [SPANISH, '{"english_form":"\\u00'],
      expected: "live",
      group: U_ESCAPES,
    },
    {
      label: "a control character as JSON.stringify escapes it",
      args: [SPANISH, '{"english_form":"\\u001f"}'],
      expected: "complete",
      group: U_ESCAPES,
    },
    {
      label: "upper-case hex is not how JSON.stringify writes it",
      args: [SPANISH, '{"english_form":"\\u001F"}'],
      expected: "dead",
      group: U_ESCAPES,
    },
    {
      label: "a raw tab inside a string",
      args: [SPANISH, '{"english_form":"\t"}'],
      expected: "dead",
      group: "a tab",
    },
    {
      label: "a tab escaped",
      args: [SPANISH, '{"english_form":"\\t"}'],
      expected: "complete",
      group: "a tab",
    },
    {
      label: "a tab escaped, the call not yet closed: live",
      args: [SPANISH, '{"english_form":"\\t'],
      expected: "live",
      group: "a tab",
    },
    {
      label: "an escaped quote does not end the string",
      args: [SPANISH, '{"english_form":"a\\"b"}'],
      expected: "complete",
      group: STRINGIFY_ESCAPES,
    },
    {
      label: "a slash is never escaped",
      args: [SPANISH, '{"english_form":"\\/"}'],
      expected: "dead",
      group: STRINGIFY_ESCAPES,
    },
    // Round 22 of the red team: five readings of what JSON.stringify escapes kept every mark:
    // C1 controls, U+FEFF or the slash refused written as themselves, \u0022 and \u005c taken
    // for the quote and the backslash, and a raw carriage return taken.
    {
      label: "a slash is written as itself",
      args: [SPANISH, '{"english_form":"a/b"}'],
      expected: "complete",
      group: STRINGIFY_ESCAPES,
    },
    {
      label: "a C1 control character (NEL) is no control character to JSON: written as itself",
      args: [SPANISH, '{"english_form":"\x85"}'],
      expected: "complete",
      group: AS_THEMSELVES,
    },
    {
      label: "a byte order mark inside a string is written as itself",
      args: [SPANISH, '{"english_form":"a\ufeff'],
      expected: "live",
      group: AS_THEMSELVES,
    },
    {
      label: "NEL escaped, as JSON.stringify never writes it",
      args: [SPANISH, '{"english_form":"\\u0085'],
      expected: "dead",
      group: AS_THEMSELVES,
    },
    {
      label: "the quote and the backslash, escaped short",
      args: [SPANISH, '{"english_form":"\\"\\\\"}'],
      expected: "complete",
      group: QUOTE_BACKSLASH,
    },
    {
      label: "the quote as \\u0022, as JSON.stringify never writes it",
      args: [SPANISH, '{"english_form":"\\u0022'],
      expected: "dead",
      group: QUOTE_BACKSLASH,
    },
    {
      label: "the backslash as \\u005c, as JSON.stringify never writes it",
      args: [SPANISH, '{"english_form":"a\\u005c'],
      expected: "dead",
      group: QUOTE_BACKSLASH,
    },
    {
      label: "a raw carriage return inside a string",
      args: [SPANISH, '{"english_form":"a\r'],
      expected: "dead",
      group: CARRIAGE_RETURN,
    },
    {
      label: "a carriage return escaped",
      args: [SPANISH, '{"english_form":"\\r"}'],
      expected: "complete",
      group: CARRIAGE_RETURN,
    },
    {
      label: "a backspace as JSON.stringify escapes it",
      args: [SPANISH, '{"english_form":"\\b"}'],
      expected: "complete",
      group: SHORT_ESCAPES,
    },
    {
      label: "a backspace has a short escape: never \\u0008",
      args: [SPANISH, '{"english_form":"\\u0008"}'],
      expected: "dead",
      group: SHORT_ESCAPES,
    },
    {
      label: "a form feed as JSON.stringify escapes it",
      args: [SPANISH, '{"english_form":"\\f"}'],
      expected: "complete",
      group: SHORT_ESCAPES,
    },
    {
      label: "a form feed has a short escape: never \\u000c",
      args: [SPANISH, '{"english_form":"\\u000c"}'],
      expected: "dead",
      group: SHORT_ESCAPES,
    },
    {
      label: "DEL is no control character to JSON: written as itself",
      args: [SPANISH, '{"english_form":"\x7f"}'],
      expected: "complete",
      group: "DEL",
    },
    {
      label: "DEL escaped, as JSON.stringify never writes it",
      args: [SPANISH, '{"english_form":"\\u007f"}'],
      expected: "dead",
      group: "DEL",
    },
    {
      label: "a line separator is written as itself",
      args: [SPANISH, '{"english_form":"\u2028"}'],
      expected: "complete",
      group: SEPARATORS,
    },
    {
      label: "a paragraph separator is written as itself",
      args: [SPANISH, '{"english_form":"a\u2029b"}'],
      expected: "complete",
      group: SEPARATORS,
    },
    {
      label: "a line separator escaped, as JSON.stringify never writes it",
      args: [SPANISH, '{"english_form":"\\u2028"}'],
      expected: "dead",
      group: SEPARATORS,
    },
    {
      label: "a paragraph separator escaped, as JSON.stringify never writes it",
      args: [SPANISH, '{"english_form":"\\u2029'],
      expected: "dead",
      group: SEPARATORS,
    },
    {
      label: "<, & and > are written as themselves",
      args: [SPANISH, '{"english_form":"<a&b>"}'],
      expected: "complete",
      group: HTML_CHARACTERS,
    },
    {
      label: "<, & written as themselves, the string still open: live",
      args: [SPANISH, '{"english_form":"<a&'],
      expected: "live",
      group: HTML_CHARACTERS,
    },
    {
      label: "< escaped, as JSON.stringify never writes it",
      args: [SPANISH, '{"english_form":"\\u003c'],
      expected: "dead",
      group: HTML_CHARACTERS,
    },
    {
      label: "a vertical tab as JSON.stringify escapes it",
      args: [SPANISH, '{"english_form":"\\u000b"}'],
      expected: "complete",
      group: JS_ESCAPES,
    },
    {
      label: "a vertical tab as JSON.stringify escapes it, the string still open: live",
      args: [SPANISH, '{"english_form":"\\u000b'],
      expected: "live",
      group: JS_ESCAPES,
    },
    {
      label: "NUL as JSON.stringify escapes it",
      args: [SPANISH, '{"english_form":"\\u0000"}'],
      expected: "complete",
      group: JS_ESCAPES,
    },
    {
      label: "\\v is JavaScript's escape, not JSON's",
      args: [SPANISH, '{"english_form":"\\v'],
      expected: "dead",
      group: JS_ESCAPES,
    },
    {
      label: "an apostrophe is never escaped",
      args: [SPANISH, `{"english_form":"\\'`],
      expected: "dead",
      group: JS_ESCAPES,
    },
    {
      label: "an emoji member within maxLength 1",
      args: [EMOJI_MEMBER, '{"v":"😀"}'],
      expected: "complete",
      group: MEMBER_LENGTHS,
    },
    {
      label: "an emoji member within maxLength 1, the string still open: live",
      args: [EMOJI_MEMBER, '{"v":"😀'],
      expected: "live",
      group: MEMBER_LENGTHS,
    },
    {
      label: "no member within maxLength: no value",
      args: [LONG_MEMBER, '{"v":"'],
      expected: "dead",
      group: MEMBER_LENGTHS,
    },
    // Round 13 of issue 38's red team: "an enum member's length in graphemes" kept every mark.
    {
      label: "a member of two code points that looks like one letter is two characters: none fit",
      args: [COMBINING_MEMBER, '{"v":"'],
      expected: "dead",
      group: MEMBER_LENGTHS,
    },
    // Round 13: "an empty enum member dropped" and "a lone surrogate written raw" kept every mark.
    {
      label: "an empty member is a member",
      args: [EMPTY_MEMBER, '{"v":""}'],
      expected: "complete",
      group: EMPTY_IS_A_MEMBER,
    },
    {
      label: "the other member of an enum that holds the empty string",
      args: [EMPTY_MEMBER, '{"v":"x"}'],
      expected: "complete",
      group: EMPTY_IS_A_MEMBER,
    },
    {
      label: "no member of an enum that holds the empty string starts with y",
      args: [EMPTY_MEMBER, '{"v":"y'],
      expected: "dead",
      group: EMPTY_IS_A_MEMBER,
    },
    // Round 13 of issue 38's red team: "maxLength checked only once an escape ends" kept every
    // mark (the worked step did so): a backslash at maxLength begins a character too many.
    {
      label: "a backslash once maxLength is reached: no escape fits",
      args: [SHORT, '{"mark":"ab\\'],
      expected: "dead",
      group: "an escape past maxLength",
    },
    {
      label: "half a \\u escape once maxLength is reached",
      args: [SHORT, '{"mark":"ab\\u00'],
      expected: "dead",
      group: "an escape past maxLength",
    },
    {
      label: "a backslash one character short of maxLength",
      args: [SHORT, '{"mark":"a\\'],
      expected: "live",
      group: "an escape past maxLength",
    },
    // Once an escape begins only where it fits, the escape it ends in must still be one a member
    // holds: a whole escape that no member spells was taken for live by no case (a mutant that
    // dropped the check survived).
    {
      label: "an escape no member of the enum holds",
      args: [TAB_MEMBER, '{"v":"a\\n'],
      expected: "dead",
      group: "an escape an enum member holds",
    },
    {
      label: "the escape the enum's member holds",
      args: [TAB_MEMBER, '{"v":"a\\t'],
      expected: "live",
      group: "an escape an enum member holds",
    },
    {
      label: "a lone surrogate written as itself",
      args: [SPANISH, '{"english_form":"\ud800'],
      expected: "dead",
      group: LONE_SURROGATE,
    },
    {
      label: "a surrogate pair, an emoji, written as itself",
      args: [SPANISH, '{"english_form":"\ud83d\ude00'],
      expected: "live",
      group: LONE_SURROGATE,
    },
    // Round 6 of issue 38's red team left the escape of a lone surrogate open. ECMA-262 decides it:
    // JSON.stringify writes a lone surrogate as "\\u" and four lower-case hex digits, a pair as
    // itself (QuoteJSONString, ES2019 on), so the lesson now says so and the worked step takes it.
    {
      label: "a lone high surrogate, escaped as JSON.stringify writes it",
      args: [SHORT, '{"mark":"\\ud800'],
      expected: "live",
      group: LONE_ESCAPED,
    },
    {
      label: "a lone low surrogate, escaped, is one character",
      args: [SHORT, '{"mark":"\\udfff"}'],
      expected: "complete",
      group: LONE_ESCAPED,
    },
    {
      label: "two lone high surrogates, each escaped",
      args: [SHORT, '{"mark":"\\ud83d\\udbff"}'],
      expected: "complete",
      group: LONE_ESCAPED,
    },
    {
      label: "a lone low surrogate after an escape",
      args: [SHORT, '{"mark":"\\n\\udc00"}'],
      expected: "complete",
      group: LONE_ESCAPED,
    },
    {
      label: "a lone low surrogate after a character written as itself",
      args: [SHORT, '{"mark":"a\\ude00"}'],
      expected: "complete",
      group: LONE_ESCAPED,
    },
    {
      label: "an emoji's pair escaped as two: JSON.stringify writes it as itself",
      args: [SHORT, '{"mark":"\\ud83d\\ude00'],
      expected: "dead",
      group: LONE_ESCAPED,
    },
    {
      label: "an escaped high surrogate, then the start of an escaped low one",
      args: [SHORT, '{"mark":"\\ud83d\\udc'],
      expected: "dead",
      group: LONE_ESCAPED,
    },
    {
      label: "\\ud7ff is no surrogate: JSON.stringify writes U+D7FF as itself",
      args: [SHORT, '{"mark":"\\ud7ff'],
      expected: "dead",
      group: LONE_ESCAPED,
    },
    {
      label: "a surrogate's escape in upper-case hex",
      args: [SHORT, '{"mark":"\\uDFFF'],
      expected: "dead",
      group: LONE_ESCAPED,
    },
    {
      label: "maxLength 0: the empty string",
      args: [EMPTY_ONLY, '{"s":""}'],
      expected: "complete",
      group: "maxLength 0",
    },
    {
      label: "maxLength 0: the empty string, the call not yet closed: live",
      args: [EMPTY_ONLY, '{"s":""'],
      expected: "live",
      group: "maxLength 0",
    },
    {
      label: "maxLength 0: no character",
      args: [EMPTY_ONLY, '{"s":"a'],
      expected: "dead",
      group: "maxLength 0",
    },
    {
      label: "a name that is the start of a longer one",
      args: [AGREEMENT, '{"subject":"he","verb_'],
      expected: "live",
      group: "names",
    },
    {
      label: "a name that is only the start of the schema's",
      args: [AGREEMENT, '{"subject":"he","verb":'],
      expected: "dead",
      group: "names",
    },
    {
      label: "a trailing comma",
      args: [CONJUGATE, '{"verb":"eat",}'],
      expected: "dead",
      group: "trailing commas",
    },
    {
      label: "an optional property written in its place",
      args: [OPTIONAL, '{"verb":"go","note":"x","tense":"past"}'],
      expected: "complete",
      group: "an optional property",
    },
    {
      label: "an optional property written out of order",
      args: [OPTIONAL, '{"verb":"go","tense":"past","note":"x"}'],
      expected: "dead",
      group: "an optional property",
    },
    {
      label: "a property written twice",
      args: [OPTIONAL, '{"verb":"go","verb":'],
      expected: "dead",
      group: "an optional property",
    },
    {
      label: "a comma while a property may still come",
      args: [OPTIONAL, '{"verb":"go",'],
      expected: "live",
      group: "trailing commas",
    },
    {
      label: "an object that requires nothing may be empty",
      args: [
        {
          type: "object",
          properties: {
            a: {
              type: "string",
            },
          },
          required: [],
          additionalProperties: false,
        },
        "{}",
      ],
      expected: "complete",
      group: "nothing required",
    },
    {
      label: "minLength counts code points, not UTF-16 units",
      args: [
        {
          type: "object",
          properties: {
            s: {
              type: "string",
              minLength: 2,
            },
          },
          required: ["s"],
          additionalProperties: false,
        },
        '{"s":"😀"}',
      ],
      expected: "dead",
      group: "code points",
    },
    {
      label: "two emoji are two characters",
      args: [
        {
          type: "object",
          properties: {
            s: {
              type: "string",
              minLength: 2,
            },
          },
          required: ["s"],
          additionalProperties: false,
        },
        '{"s":"😀😀"}',
      ],
      expected: "complete",
      group: "code points",
    },
    {
      label: "past maxLength",
      args: [
        {
          type: "object",
          properties: {
            code: {
              type: "string",
              maxLength: 2,
            },
          },
          required: ["code"],
          additionalProperties: false,
        },
        '{"code":"abc',
      ],
      expected: "dead",
      group: "maxLength",
    },
    {
      label: "at maxLength",
      args: [
        {
          type: "object",
          properties: {
            code: {
              type: "string",
              maxLength: 2,
            },
          },
          required: ["code"],
          additionalProperties: false,
        },
        '{"code":"ab"}',
      ],
      expected: "complete",
      group: "maxLength",
    },
    {
      label: "a nested object, whole",
      args: [
        {
          type: "object",
          properties: {
            where: {
              type: "object",
              properties: {
                city: {
                  type: "string",
                },
              },
              required: ["city"],
              additionalProperties: false,
            },
          },
          required: ["where"],
          additionalProperties: false,
        },
        '{"where":{"city":"Oslo"}}',
      ],
      expected: "complete",
      group: "a nested object",
    },
    {
      label: "a nested object missing what it requires",
      args: [
        {
          type: "object",
          properties: {
            where: {
              type: "object",
              properties: {
                city: {
                  type: "string",
                },
              },
              required: ["city"],
              additionalProperties: false,
            },
          },
          required: ["where"],
          additionalProperties: false,
        },
        '{"where":{}}',
      ],
      expected: "dead",
      group: "a nested object",
    },
    {
      label: "an enum member too short for minLength",
      args: [
        {
          type: "object",
          properties: {
            v: {
              type: "string",
              enum: ["a", "bb"],
              minLength: 2,
            },
          },
          required: ["v"],
          additionalProperties: false,
        },
        '{"v":"a',
      ],
      expected: "dead",
      group: "enum members and lengths",
    },
    {
      label: "an enum member with a quote in it",
      args: [QUOTED, '{"q":"say \\"hi\\""}'],
      expected: "complete",
      group: "a quote in an enum member",
    },
    {
      label: "an enum member with a quote in it, half written: live",
      args: [QUOTED, '{"q":"say \\"hi'],
      expected: "live",
      group: "a quote in an enum member",
    },
    {
      label: "an enum member's quote written raw ends the string too soon",
      args: [QUOTED, '{"q":"say "'],
      expected: "dead",
      group: "a quote in an enum member",
    },
    {
      label: "an enum with no members allows no value",
      args: [
        {
          type: "object",
          properties: {
            v: {
              type: "string",
              enum: [],
            },
          },
          required: ["v"],
          additionalProperties: false,
        },
        '{"v":"',
      ],
      expected: "dead",
      group: "enum members",
    },
    {
      label: "an enum with one member allows its start",
      args: [ONE_MEMBER, '{"v":"'],
      expected: "live",
      group: "enum members",
    },
    {
      label: "a second closing brace",
      args: [CONJUGATE, '{"verb":"eat","tense":"past_simple","person":"3sg"}}'],
      expected: "dead",
      group: "the end of the call",
    },
    {
      label: "another whole call is complete",
      args: [CONJUGATE, '{"verb":"go","tense":"present_simple","person":"1sg"}'],
      expected: "complete",
      group: "the end of the call",
    },
    {
      label: "another whole call but its closing brace: live",
      args: [CONJUGATE, '{"verb":"go","tense":"present_simple","person":"1sg"'],
      expected: "live",
      group: "the end of the call",
    },
    {
      label: "a string where an object belongs",
      args: [CONJUGATE, '"verb"'],
      expected: "dead",
      group: "the call is an object",
    },
    {
      label: "an opening brace begins the call",
      args: [SPANISH, "{"],
      expected: "live",
      group: "the call is an object",
    },
    {
      label: "an escaped backslash",
      args: [SPANISH, '{"english_form":"a\\\\b"}'],
      expected: "complete",
      group: STRINGIFY_ESCAPES,
    },
    {
      label: "an object whose properties are all optional, one written",
      args: [
        {
          type: "object",
          properties: {
            a: {
              type: "string",
            },
          },
          required: [],
          additionalProperties: false,
        },
        '{"a":"x"}',
      ],
      expected: "complete",
      group: "nothing required",
    },
    {
      label: "a closing brace where a name begins",
      args: [
        {
          type: "object",
          properties: {
            a: {
              type: "string",
            },
          },
          required: [],
          additionalProperties: false,
        },
        '{"}',
      ],
      expected: "dead",
      group: "nothing required",
    },
    {
      label: "an enum member longer than maxLength",
      args: [
        {
          type: "object",
          properties: {
            v: {
              type: "string",
              enum: ["ab", "abc"],
              maxLength: 2,
            },
          },
          required: ["v"],
          additionalProperties: false,
        },
        '{"v":"abc',
      ],
      expected: "dead",
      group: "enum members and lengths",
    },
    {
      label: "an enum member long enough for minLength",
      args: [
        {
          type: "object",
          properties: {
            v: {
              type: "string",
              enum: ["a", "bb"],
              minLength: 2,
            },
          },
          required: ["v"],
          additionalProperties: false,
        },
        '{"v":"bb"}',
      ],
      expected: "complete",
      group: "enum members and lengths",
    },
    {
      label: "an object where a string belongs",
      args: [SPANISH, '{"english_form":{}}'],
      expected: "dead",
      group: "a string value",
    },
    {
      label: "a string value without its opening quote",
      args: [SPANISH, '{"english_form":ab'],
      expected: "dead",
      group: "a string value",
    },
    {
      label: "a string value begun",
      args: [SPANISH, '{"english_form":"ab'],
      expected: "live",
      group: "a string value",
    },
    {
      label: "minLength above maxLength: no string fits",
      args: [
        {
          type: "object",
          properties: {
            s: {
              type: "string",
              minLength: 3,
              maxLength: 2,
            },
          },
          required: ["s"],
          additionalProperties: false,
        },
        '{"s":"',
      ],
      expected: "dead",
      group: "length bounds",
    },
    {
      label: "minLength equal to maxLength",
      args: [
        {
          type: "object",
          properties: {
            s: {
              type: "string",
              minLength: 2,
              maxLength: 2,
            },
          },
          required: ["s"],
          additionalProperties: false,
        },
        '{"s":"',
      ],
      expected: "live",
      group: "length bounds",
    },
    {
      label: "half an escape inside an enum member",
      args: [
        {
          type: "object",
          properties: {
            v: {
              type: "string",
              enum: ["a\u0001"],
            },
          },
          required: ["v"],
          additionalProperties: false,
        },
        '{"v":"a\\u00',
      ],
      expected: "live",
    },
    {
      label: "an escape past maxLength",
      args: [
        {
          type: "object",
          properties: {
            s: {
              type: "string",
              maxLength: 1,
            },
          },
          required: ["s"],
          additionalProperties: false,
        },
        '{"s":"a\\n',
      ],
      expected: "dead",
      group: "an escape is one character",
    },
    {
      label: "an escape is one character under maxLength",
      args: [
        {
          type: "object",
          properties: {
            s: {
              type: "string",
              maxLength: 1,
            },
          },
          required: ["s"],
          additionalProperties: false,
        },
        '{"s":"\\n"}',
      ],
      expected: "complete",
      group: "an escape is one character",
    },
    {
      label: "a trailing comma when nothing more is required",
      args: [
        {
          type: "object",
          properties: {
            a: {
              type: "string",
            },
            b: {
              type: "string",
            },
          },
          required: ["a"],
          additionalProperties: false,
        },
        '{"a":"x",}',
      ],
      expected: "dead",
      group: "trailing commas",
    },
    {
      label: "a comma after the last property",
      args: [CONJUGATE, '{"verb":"eat","tense":"past_simple","person":"3sg",'],
      expected: "dead",
      group: "between properties",
    },
    {
      label: "a semicolon between properties",
      args: [CONJUGATE, '{"verb":"eat";'],
      expected: "dead",
      group: "between properties",
    },
    {
      label: "a comma between properties",
      args: [CONJUGATE, '{"verb":"eat",'],
      expected: "live",
      group: "between properties",
    },
    {
      label: "a property's name holding a quote, escaped",
      args: [QUOTED_NAME, '{"say \\"hi\\"":"'],
      expected: "live",
      group: NAME_ENCODED,
    },
    {
      label: "a property's name holding a quote, written as it is",
      args: [QUOTED_NAME, '{"say "hi"":"'],
      expected: "dead",
      group: NAME_ENCODED,
    },
  ],
  tokenMask: [
    {
      label: "a property named as a tool is, and one that is not",
      args: [TOOL_NAMED, '{"', ['amber_cloud_delta":"', 'maple_river_stone":"', "amber_", '"']],
      expected: [0, 2],
    },
    {
      label: "an emoji, escapes and their halves",
      args: [
        SPANISH,
        '{"english_form":"',
        ["😀", '"', '"}', 'a"}', "\\", "\\n", "\\u00", "\\x"],
      ],
      expected: [0, 3, 4, 5, 6],
    },
    {
      label: "nothing may follow a complete call",
      args: [
        CONJUGATE,
        '{"verb":"eat","tense":"past_simple","person":"3sg"}',
        PIECES,
      ],
      expected: [],
    },
    {
      label: "the same token twice is allowed twice",
      args: [
        IRREGULAR,
        '{"verb":"',
        ["go", "go", "went"],
      ],
      expected: [0, 1],
    },
    {
      label: "an optional property or the next required one",
      args: [
        OPTIONAL,
        '{"verb":"go",',
        ['"note":"', '"tense":"', '"verb":"', '"', '"n', "}"],
      ],
      expected: [0, 1, 3, 4],
    },
    {
      label: "an emoji already written",
      args: [
        SPANISH,
        '{"english_form":"😀',
        ['"}', "a", "\\n", "\t"],
      ],
      expected: [0, 1, 2],
    },
  ],
  buildTrie: [
    {
      label: "é and e are different characters",
      args: [
        ["é", "e"],
      ],
      expected: {
        ids: [],
        children: {
          "é": {
            ids: [0],
            children: {},
          },
          e: {
            ids: [1],
            children: {},
          },
        },
      },
    },
    {
      label: "a shorter token after a longer one",
      args: [
        ["ab", "a"],
      ],
      expected: {
        ids: [],
        children: {
          a: {
            ids: [1],
            children: {
              b: {
                ids: [0],
                children: {},
              },
            },
          },
        },
      },
    },
  ],
  trieMask: [
    {
      label: "a property named as a tool is, its last word",
      args: [TOOL_NAMED, '{"amber_cloud_', {
        ids: [],
        children: {
          d: {
            ids: [],
            children: {
              e: {
                ids: [],
                children: {
                  l: {
                    ids: [],
                    children: { t: { ids: [], children: { a: { ids: [0], children: {} } } } },
                  },
                },
              },
              x: { ids: [1], children: {} },
            },
          },
          r: { ids: [2], children: {} },
        },
      }],
      expected: { allowed: [0], visited: 7 },
    },
    {
      label: "conjugate's pieces, inside an enum's value",
      args: [
        CONJUGATE,
        '{"verb":"',
        PIECES_TRIE,
      ],
      expected: {
        allowed: [3, 4, 13],
        visited: 20,
      },
    },
    {
      label: "after a complete call, every first character is tried and refused",
      args: [
        CONJUGATE,
        '{"verb":"eat","tense":"past_simple","person":"3sg"}',
        PIECES_TRIE,
      ],
      expected: {
        allowed: [],
        visited: 7,
      },
    },
    {
      label: "a free string keeps most of the tree alive",
      args: [
        SPANISH,
        '{"english_form":"',
        {
          ids: [],
          children: {
            a: {
              ids: [1],
              children: {
                b: {
                  ids: [0],
                  children: {},
                },
                '"': {
                  ids: [],
                  children: {
                    "}": {
                      ids: [2],
                      children: {},
                    },
                  },
                },
              },
            },
            b: {
              ids: [3],
              children: {},
            },
            "\\": {
              ids: [],
              children: {
                n: {
                  ids: [4],
                  children: {},
                },
                q: {
                  ids: [5],
                  children: {},
                },
              },
            },
            '"': {
              ids: [6],
              children: {},
            },
          },
        },
      ],
      expected: {
        allowed: [0, 1, 2, 3, 4],
        visited: 9,
      },
    },
  ],
  decode: [
    {
      label: "an optional property named as a tool is, left out",
      args: [
        WORD_OR_NAMED,
        ['{"word":"', "b", '"}'],
        { "": [5, 1, 1, 0], "0": [1, 5, 1, 0], "1": [1, 1, 5, 0], default: [1, 1, 1, 5] },
        4,
      ],
      expected: { text: '{"word":"b"}', tokens: [0, 1, 2] },
    },
    {
      label: "two tokens scored alike: the lower id wins",
      args: [
        IRREGULAR,
        VERB_PIECES,
        {
          "": [5, 1, 1, 1, 1, 0],
          default: [1, 2, 2, 3, 1, 0],
        },
        10,
      ],
      expected: {
        text: '{"verb":"go"}',
        tokens: [0, 1, 3],
      },
      group: "the model's favourite",
    },
    {
      label: "a higher score wins over a lower id",
      args: [IRREGULAR, VERB_PIECES, { "": [5, 1, 1, 1, 1, 0], default: [1, 2, 3, 3, 1, 0] }, 10],
      expected: { text: '{"verb":"eat"}', tokens: [0, 2, 3] },
      group: "the model's favourite",
    },
    // Round 13 of issue 38's red team: "the best found from a score of -Infinity up" kept every
    // mark. A model of log-probabilities scores a token it never writes -Infinity.
    {
      label: "every score -Infinity: the lowest id the mask allows, each step",
      args: [IRREGULAR, VERB_PIECES, {
        default: [-Infinity, -Infinity, -Infinity, -Infinity, -Infinity, -Infinity],
      }, 10],
      expected: { text: '{"verb":"go"}', tokens: [0, 1, 3] },
      group: "the model's favourite",
    },
    {
      label: "stopping is taken only once the call is complete",
      args: [
        IRREGULAR,
        VERB_PIECES,
        {
          "": [1, 1, 1, 1, 1, 9],
          default: [1, 1, 2, 1, 1, 9],
        },
        10,
      ],
      expected: {
        text: '{"verb":"eat"}',
        tokens: [0, 2, 3],
      },
      group: "the model's favourite",
    },
    {
      label: "a complete call at the last token of the budget",
      args: [
        IRREGULAR,
        VERB_PIECES,
        {
          "0": [1, 5, 1, 1, 1, 0],
          "": [5, 1, 1, 1, 1, 0],
          default: [1, 1, 1, 5, 1, 0],
        },
        3,
      ],
      expected: {
        text: '{"verb":"go"}',
        tokens: [0, 1, 3],
      },
      group: "the budget",
    },
    {
      label: "one token short of a complete call",
      args: [IRREGULAR, GO_PIECES, { default: [1, 1, 1, 0] }, 2],
      expected: { throws: "RangeError" },
      group: "the budget",
    },
    {
      label: "a vocabulary that cannot finish the call",
      args: [
        IRREGULAR,
        ['{"verb":"', "go"],
        {
          default: [1, 1, 0],
        },
        10,
      ],
      expected: {
        throws: "RangeError",
      },
      group: "the vocabulary",
    },
    {
      label: "the same vocabulary with a closing piece finishes the call",
      args: [IRREGULAR, GO_PIECES, { default: [1, 1, 1, 0] }, 10],
      expected: { text: '{"verb":"go"}', tokens: [0, 1, 2] },
      group: "the vocabulary",
    },
    {
      label: "a free string goes on while the model prefers it",
      args: [
        SPANISH,
        ['{"english_form":"', "a", '"}'],
        {
          "0": [1, 5, 1, 0],
          "1": [1, 3, 2, 0],
          "": [5, 1, 1, 0],
          default: [1, 1, 1, 5],
        },
        4,
      ],
      expected: {
        throws: "RangeError",
      },
      group: "a free string",
    },
    {
      label: "a free string ends when the model prefers the closing piece",
      args: [
        SPANISH,
        ['{"english_form":"', "a", '"}'],
        { "0": [1, 5, 1, 0], "1": [1, 2, 3, 0], "": [5, 1, 1, 0], default: [1, 1, 1, 5] },
        4,
      ],
      expected: { text: '{"english_form":"a"}', tokens: [0, 1, 2] },
      group: "a free string",
    },
  ],
  nextMove: [
    {
      label: "a TimeoutError: stop, the call may have run",
      args: [
        {
          kind: "TimeoutError",
          message: "no reply within 1000 ms",
        },
        1,
        3,
      ],
      expected: {
        action: "stop",
        error: "TimeoutError",
      },
      group: "which error",
    },
    {
      label: "a ToolError where a TimeoutError stops: try again",
      args: [{ kind: "ToolError", message: "no reply within 1000 ms" }, 1, 3],
      expected: { action: "retry", context: "no reply within 1000 ms" },
      group: "which error",
    },
    {
      label: "a ToolError on the second of three attempts: try again",
      args: [
        {
          kind: "ToolError",
          message: "lookup_spanish: no entry for runned",
        },
        2,
        3,
      ],
      expected: {
        action: "retry",
        context: "lookup_spanish: no entry for runned",
      },
      group: "attempts left",
    },
    {
      label: "one attempt only: a ToolError stops",
      args: [
        {
          kind: "ToolError",
          message: "x",
        },
        1,
        1,
      ],
      expected: {
        action: "stop",
        error: "ToolError",
      },
      group: "attempts left",
    },
    {
      label: "a result on the last attempt: done",
      args: [
        {
          kind: "result",
          message: "comió",
        },
        3,
        3,
      ],
      expected: {
        action: "done",
      },
    },
    {
      label: "an empty message is still the context",
      args: [
        {
          kind: "ToolError",
          message: "",
        },
        1,
        2,
      ],
      expected: {
        action: "retry",
        context: "",
      },
    },
    // Round 13 of issue 38's red team: "the context trimmed" kept every mark.
    {
      label: "the message is the context as it came, spaces and newline too",
      args: [{ kind: "ToolError", message: " no entry for runned\n" }, 1, 2],
      expected: { action: "retry", context: " no entry for runned\n" },
    },
    {
      label: "past the last attempt: stop",
      args: [
        {
          kind: "ToolError",
          message: "x",
        },
        4,
        3,
      ],
      expected: {
        action: "stop",
        error: "ToolError",
      },
      group: "attempts left",
    },
  ],
  retryRequest: [
    {
      label: 'the id "1" is not the id 1: a new id',
      args: [FIRST_CALL, ASKED, { "sampling-1": ANSWER }, "1"],
      expected: retryOf(FIRST_CALL, "1", { "sampling-1": ANSWER }, ASKED.requestState),
      group: IDS,
    },
    {
      label: "a string id given again: refused",
      args: [{ ...FIRST_CALL, id: "call-7" }, ASKED, { "sampling-1": ANSWER }, "call-7"],
      expected: { throws: "RangeError" },
      group: IDS,
    },
    {
      label: "the id 0 is an id like any other",
      args: [{ ...FIRST_CALL, id: 9 }, ASKED, { "sampling-1": ANSWER }, 0],
      expected: retryOf(FIRST_CALL, 0, { "sampling-1": ANSWER }, ASKED.requestState),
      group: IDS,
    },
    {
      label: "an empty requestState is still echoed",
      args: [FIRST_CALL, { ...ASKED, requestState: "" }, { "sampling-1": ANSWER }, 2],
      expected: retryOf(FIRST_CALL, 2, { "sampling-1": ANSWER }, ""),
      group: AS_IT_CAME,
    },
    {
      label: "a requestState with spaces around it keeps them",
      args: [FIRST_CALL, { ...ASKED, requestState: "  padded  " }, { "sampling-1": ANSWER }, 2],
      expected: retryOf(FIRST_CALL, 2, { "sampling-1": ANSWER }, "  padded  "),
      group: AS_IT_CAME,
    },
    {
      label: "a requestState that looks like JSON is not rewritten",
      args: [
        FIRST_CALL,
        { ...ASKED, requestState: '{"step": 2, "a":1}' },
        { "sampling-1": ANSWER },
        2,
      ],
      expected: retryOf(FIRST_CALL, 2, { "sampling-1": ANSWER }, '{"step": 2, "a":1}'),
      group: AS_IT_CAME,
    },
    {
      label: "an earlier round's state is not carried into a round that has none",
      args: [
        retryOf(FIRST_CALL, 2, { "sampling-1": ANSWER }, "round-one"),
        { resultType: "input_required", inputRequests: { "sampling-2": QUESTION } },
        { "sampling-2": ANSWER },
        3,
      ],
      expected: retryOf(FIRST_CALL, 3, { "sampling-2": ANSWER }),
      group: ROUNDS,
    },
    {
      label: "an earlier round's state is replaced by this round's",
      args: [
        retryOf(FIRST_CALL, 2, { "sampling-1": ANSWER }, "round-one"),
        {
          resultType: "input_required",
          inputRequests: { "sampling-2": QUESTION },
          requestState: "round-two",
        },
        { "sampling-1": ANSWER, "sampling-2": ANSWER },
        3,
      ],
      expected: retryOf(FIRST_CALL, 3, { "sampling-2": ANSWER }, "round-two"),
      group: ROUNDS,
    },
    {
      label: "a result with a state and no questions: the state alone goes back",
      args: [
        retryOf(FIRST_CALL, 2, { "sampling-1": ANSWER }, "round-one"),
        { resultType: "input_required", requestState: "round-two" },
        { "sampling-1": ANSWER },
        3,
      ],
      expected: retryOf(FIRST_CALL, 3, undefined, "round-two"),
      group: ROUNDS,
    },
    {
      label: "two questions answered, a third answer kept back",
      args: [
        FIRST_CALL,
        {
          resultType: "input_required",
          inputRequests: { "sampling-1": QUESTION, region: ELICIT },
          requestState: "s",
        },
        { "sampling-1": ANSWER, region: ACCEPTED, token: { secret: "not asked" } },
        2,
      ],
      expected: retryOf(FIRST_CALL, 2, { "sampling-1": ANSWER, region: ACCEPTED }, "s"),
      group: ONLY_ASKED,
    },
    {
      label: "one of two questions unanswered: no retry",
      args: [
        FIRST_CALL,
        {
          resultType: "input_required",
          inputRequests: { "sampling-1": QUESTION, region: ELICIT },
          requestState: "s",
        },
        { "sampling-1": ANSWER },
        2,
      ],
      expected: { throws: "RangeError" },
      group: ONLY_ASKED,
    },
    // Round 13 of issue 38's red team: "an answer looked up through the prototype" and "an answer
    // found with in" each kept every mark: every object has a constructor, but no answer to it.
    {
      label: "a question named constructor, unanswered: no retry",
      args: [
        FIRST_CALL,
        { resultType: "input_required", inputRequests: { constructor: QUESTION } },
        { "sampling-1": ANSWER },
        2,
      ],
      expected: { throws: "RangeError" },
      group: ONLY_ASKED,
    },
    {
      label: "a question named constructor, answered",
      args: [
        FIRST_CALL,
        { resultType: "input_required", inputRequests: { constructor: QUESTION } },
        { constructor: ANSWER },
        2,
      ],
      expected: retryOf(FIRST_CALL, 2, { constructor: ANSWER }),
      group: ONLY_ASKED,
    },
    {
      label: "a prompts/get is retried as a prompts/get, its params whole",
      args: [PROMPT_CALL, ASKED, { "sampling-1": ANSWER }, 12],
      expected: retryOf(PROMPT_CALL, 12, { "sampling-1": ANSWER }, ASKED.requestState),
      group: THE_CALL,
    },
    {
      label: "a prompts/get's id given again: refused",
      args: [PROMPT_CALL, ASKED, { "sampling-1": ANSWER }, 11],
      expected: { throws: "RangeError" },
      group: THE_CALL,
    },
  ],
};

/**
 * Lab 03's hidden cases. Instructors' repository and the autograder package
 * only: the learners' release leaves this folder out.
 *
 * @module
 */

import {
  AGREEMENT,
  CONJUGATE,
  IRREGULAR,
  type Lab03Function,
  OPTIONAL,
  PIECES,
  SPANISH,
  VERB_PIECES,
} from "../cases/lab_03.ts";
import type { GradeCase } from "../lib/grading/grading.ts";

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

/** Lab 03's hidden cases, by the graded function's name. */
export const HOLDOUTS: Readonly<Record<Lab03Function, readonly GradeCase[]>> = {
  prefixStatus: [
    {
      label: "a character beyond ASCII is written as itself",
      args: [SPANISH, '{"english_form":"é"}'],
      expected: "complete",
    },
    {
      label: "half of a \\u escape",
      args: [SPANISH, '{"english_form":"\\u00'],
      expected: "live",
    },
    {
      label: "a control character as JSON.stringify escapes it",
      args: [SPANISH, '{"english_form":"\\u001f"}'],
      expected: "complete",
    },
    {
      label: "upper-case hex is not how JSON.stringify writes it",
      args: [SPANISH, '{"english_form":"\\u001F"}'],
      expected: "dead",
    },
    {
      label: "a raw tab inside a string",
      args: [SPANISH, '{"english_form":"\t"}'],
      expected: "dead",
    },
    {
      label: "an escaped quote does not end the string",
      args: [SPANISH, '{"english_form":"a\\"b"}'],
      expected: "complete",
    },
    {
      label: "a slash is never escaped",
      args: [SPANISH, '{"english_form":"\\/"}'],
      expected: "dead",
    },
    {
      label: "a name that is the start of a longer one",
      args: [AGREEMENT, '{"subject":"he","verb_'],
      expected: "live",
    },
    {
      label: "a name that is only the start of the schema's",
      args: [AGREEMENT, '{"subject":"he","verb":'],
      expected: "dead",
    },
    {
      label: "a trailing comma",
      args: [CONJUGATE, '{"verb":"eat",}'],
      expected: "dead",
    },
    {
      label: "an optional property written in its place",
      args: [OPTIONAL, '{"verb":"go","note":"x","tense":"past"}'],
      expected: "complete",
    },
    {
      label: "an optional property written out of order",
      args: [OPTIONAL, '{"verb":"go","tense":"past","note":"x"}'],
      expected: "dead",
    },
    {
      label: "a property written twice",
      args: [OPTIONAL, '{"verb":"go","verb":'],
      expected: "dead",
    },
    {
      label: "a comma while a property may still come",
      args: [OPTIONAL, '{"verb":"go",'],
      expected: "live",
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
    },
    {
      label: "an enum member with a quote in it",
      args: [
        {
          type: "object",
          properties: {
            q: {
              type: "string",
              enum: ['say "hi"'],
            },
          },
          required: ["q"],
          additionalProperties: false,
        },
        '{"q":"say \\"hi\\""}',
      ],
      expected: "complete",
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
    },
    {
      label: "a second closing brace",
      args: [CONJUGATE, '{"verb":"eat","tense":"past_simple","person":"3sg"}}'],
      expected: "dead",
    },
    {
      label: "a string where an object belongs",
      args: [CONJUGATE, '"verb"'],
      expected: "dead",
    },
    {
      label: "an escaped backslash",
      args: [SPANISH, '{"english_form":"a\\\\b"}'],
      expected: "complete",
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
    },
    {
      label: "an object where a string belongs",
      args: [SPANISH, '{"english_form":{}}'],
      expected: "dead",
    },
    {
      label: "a string value without its opening quote",
      args: [SPANISH, '{"english_form":ab'],
      expected: "dead",
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
    },
    {
      label: "a comma after the last property",
      args: [CONJUGATE, '{"verb":"eat","tense":"past_simple","person":"3sg",'],
      expected: "dead",
    },
    {
      label: "a semicolon between properties",
      args: [CONJUGATE, '{"verb":"eat";'],
      expected: "dead",
    },
  ],
  tokenMask: [
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
      label: "an emoji is one character, one child",
      args: [
        ["😀a"],
      ],
      expected: {
        ids: [],
        children: {
          "😀": {
            ids: [],
            children: {
              a: {
                ids: [0],
                children: {},
              },
            },
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
    },
  ],
};

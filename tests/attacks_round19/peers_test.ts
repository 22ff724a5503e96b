// Round 19 of the red team, as a peer of the other era: servers of each era
// (the SDK v2 server at 2026-07-28 and 2025-11-25, behind the wire tap that
// records what reached it; the SDK v1 server at 2025-11-25 and 2025-06-18,
// which checks each answer with ajv; FastMCP 4.2.3) ask forms of odd shapes,
// and the course's client's check of its user's answer (checkedAnswer, round
// 19) and of the form's defaults (withDefaults) is held to what the server
// then reads.
//
// Two holes in what every answer is: a list holding undefined, or with a hole
// in it (a JavaScript form library's empty slot), passed the multiple
// choice's check and the check of a key no field defines, and went out with
// null in it; and a number JSON cannot carry (NaN, Infinity) passed as a
// value of a key the form requires but defines no field for, or of a field
// the check cannot read, and went out as null. Each is refused now,
// naming the field, and the next answer still goes through unchanged.
//
// And a pattern read otherwise than the form's own reading: RE2's `\s` is
// ASCII's white space, JavaScript's (JSON Schema's pattern is ECMA-262's)
// Unicode's and the line terminators, and RE2's `.` matches `\r`, U+2028 and
// U+2029. The client filled in defaults such a field refuses, and the SDK v1
// server, which checks each answer with ajv, refused the answer
// ("data/tag must match pattern"); an honest "a\u00a0b" for `^a\sb$` was
// refused by the client, and its fitting default withheld. The SDK v1 server
// (tests/fixtures/sdk_v1_form_peer.ts) at 2025-06-18 and 2025-11-25 and the
// SDK v2 server at 2026-07-28 ask such a form.
//
// And one field the check cannot read (a keyword it does not know, a pattern
// RE2 refuses, a 17th distinct pattern) made the whole form unread: every
// answer was held only to what any answer is, so a value past another
// field's maximum, or breaking another field's pattern, or a key the form
// never asked went to the server, which refused it
// ("data/tubs must be <= 9"). Which 16 patterns were read also hung on the
// answer: a field the user filled in was compiled last. Now each field the
// check reads holds its rules, one it cannot read only what any answer's
// value is, and the fields read are the form's first, whatever the answer.
// So does a form whose own schema says what no form says (a maxProperties,
// or the additionalProperties false zod's toJSONSchema writes). And a
// multiple choice's uniqueItems, which FastMCP writes for a pydantic set, and
// a number's multipleOf, for pydantic's multiple_of, are read: the set's
// choices went unchecked, and FastMCP's pydantic refused a count of 3 for a
// multiple of 2.
//
// And an elicit function that fails in a legacy session was taken for the
// server's fault ("Answering the server failed"), the connection distrusted
// and the next call failed; it is answered -32603 now, as a failing model is.

import assert from "node:assert/strict";
import { Client } from "../../lib/mcp/client/client.ts";
import type { ElicitResult } from "../../lib/mcp/client/elicitation.ts";
import { ToolError } from "../../lib/mcp/shared/errors.ts";
import type { JsonObject } from "../../lib/mcp/shared/jsonrpc.ts";
import { LEGACY_VERSIONS, MCP_VERSIONS, type McpVersion } from "../../lib/mcp/shared/versions.ts";
import { formAnswers } from "../_peer_sessions.ts";
import {
  fastmcpFormPeer,
  formPeer,
  type PeerEra,
  pythonInstalled,
  sdkV1FormPeer,
  tapped,
} from "../_peers.ts";

const SIZES = { type: "string", enum: ["S", "L"] };
const accept = (content: JsonObject) => ({ action: "accept", content });

/**
 * What the SDK v2 server of `era` asking `form` returned for each of
 * `answers` (the call's error, or what it received), and every answer the
 * client sent it (each `"action"` line of the wire).
 */
async function askedBy(
  era: PeerEra,
  form: JsonObject,
  answers: JsonObject[],
): Promise<{ said: unknown[]; sent: string[] }> {
  const wire = await Deno.makeTempFile({ prefix: "peers19-wire-" });
  try {
    const said = await formAnswers(tapped(wire, formPeer(era, form)), answers);
    const sent = (await Deno.readTextFile(wire)).split("\n")
      .filter((line) => / > /.test(line) && line.includes('"action"'));
    return { said, sent };
  } finally {
    await Deno.remove(wire);
  }
}

/** The FormAnswerError a call fails with when the client refused its answer for `rule`. */
const refusal = (rule: RegExp) => new RegExp(`^FormAnswerError: .*${rule.source}`);

/** A multiple choice, and a key the form requires but defines no field for. */
const CHOICES = {
  type: "object",
  properties: { sizes: { type: "array", items: SIZES, maxItems: 2 } },
  required: ["ghost"],
};
/** A field the check cannot read (an "x-widget" is no elicitation form's): held to what every answer is. */
const UNREAD = {
  type: "object",
  properties: { sizes: { type: "array", items: SIZES, "x-widget": "checkboxes" } },
  required: ["note"],
};

Deno.test("the client sends no list with a hole or undefined in it, nor a number JSON writes as null", async (t) => {
  const cases: [PeerEra, JsonObject, [JsonObject, RegExp][], JsonObject][] = [
    ["modern", CHOICES, [
      [accept({ sizes: ["S", undefined], ghost: "x" }), /sizes holds undefined/],
      // deno-lint-ignore no-sparse-arrays
      [accept({ sizes: [, "S"], ghost: "x" }), /sizes holds undefined/],
      [accept({ ghost: NaN }), /ghost is not a string, number, boolean/],
      [accept({ ghost: Infinity }), /ghost is not a string, number, boolean/],
    ], { sizes: ["S", "L"], ghost: "x" }],
    ["2025-11-25", UNREAD, [
      [accept({ sizes: ["S", undefined], note: "x" }), /sizes is not a string, number, boolean/],
      // deno-lint-ignore no-sparse-arrays
      [accept({ sizes: [, "S"], note: "x" }), /sizes is not a string, number, boolean/],
      [accept({ sizes: ["S"], note: -Infinity }), /note is not a string, number, boolean/],
    ], { sizes: ["L"], note: 2.5 }],
  ];
  for (const [era, form, misfits, honest] of cases) {
    await t.step(
      `${era}, ${form === UNREAD ? "a field the check cannot read" : "its form read"}`,
      async () => {
        const { said, sent } = await askedBy(era, form, [
          ...misfits.map(([a]) => a),
          accept(honest),
        ]);
        misfits.forEach(([answer, rule], index) => {
          assert.match(String(said[index]), refusal(rule), JSON.stringify(answer));
        });
        // The session is kept, and the honest answer reaches the server unchanged, the only one.
        assert.deepEqual(said.at(-1), honest);
        assert.equal(sent.length, 1, sent.join("\n"));
        assert.ok(!sent[0].includes("null"), sent[0]);
      },
    );
  }
});

/**
 * Patterns JSON Schema reads as JavaScript does, where RE2 reads them
 * otherwise: `\s` is Unicode's white space and the line terminators (RE2's is
 * ASCII's alone), and `.` matches no line terminator (RE2's matches \r, U+2028
 * and U+2029). `word` says `[\S\s]`, "any character", the common idiom.
 */
const SPACES = {
  type: "object",
  properties: {
    tag: { type: "string", pattern: "^\\S+$", default: "a\u00a0b" },
    line: { type: "string", pattern: "^.+$", default: "a\rb" },
    word: { type: "string", pattern: "^[\\S\\s]{2}$", default: "\u2028\u00a0" },
    gap: { type: "string", pattern: "^a\\sb$", default: "a\u3000b" },
  },
};
/** Answers SPACES refuses, as JavaScript reads its patterns, each with the rule its refusal names. */
const SPACE_MISFITS: [JsonObject, RegExp][] = [
  [accept({ tag: "a\u00a0b" }), /tag must match the pattern/],
  [accept({ tag: "a\vb" }), /tag must match the pattern/],
  [accept({ tag: "a\ufeffb" }), /tag must match the pattern/],
  [accept({ line: "a\u2028b" }), /line must match the pattern/],
  [accept({ line: "a\rb" }), /line must match the pattern/],
  [accept({ gap: "a_b" }), /gap must match the pattern/],
];
/** What the user typed honestly: every field fits, by either reading. */
const SPACE_HONEST = { tag: "Ada", line: "a line", word: "\n\u00e9", gap: "a\u00a0b" };

/**
 * Asks `form` of the SDK v1 server at 2025-06-18 and at 2025-11-25 (which
 * checks each answer with ajv, reading every field as JSON Schema does) and
 * of the SDK v2 server at 2026-07-28 (which says what reached it), a step
 * each: the user accepts typing nothing (the server receives `defaults`),
 * then gives each of `misfits` (each refused by the client, naming its
 * rule), then `honest` (received unchanged).
 */
async function heldByEachEra(
  t: Deno.TestContext,
  form: JsonObject,
  { defaults, misfits, honest }: {
    defaults: JsonObject;
    misfits: [JsonObject, RegExp][];
    honest: JsonObject;
  },
): Promise<void> {
  const peers: [string, string[], readonly McpVersion[]][] = [
    ["the SDK v1 server at 2025-06-18", sdkV1FormPeer(form), ["2025-06-18"]],
    ["the SDK v1 server at 2025-11-25", sdkV1FormPeer(form), LEGACY_VERSIONS],
    ["the SDK v2 server at 2026-07-28", formPeer("modern", form), MCP_VERSIONS],
  ];
  for (const [peer, command, versions] of peers) {
    await t.step(peer, async () => {
      const answers = [accept({}), ...misfits.map(([answer]) => answer), accept(honest)];
      const said = await formAnswers(command, answers, versions);
      assert.deepEqual(said[0], defaults);
      misfits.forEach(([answer, rule], index) => {
        assert.match(String(said[index + 1]), refusal(rule), JSON.stringify(answer));
      });
      assert.deepEqual(said.at(-1), honest);
    });
  }
}

Deno.test("the client reads a form's pattern as JavaScript does: no default nor answer its \\s or . refuses", async (t) => {
  // Of the defaults, word's and gap's fit their fields, and only they are filled in.
  const defaults = { word: "\u2028\u00a0", gap: "a\u3000b" };
  await heldByEachEra(t, SPACES, { defaults, misfits: SPACE_MISFITS, honest: SPACE_HONEST });
});

/**
 * A form the check cannot read whole: one field says what no form says, one
 * has a pattern RE2 cannot run, of 17 distinct patterns the last is past
 * MAX_FORM_PATTERNS, and the form itself says what no form says; the rest,
 * its other fields' rules, it reads.
 */
const ODD = {
  type: "object",
  // Keywords of the form's own the check does not read: additionalProperties, as zod's
  // toJSONSchema writes every object (a server's form written with z.object()), and another.
  additionalProperties: false,
  maxProperties: 30,
  properties: {
    tubs: { type: "integer", maximum: 9, default: 3 },
    code: { type: "string", pattern: "^[A-Z]+$" },
    ...Object.fromEntries(
      Array.from(
        { length: 16 },
        (_, index) => [`p${index}`, { type: "string", pattern: `^p${index}$` }],
      ),
    ),
    note: { type: "string", "x-widget": "area", default: "hi" },
    twice: { type: "string", pattern: "^(a)\\1$" },
  },
  required: ["tubs"],
};
/** Answers ODD refuses, each with the rule its refusal names. */
const ODD_MISFITS: [JsonObject, RegExp][] = [
  [accept({ tubs: 12, note: "hi" }), /tubs must be at most 9/],
  [accept({ tubs: 2, code: "ab" }), /code must match the pattern/],
  [accept({ tubs: 2, p0: "p1" }), /p0 must match the pattern/],
  [accept({ tubs: 2, note: { text: "hi" } }), /note is not a string, number, boolean/],
  [accept({ tubs: 2, age: 30 }), /age is not a field of the form/],
];
const ODD_HONEST = { tubs: 2, code: "AB", p0: "p0", p15: "p15", note: "hi", twice: "aa" };

Deno.test("a field the client cannot read leaves every other field's rules held", async (t) => {
  // tubs' default fits; note's field cannot be read, so nothing vouches for its default.
  await heldByEachEra(t, ODD, { defaults: { tubs: 3 }, misfits: ODD_MISFITS, honest: ODD_HONEST });
});

/**
 * A legacy server that asks in odd turns (tests/fixtures/sdk_v1_form_peer.ts):
 * twice at once, the user's first answer a misfit; a question it withdraws
 * before the user answers; another question after the client's -32603.
 */
Deno.test("a server that asks twice at once, withdraws its question or asks again after -32603 gets no misfit, and the session goes on", async () => {
  const form = { type: "object", properties: { code: { type: "string", maxLength: 3 } } };
  const wire = await Deno.makeTempFile({ prefix: "peers19-wire-" });
  try {
    /** The user's answers, in turn, each after its delay in ms; then "Q", at once. */
    const answers: [JsonObject, number][] = [];
    await using client = new Client(tapped(wire, sdkV1FormPeer(form)), {
      versions: LEGACY_VERSIONS,
      allowed: ["order", "twice", "withdrawn", "again"],
      elicit: async () => {
        const [answer, delay] = answers.shift() ?? [accept({ code: "Q" }), 0];
        await new Promise((resolve) => setTimeout(resolve, delay));
        return answer as ElicitResult;
      },
    });
    await client.initialize();
    await client.listTools();
    const called = (tool: string) => client.callTool(tool).then(JSON.parse, String);
    const tooLong = refusal(/code must be at most 3 characters long/);
    answers.push([accept({ code: "ABCD" }), 0], [accept({ code: "AB" }), 50]);
    assert.match(await called("twice"), tooLong);
    assert.deepEqual(await called("order"), { code: "Q" });
    // The server withdraws its question after 200 ms; the user answers at 400 ms.
    answers.push([accept({ code: "WDN" }), 400]);
    assert.match(await called("withdrawn"), /aborted/);
    assert.deepEqual(await called("order"), { code: "Q" });
    answers.push([accept({ code: "ABCD" }), 0], [accept({ code: "XY" }), 0]);
    assert.match(await called("again"), tooLong);
    assert.deepEqual(await called("order"), { code: "Q" });
    // What reached the server: no misfit, and no answer to the question it withdrew.
    const sent = (await Deno.readTextFile(wire)).split("\n").filter((line) => / > /.test(line));
    const leaked = sent.filter((line) => /ABCD|WDN/.test(line));
    assert.deepEqual(leaked, []);
    assert.equal(sent.filter((line) => line.includes('"code":-32603')).length, 2);
  } finally {
    await Deno.remove(wire);
  }
});

Deno.test({
  name:
    "FastMCP's form of pydantic's multiple_of, bounds, pattern and set of choices is held in either era",
  ignore: !pythonInstalled,
  fn: async (t) => {
    const honest = { count: 4, ratio: 1, nick: "Ada", sizes: ["L", "S"] };
    // At 2026-07-28 FastMCP says what the client sent; in a handshake session, what pydantic,
    // which checks the answer, made of it.
    for (const versions of [MCP_VERSIONS, LEGACY_VERSIONS]) {
      await t.step(versions === MCP_VERSIONS ? "2026-07-28" : "2025-11-25", async () => {
        const said = await formAnswers(fastmcpFormPeer("odd"), [
          accept({}),
          accept({ count: 3 }),
          accept({ count: 2, ratio: 5 }),
          accept({ count: 2, nick: "A\u00a0da" }),
          accept({ count: 2, sizes: ["S", "XL"] }),
          accept({ count: 2, sizes: ["S", "S"] }),
          accept({ count: 2, extra: "x" }),
          accept(honest),
        ], versions);
        assert.deepEqual(said[0], { count: 2, ratio: 0.5, nick: "Ada", sizes: ["S"] });
        assert.match(String(said[1]), refusal(/count must be a multiple of 2/));
        assert.match(String(said[2]), refusal(/ratio must be at most 1/));
        assert.match(String(said[3]), refusal(/nick must match the pattern/));
        assert.match(String(said[4]), refusal(/sizes holds "XL": each must be one of: S, L/));
        assert.match(String(said[5]), refusal(/sizes must not give a choice twice/));
        assert.match(String(said[6]), refusal(/extra is not a field of the form/));
        assert.deepEqual(said[7], honest);
      });
    }
  },
});

Deno.test("a 2026-07-28 server that asks twice in one request gets no retry once an answer misfits, and the next call is answered", async () => {
  const form = { type: "object", properties: { code: { type: "string", maxLength: 3 } } };
  const wire = await Deno.makeTempFile({ prefix: "peers19-wire-" });
  try {
    const answers = [{ code: "ABCD" }, { code: "AB" }, { code: "XY" }, { code: "Z" }];
    await using client = new Client(tapped(wire, formPeer("modern", form)), {
      versions: MCP_VERSIONS,
      allowed: ["twice"],
      elicit: () => Promise.resolve({ action: "accept", content: answers.shift()! }),
    });
    await client.initialize();
    await client.listTools();
    const called = () => client.callTool("twice").then(JSON.parse, String);
    assert.match(await called(), refusal(/code must be at most 3 characters long/));
    assert.deepEqual(await called(), [{ code: "AB" }, { code: "XY" }]);
    const sent = (await Deno.readTextFile(wire)).split("\n").filter((line) => / > /.test(line));
    assert.deepEqual(sent.filter((line) => line.includes("ABCD")), []);
  } finally {
    await Deno.remove(wire);
  }
});

Deno.test("an elicit function that fails in a legacy session is the client's failure, told the server as -32603: the session goes on", async () => {
  const form = { type: "object", properties: { code: { type: "string", maxLength: 3 } } };
  let asked = 0;
  await using client = new Client(sdkV1FormPeer(form), {
    versions: LEGACY_VERSIONS,
    allowed: ["order"],
    elicit: () =>
      asked++ === 0
        ? Promise.reject(new Error("the form's window was closed"))
        : Promise.resolve(accept({ code: "AB" }) as ElicitResult),
  });
  await client.initialize();
  await client.listTools();
  // The server's tool fails as the server reports it, naming the user's side, not the server.
  await assert.rejects(
    client.callTool("order"),
    (error: Error) =>
      error instanceof ToolError &&
      /-32603: The user could not be asked: Error: the form's window was closed/.test(
        error.message,
      ),
  );
  assert.deepEqual(JSON.parse(await client.callTool("order")), { code: "AB" });
});

/** An honest form of every shape the specification gives a field, its bounds at their edges. */
const HONEST_FORM = {
  type: "object",
  properties: {
    size: { type: "string", enum: ["S", "L"], enumNames: ["Small", "Large"], default: "S" },
    tier: {
      type: "string",
      oneOf: [{ const: "free", title: "Free" }, { const: "pro", title: "Pro" }],
    },
    picks: {
      type: "array",
      items: { anyOf: [{ const: "a", title: "A" }, { const: "b", title: "B" }] },
      minItems: 1,
      maxItems: 2,
    },
    when: { type: "string", format: "date-time" },
    day: { type: "string", format: "date" },
    email: { type: "string", format: "email" },
    site: { type: "string", format: "uri" },
    big: { type: "number", minimum: -1e308, maximum: 1e308 },
    n: { type: "integer", minimum: 1.5, maximum: 2.5 },
    name: { type: "string", minLength: 1, maxLength: 3 },
    ok: { type: "boolean", default: false },
  },
  required: ["size"],
};

Deno.test("an honest form of each era gets the user's honest answer unchanged, and its misfits named", async (t) => {
  const honest = {
    size: "L",
    tier: "pro",
    picks: ["a", "b"],
    when: "2016-12-31T23:59:60Z",
    day: "2024-02-29",
    email: "first.last+tag@sub.example.org",
    site: "urn:isbn:0451450523",
    big: 1e308,
    n: 2,
    name: "\u{1F600}\u{1F600}\u{1F600}",
    ok: true,
  };
  await heldByEachEra(t, HONEST_FORM, {
    defaults: { size: "S", ok: false },
    misfits: [
      [accept({ n: 1 }), /n must be at least 1.5/],
      [accept({ picks: [] }), /picks must be at least 1 choices/],
      [accept({ day: "2023-02-29" }), /day must be a date/],
      [accept({ name: "\u{1F600}".repeat(4) }), /name must be at most 3 characters long/],
    ],
    honest,
  });
});

// Round 19 of the red team: the client's side of an elicitation form, against
// real servers. Round 18 held a server's defaults to the check the course's
// servers hold answers to; that check knew only the specification's keywords,
// so a form with the exclusiveMinimum, exclusiveMaximum or pattern servers add
// (FastMCP writes them for pydantic's gt, lt and pattern; 2025-11-25's and
// 2026-07-28's PrimitiveSchemaDefinition define none) had none of its
// defaults filled in, fitting ones too. And the user's own answer (the
// application's elicit function's) was never checked by the client: a value
// past maxLength, outside its bounds, not among its choices, a required field
// missing, a field the form never asked were sent to the server as they were,
// and so was an answer of no action the specification has, or a declined one
// holding content.
// Now each is refused with FormAnswerError naming the field and the rule
// before anything is sent: at 2026-07-28 no retry goes out; a legacy server's
// own request gets the JSON-RPC error -32603 and never the answer; the call
// fails, and the next one is answered. Asked by the SDK v2 server in each era
// (tests/fixtures/form_peer.ts, behind the wire tap, which records what
// reached it), by FastMCP (tests/fixtures/fastmcp_form_peer.py), and by the
// course's own server over HTTP in each era.

import assert from "node:assert/strict";
import { Client } from "../../lib/mcp/client/client.ts";
import type { JsonObject } from "../../lib/mcp/shared/jsonrpc.ts";
import { serveHttp } from "../../lib/mcp/server/http_server.ts";
import type { SessionTool } from "../../lib/mcp/server/session_spec.ts";
import { LEGACY_VERSIONS, MCP_VERSIONS } from "../../lib/mcp/shared/versions.ts";
import { GRAMMAR } from "../../servers/grammar.ts";
import { formAnswered, formAnswers } from "../_peer_sessions.ts";
import { fastmcpFormPeer, formPeer, pythonInstalled, tapped } from "../_peers.ts";

/** Defaults under the keywords servers add: the first three fit, the last three do not. */
const BEYOND = {
  above: { type: "number", exclusiveMinimum: 0, default: 0.5 },
  below: { type: "integer", exclusiveMaximum: 5, default: 4 },
  code: { type: "string", pattern: "^[A-Z]{2}\\d{2}$", default: "AB12" },
  zero: { type: "number", exclusiveMinimum: 0, default: 0 },
  five: { type: "integer", exclusiveMaximum: 5, default: 5 },
  lower: { type: "string", pattern: "^[A-Z]", default: "mint" },
};

Deno.test("the client fills in defaults that fit an exclusive bound or a pattern, and no other", async (t) => {
  const form = { type: "object", properties: BEYOND };
  for (const era of ["modern", "2025-11-25"] as const) {
    await t.step(era === "modern" ? "2026-07-28, a multi round-trip request" : era, async () => {
      assert.deepEqual(await formAnswered(formPeer(era, form)), {
        above: 0.5,
        below: 4,
        code: "AB12",
      });
    });
  }
});

/** A form of every rule a user's answer can break. */
const ORDER_FORM = {
  type: "object",
  properties: {
    code: { type: "string", maxLength: 3 },
    tubs: { type: "integer", minimum: 1, maximum: 9 },
    size: { type: "string", enum: ["S", "L"] },
    price: { type: "number", exclusiveMinimum: 0 },
    tag: { type: "string", pattern: "^[A-Z]+$" },
  },
  required: ["code"],
};
const accept = (content: JsonObject) => ({ action: "accept", content });
/** Answers that break ORDER_FORM, or are no answer, each with the field and rule its refusal names. */
const MISFITS: [JsonObject, RegExp][] = [
  [accept({ code: "ABCD" }), /code must be at most 3 characters long/],
  [accept({ code: "ABC", tubs: 12 }), /tubs must be at most 9/],
  [accept({ code: "ABC", size: "XL" }), /size must be one of: S, L/],
  [accept({ tubs: 3 }), /missing code/],
  [accept({ code: "ABC", age: 30 }), /age is not a field of the form/],
  [accept({ code: "ABC", price: 0 }), /price must be more than 0/],
  [accept({ code: "ABC", tag: "abc" }), /tag must match the pattern "\^\[A-Z\]\+\$"/],
  [{ action: "ok", content: { code: "ABC" } }, /has no "action" of accept, decline or cancel/],
  [{ action: "decline", content: { code: "ABC" } }, /only an accepted form holds/],
];
const FITTING = { code: "ABC", tubs: 3, size: "S", price: 1.5, tag: "AB" };

/** What a call's error says, as text, when the client refused the answer for `rule`. */
const refusal = (rule: RegExp) => new RegExp(`^FormAnswerError: .*${rule.source}`);

Deno.test("the client sends no answer its form refuses, naming the field and the rule", async (t) => {
  for (const era of ["modern", "2025-11-25"] as const) {
    await t.step(era === "modern" ? "2026-07-28, a multi round-trip request" : era, async () => {
      const wire = await Deno.makeTempFile({ prefix: "elicit19-wire-" });
      try {
        const server = tapped(wire, formPeer(era, ORDER_FORM));
        const said = await formAnswers(server, [
          ...MISFITS.map(([answer]) => answer),
          accept(FITTING),
        ]);
        MISFITS.forEach(([answer, named], index) => {
          assert.match(String(said[index]), refusal(named), JSON.stringify(answer));
        });
        // The connection is kept: the answer that fits reaches the server, as it was.
        assert.deepEqual(said.at(-1), FITTING);
        // What reached the server: the answer that fits, and no other.
        const sent = (await Deno.readTextFile(wire)).split("\n")
          .filter((line) => / > /.test(line)).map((line) => line.split(" > ")[1]);
        const accepted = sent.filter((line) => line.includes('"action"'));
        assert.equal(accepted.length, 1, accepted.join("\n"));
        assert.ok(accepted[0].includes(JSON.stringify(FITTING)), accepted[0]);
        // A legacy server's own question is answered with an error, once a misfit.
        const errors = sent.filter((line) => line.includes('"code":-32603'));
        assert.equal(errors.length, era === "modern" ? 0 : MISFITS.length, errors.join("\n"));
      } finally {
        await Deno.remove(wire);
      }
    });
  }
});

Deno.test({
  name: "the client sends FastMCP no answer its pydantic form refuses by gt, lt or pattern",
  ignore: !pythonInstalled,
  fn: async () => {
    const fits = { name: "Ada", tubs: 2, count: 3, size: "S", gift: false };
    const said = await formAnswers(fastmcpFormPeer(), [
      accept({ ...fits, price: 10, code: "AB12", level: 1, flavor: "Mint" }),
      accept({ ...fits, price: 2, code: "ab12", level: 1, flavor: "Mint" }),
      accept({ ...fits, price: 2, code: "AB12", level: 0, flavor: "Mint" }),
      accept({ ...fits, price: 2, code: "AB12", level: 1, flavor: "Mint" }),
    ]);
    const named = [
      /price must be less than 10/,
      /code must match the pattern/,
      /level must be more than 0/,
    ];
    named.forEach((rule, index) => assert.match(String(said[index]), refusal(rule)));
    assert.deepEqual(said[3], { ...fits, price: 2, code: "AB12", level: 1, flavor: "Mint" });
  },
});

/** A tool of the course's server that asks a code of at most 3 characters, and says what came back. */
const ASK_CODE: SessionTool = {
  name: "ask_code",
  description: "Asks a code of at most 3 characters.",
  inputSchema: { type: "object" },
  run: async (_args, context) => {
    const requestedSchema = {
      type: "object",
      properties: { code: { type: "string", maxLength: 3 } },
    };
    const params = { message: "Code?", requestedSchema };
    const answer = await context.request("elicitation/create", params, "code");
    return { content: [{ type: "text", text: JSON.stringify(answer) }] };
  },
};

Deno.test("over HTTP, the course's server in either era gets no misfit answer, and the next call is answered", async (t) => {
  await using server = serveHttp({ ...GRAMMAR, sessionTools: [ASK_CODE] });
  for (const versions of [MCP_VERSIONS, LEGACY_VERSIONS]) {
    await t.step(versions === MCP_VERSIONS ? "2026-07-28" : "the handshake", async () => {
      let content: JsonObject = { code: "ABCD" };
      await using client = new Client(server.url, {
        versions,
        allowed: ["ask_code"],
        elicit: () => Promise.resolve({ action: "accept", content }),
      });
      await client.initialize();
      await client.listTools();
      await assert.rejects(client.callTool("ask_code"), refusal(/code must be at most 3/));
      content = { code: "ABC" };
      assert.deepEqual(JSON.parse(await client.callTool("ask_code")), accept(content));
    });
  }
});

/** A tool of the course's server that would ask a form with a keyword no elicitation form has. */
const askBeyond = (keyword: keyof typeof BEYOND): SessionTool => ({
  name: `ask_${keyword}`,
  description: `Asks a form whose field ${keyword} says what no elicitation form says.`,
  inputSchema: { type: "object" },
  run: async (_args, context) => {
    const requestedSchema = { type: "object", properties: { [keyword]: BEYOND[keyword] } };
    await context.request("elicitation/create", { message: "?", requestedSchema }, keyword);
    return { content: [{ type: "text", text: "asked" }] };
  },
});

Deno.test("the course's server, by the same check, asks no form with an exclusive bound or a pattern, naming it", async (t) => {
  const named = { above: "exclusiveMinimum", below: "exclusiveMaximum", code: "pattern" } as const;
  const keywords = Object.keys(named) as (keyof typeof named)[];
  await using server = serveHttp({ ...GRAMMAR, sessionTools: keywords.map(askBeyond) });
  for (const versions of [MCP_VERSIONS, LEGACY_VERSIONS]) {
    await t.step(versions === MCP_VERSIONS ? "2026-07-28" : "the handshake", async () => {
      let asked = 0;
      // A client each: at 2026-07-28 the server's slip fails the call (-32603), and the client
      // trusts that connection no more.
      for (const keyword of keywords) {
        await using client = new Client(server.url, {
          versions,
          allowed: [`ask_${keyword}`],
          elicit: () => (asked++, Promise.resolve({ action: "accept", content: {} })),
        });
        await client.initialize();
        await client.listTools();
        const which = new RegExp(
          `its field ${keyword} has "${named[keyword]}", which no elicitation`,
        );
        await assert.rejects(client.callTool(`ask_${keyword}`), which);
      }
      assert.equal(asked, 0, "the user was asked a form no elicitation schema defines");
    });
  }
});

// Round 18 of the red team: a server's elicitation form whose defaults break
// their own fields, against the course's client. Round 16 left out a default
// of the wrong type or outside its field's choices; a default that breaks
// its field's bounds in the same schema (minLength, maxLength, minimum,
// maximum, minItems, maxItems), its format (email, uri, date, date-time), or
// a bound no elicitation form has (exclusiveMinimum, exclusiveMaximum, which
// 2026-07-28's PrimitiveSchemaDefinition does not define) was still filled
// in, and the server got its own bad default back as if the user had chosen
// it. Asked by the SDK v2 server (tests/fixtures/form_peer.ts),
// which sends a plain JSON form just as written, in each era (a multi round-
// trip request at 2026-07-28, the server's own request at 2025-11-25), the
// client accepting with nothing typed: the server receives no such field,
// and every default that fits. FastMCP makes such a form of a pydantic model
// as Python servers write one (pydantic never checks a default against its
// field's bounds): its two bad defaults came back too
// (tests/fixtures/fastmcp_form_peer.py). The course's own server, by the same
// check, asks no such form in either era: the call (2026-07-28) or the tool
// (a handshake session) fails naming the bound the default breaks, where it
// named none and said the form had what no elicitation form has; the user is
// never asked.

import assert from "node:assert/strict";
import { Client } from "../../lib/mcp/client/client.ts";
import { serveHttp } from "../../lib/mcp/server/http_server.ts";
import type { SessionTool } from "../../lib/mcp/server/session_spec.ts";
import { ProtocolError, ToolError } from "../../lib/mcp/shared/errors.ts";
import { LEGACY_VERSIONS, MCP_VERSIONS } from "../../lib/mcp/shared/versions.ts";
import { GRAMMAR } from "../../servers/grammar.ts";
import { formAnswered } from "../_peer_sessions.ts";
import { fastmcpFormPeer, formPeer, pythonInstalled } from "../_peers.ts";

const SIZES = { type: "string", enum: ["S", "M", "L"] };

/** Fields whose defaults break their own bounds, format or choices. */
const BROKEN = {
  nick: { type: "string", minLength: 3, default: "Al" },
  code: { type: "string", maxLength: 3, default: "ABCD" },
  tubs: { type: "integer", minimum: 1, maximum: 9, default: 12 },
  weight: { type: "number", minimum: 1, default: 0 },
  positive: { type: "number", exclusiveMinimum: 0, default: 0 },
  below: { type: "integer", exclusiveMaximum: 5, default: 5 },
  email: { type: "string", format: "email", default: "ada" },
  site: { type: "string", format: "uri", default: "not a uri" },
  day: { type: "string", format: "date", default: "2026-02-30" },
  when: { type: "string", format: "date-time", default: "yesterday" },
  sizes: { type: "array", items: SIZES, minItems: 2, default: ["S"] },
  extras: { type: "array", items: SIZES, maxItems: 1, default: ["S", "M"] },
  tier: {
    type: "string",
    oneOf: [{ const: "free", title: "Free" }, { const: "pro", title: "Pro" }],
    default: "gold",
  },
};
/** Fields whose defaults fit: what the server must still receive. */
const FITTING = {
  name: { type: "string", minLength: 2, maxLength: 3, default: "Ada" },
  gift: { type: "boolean", default: true },
  count: { type: "integer", minimum: 1, maximum: 9, default: 9 },
  contact: { type: "string", format: "email", default: "ada@example.com" },
  picks: { type: "array", items: SIZES, minItems: 1, maxItems: 2, default: ["S", "L"] },
};
const FORM = { type: "object", properties: { ...BROKEN, ...FITTING }, required: ["name"] };

Deno.test("the course's client sends no default that breaks its own field's bounds", async (t) => {
  const fitting = Object.fromEntries(
    Object.entries(FITTING).map(([name, field]) => [name, field.default]),
  );
  for (const era of ["modern", "2025-11-25"] as const) {
    await t.step(era === "modern" ? "2026-07-28, a multi round-trip request" : era, async () => {
      assert.deepEqual(await formAnswered(formPeer(era, FORM)), fitting);
    });
  }
});

Deno.test({
  name:
    "the course's client sends FastMCP none of a pydantic form's defaults that break their bounds",
  ignore: !pythonInstalled,
  fn: async () => {
    // name's "Al" is shorter than its minLength 3, tubs' 12 above its maximum 9; level's 0 is
    // not above 0 (gt), flavor's "mint" breaks its pattern. Round 19: price's and code's fit.
    assert.deepEqual(await formAnswered(fastmcpFormPeer()), {
      count: 3,
      size: "L",
      gift: true,
      price: 2.5,
      code: "AB12",
    });
  },
});

/** A tool of the course's server that asks the form of one field whose default breaks its minLength. */
const ASK_NICK: SessionTool = {
  name: "ask_nick",
  description: "Asks a nickname of at least 3 characters, its default too short.",
  inputSchema: { type: "object" },
  run: async (_args, context) => {
    const requestedSchema = { type: "object", properties: { nick: BROKEN.nick } };
    await context.request("elicitation/create", { message: "Nickname?", requestedSchema }, "nick");
    return { content: [{ type: "text", text: "asked" }] };
  },
};

Deno.test("the course's server asks no form whose default breaks its field, in either era, naming the bound", async (t) => {
  await using server = serveHttp({ ...GRAMMAR, sessionTools: [ASK_NICK] });
  // At 2026-07-28 the server's own slip fails the call (-32603); in a handshake session, the tool.
  const eras = [[MCP_VERSIONS, ProtocolError], [LEGACY_VERSIONS, ToolError]] as const;
  for (const [versions, failure] of eras) {
    await t.step(failure === ProtocolError ? "2026-07-28" : "the handshake", async () => {
      let asked = 0;
      await using client = new Client(server.url, {
        versions,
        allowed: ["ask_nick"],
        elicit: () => {
          asked++;
          return Promise.resolve({ action: "accept", content: {} });
        },
      });
      await client.initialize();
      await client.listTools();
      await assert.rejects(
        client.callTool("ask_nick"),
        (error: Error) =>
          error instanceof failure &&
          /its field nick has a default that does not fit it \(it must be at least 3 characters long\): it is not sent/
            .test(error.message),
      );
      assert.equal(asked, 0, "the user was asked a form whose default its own field refuses");
    });
  }
});

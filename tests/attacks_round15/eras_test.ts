// Round 15 of the red team: a peer of the other protocol era against the
// course's client and servers, where round 14 left off. A 2026-07-28 stdio
// server (the TypeScript SDK's v2 server, tests/fixtures/round15_crash_peer.ts)
// that exits in the middle of a call: the call fails by name at once and is
// not sent again (it had its effect), the old process group is gone, and the
// next request starts the server again, as 2026-07-28's stdio transport says
// a client SHOULD ("Because the protocol is stateless, any in-flight requests
// are simply lost"); a legacy server, whose session ended with it, is not.
// A model's message judged by what the course's server asked (2025-11-25's
// sampling with tools: a tool required, none, or one never offered), with the
// SDK v2 client in either era; the course's client, which never declares
// `sampling.tools`, refusing a request that offers its model tools rather
// than answer it with text. And a 2025-06-18 client (the SDK v2 client held
// to it) not sent an elicitation form of 2025-11-25: a default, choices with
// titles, a multiple choice. And an accepted form checked by the course's
// server against the schema it asked with, in either era (the SDK v2 client,
// legacy and auto): a choice not offered, a required field left out, a list
// where a string was asked, a number out of bounds, a malformed email or date.

import { Client as SdkClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "../../lib/mcp/client/client.ts";
import { ProtocolError } from "../../lib/mcp/shared/errors.ts";
import type { JsonObject } from "../../lib/mcp/shared/jsonrpc.ts";
import { serveHttp } from "../../lib/mcp/server/http_server.ts";
import type { SessionTool } from "../../lib/mcp/server/session_spec.ts";
import { MCP_VERSIONS } from "../../lib/mcp/shared/versions.ts";
import { GRAMMAR } from "../../servers/grammar.ts";
import { recordingProxy } from "../_wire_proxy.ts";
import { eraSlips, httpWire, type Version } from "../_era_wire.ts";
import { assertGroupGone } from "../_helpers.ts";
import { crashPeer } from "../_peers.ts";

/** The runs of `crash` that `log` records, one line each. */
const crashes = (log: string) => Deno.readTextFileSync(log).split("\n").filter(Boolean);

Deno.test("a 2026-07-28 stdio server that exits in the middle of a call: the call fails by name and is not sent again; the next request starts the server again", async (t) => {
  for (const era of ["modern", "dual"] as const) {
    await t.step(era, async () => {
      const log = await Deno.makeTempFile();
      const client = new Client(crashPeer(era, log), {
        versions: MCP_VERSIONS,
        allowed: ["crash", "pid"],
        timeoutMs: 20_000,
      });
      const pids: number[] = [];
      try {
        await client.initialize();
        assert.equal(client.protocolVersion, "2026-07-28");
        await client.listTools();
        pids.push(client.pid);
        assert.equal(await client.callTool("pid"), String(pids[0]));
        await assert.rejects(
          client.callTool("crash"),
          (error: unknown) =>
            error instanceof ProtocolError && /exited with status 3/.test(error.message),
        );
        assert.deepEqual(crashes(log), [`crash ${pids[0]}`], "the call that exited was sent again");
        const answered = await client.callTool("pid");
        pids.push(client.pid);
        assert.notEqual(pids[1], pids[0], "the server was not started again");
        assert.equal(answered, String(pids[1]));
        assertGroupGone(pids[0]);
      } finally {
        await client.close();
        await Deno.remove(log);
      }
      for (const pid of pids) assertGroupGone(pid);
    });
  }
  await t.step("a legacy server is not started again: its session ended with it", async () => {
    const log = await Deno.makeTempFile();
    const client = new Client(crashPeer("2025-11-25", log), { allowed: ["crash", "pid"] });
    try {
      await client.initialize();
      await client.listTools();
      const exited = (error: unknown) =>
        error instanceof ProtocolError && /exited with status 3/.test(error.message);
      await assert.rejects(client.callTool("crash"), exited);
      await assert.rejects(client.callTool("pid"), exited);
      assert.equal(crashes(log).length, 1);
    } finally {
      await client.close();
      await Deno.remove(log);
    }
    assertGroupGone(client.pid);
  });
  await t.step("the SDK v2 client, auto, also loses the call and sends it no more", async () => {
    const log = await Deno.makeTempFile();
    const [command, ...args] = crashPeer("modern", log);
    const client = new SdkClient({ name: "v2", version: "2.4.0" }, {
      versionNegotiation: { mode: "auto" },
    });
    try {
      await client.connect(new StdioClientTransport({ command, args, stderr: "ignore" }));
      await assert.rejects(client.callTool({ name: "crash", arguments: {} }), /closed/i);
      assert.equal(crashes(log).length, 1);
    } finally {
      await client.close();
      await Deno.remove(log);
    }
  });
});

/**
 * A tool of the course's server, `name`, that asks the client `method` with
 * `params`, and answers with what `said` makes of the client's answer.
 */
function asking(
  name: string,
  [method, params]: [string, JsonObject],
  said: (answer: JsonObject) => string,
): SessionTool {
  return {
    name,
    description: `Asks the client (${method}).`,
    inputSchema: { type: "object" },
    run: async (_args, context) => {
      const answer = await context.request(method, params, name);
      return { content: [{ type: "text", text: said(answer) }] };
    },
  };
}

/** A tool that asks the client's model with `params`, and says what it said. */
const askingModel = (name: string, params: JsonObject) =>
  asking(name, ["sampling/createMessage", params], (answer) => JSON.stringify(answer.content));

const QUESTION = [{ role: "user", content: { type: "text", text: "Weather in Paris?" } }];
const WEATHER = [{ name: "weather", inputSchema: { type: "object" } }];
const ASK_REQUIRED = askingModel("ask_required", {
  messages: QUESTION,
  tools: WEATHER,
  toolChoice: { mode: "required" },
  maxTokens: 8,
});
const ASK_NONE = askingModel("ask_none", {
  messages: QUESTION,
  tools: WEATHER,
  toolChoice: { mode: "none" },
  maxTokens: 8,
});
const ASK_PLAIN = askingModel("ask_plain", { messages: QUESTION, maxTokens: 8 });

/** The model's messages: plain text, or a use of the tool `name`. */
const TEXT = { role: "assistant", content: { type: "text", text: "Sunny" }, model: "m" };
const use = (name: string) => ({
  role: "assistant",
  content: [{ type: "tool_use", id: "u1", name, input: {} }],
  model: "m",
  stopReason: "toolUse",
});

Deno.test("the course's server judges a model's message by what it asked: a tool required, none, or one not offered", async (t) => {
  // 2025-11-25's ToolChoice: "required": "Model MUST use at least one tool before
  // completing"; "none": "Model MUST NOT use any tools".
  await using server = serveHttp({ ...GRAMMAR, sessionTools: [ASK_REQUIRED, ASK_NONE, ASK_PLAIN] });
  const cases = [
    ["ask_required", TEXT, /uses no tool where toolChoice was "required"/],
    ["ask_required", use("weather"), /tool_use/],
    ["ask_required", use("forecast"), /"forecast", which was not offered/],
    ["ask_none", use("weather"), /uses a tool where toolChoice was "none"/],
    ["ask_none", TEXT, /Sunny/],
    ["ask_plain", { ...TEXT, stopReason: "toolUse" }, /stopped to use a tool/],
  ] as const;
  for (const mode of ["legacy", "auto"] as const) {
    for (const [tool, reply, said] of cases) {
      await t.step(`${mode}: ${tool} answered ${JSON.stringify(reply.content)}`, async () => {
        const client = new SdkClient({ name: "v2", version: "2.4.0" }, {
          capabilities: { sampling: { tools: {} } },
          ...(mode === "auto" ? { versionNegotiation: { mode } } : {}),
        });
        client.setRequestHandler("sampling/createMessage", () => reply as never);
        try {
          await client.connect(new StreamableHTTPClientTransport(server.url));
          const outcome = await client.callTool({ name: tool, arguments: {} }).then(
            (result) => (result.content as { text: string }[])[0].text,
            (error: Error) => error.message,
          );
          assert.match(outcome, said);
        } finally {
          await client.close();
        }
      });
    }
  }
});

Deno.test("the course's client refuses a sampling request that offers its model tools, which it never declares, rather than answer it with text", async () => {
  const heard: unknown[] = [];
  const client = new Client(legacyPeer("sample-tools"), {
    allowed: ["echo"],
    sample: (request) => {
      heard.push(request);
      return Promise.resolve({ text: "Sunny", model: "m", stopReason: "endTurn" });
    },
  });
  try {
    await client.initialize();
    await client.listTools();
    const said = JSON.parse(await client.callTool("echo", { text: "x" }));
    assert.equal(said.code, -32602);
    assert.match(said.message, /sampling\.tools/);
    assert.deepEqual(heard, [], "the model was asked, without the tools it was to be offered");
  } finally {
    await client.close();
  }
  assertGroupGone(client.pid);
});

/** The hand-written legacy server of `mode` (tests/fixtures/legacy_peer.ts). */
function legacyPeer(mode: string): string[] {
  const script = fileURLToPath(new URL("../fixtures/legacy_peer.ts", import.meta.url));
  return [Deno.execPath(), "run", "--quiet", script, mode];
}

/** A tool that asks the user to fill in `properties`, and says the action. */
const askingForm = (name: string, properties: JsonObject) =>
  asking(name, [
    "elicitation/create",
    { message: "Your order?", requestedSchema: { type: "object", properties } },
  ], (answer) => String(answer.action));

/** Forms of 2025-11-25 (each with what 2025-06-18 lacks), and one 2025-06-18 reads. */
const FORMS = [
  askingForm("with_default", { name: { type: "string", default: "Ada" } }),
  askingForm("with_titles", {
    size: {
      type: "string",
      oneOf: [{ const: "S", title: "Small" }, { const: "L", title: "Large" }],
    },
  }),
  askingForm("with_several", {
    sizes: { type: "array", items: { type: "string", enum: ["S", "L"] } },
  }),
  askingForm("of_2025_06_18", {
    size: { type: "string", enum: ["S", "L"], enumNames: ["Small", "Large"] },
    gift: { type: "boolean", default: false },
  }),
];

Deno.test("a 2025-06-18 client is not sent an elicitation form of 2025-11-25 (defaults, titled or multiple choices): the tool fails, saying so", async (t) => {
  await using server = serveHttp({ ...GRAMMAR, sessionTools: FORMS });
  for (const version of ["2025-06-18", "2025-11-25"]) {
    for (const { name } of FORMS) {
      await t.step(`${version}: ${name}`, async () => {
        await using proxy = recordingProxy(server.url);
        const client = new SdkClient({ name: "v2", version: "2.4.0" }, {
          capabilities: { elicitation: {} },
          supportedProtocolVersions: [version],
        });
        client.setRequestHandler("elicitation/create", () => ({ action: "decline" as const }));
        const sent = version === "2025-11-25" || name === "of_2025_06_18";
        try {
          await client.connect(new StreamableHTTPClientTransport(proxy.url));
          assert.equal(client.getNegotiatedProtocolVersion(), version);
          const result = await client.callTool({ name, arguments: {} });
          const [{ text }] = result.content as { text: string }[];
          assert.match(
            text,
            sent ? /^decline$/ : /came with 2025-11-25 \(.*\); this session is 2025-06-18/,
          );
        } finally {
          await client.close();
        }
        await proxy.settled();
        const asked = proxy.exchanges.some((exchange) =>
          exchange.responseBody.includes('"method":"elicitation/create"')
        );
        assert.equal(asked, sent, "whether the form was sent");
        // The interop tests' judge of the wire finds nothing of 2025-11-25 in it either.
        assert.deepEqual(eraSlips(httpWire(proxy.exchanges), version as Version, "server"), []);
      });
    }
  }
});

/** A form of each field an elicitation schema defines, `size` required. */
const ORDER_FORM = {
  size: { type: "string", enum: ["S", "L"] },
  count: { type: "integer", minimum: 1, maximum: 9 },
  email: { type: "string", format: "email" },
  when: { type: "string", format: "date" },
  sizes: { type: "array", items: { type: "string", enum: ["S", "L"] }, minItems: 1 },
  tier: {
    type: "string",
    oneOf: [{ const: "free", title: "Free" }, { const: "pro", title: "Pro" }],
  },
  note: { type: "string", maxLength: 3 },
};

const ASK_ORDER = asking("ask_order", ["elicitation/create", {
  message: "Your order?",
  requestedSchema: { type: "object", properties: ORDER_FORM, required: ["size"] },
}], (answer) => JSON.stringify(answer.content ?? answer.action));

/** What a user who declined the form is said to have filled in. */
const DECLINED: JsonObject = { size: "S" };

/** A form whose field has a keyword no elicitation schema has. */
const ASK_CODE = askingForm("ask_code", { code: { type: "string", pattern: "^[A-Z]+$" } });

Deno.test("the course's server checks an accepted form against the schema it asked with: the tool never sees an answer that does not fit", async (t) => {
  // 2025-11-25, elicitation: "Servers SHOULD validate received data matches the requested schema".
  await using server = serveHttp({ ...GRAMMAR, sessionTools: [ASK_ORDER] });
  const fits: JsonObject = {
    size: "S",
    count: 3,
    email: "ada@example.com",
    when: "2024-02-29",
    sizes: ["L"],
    tier: "pro",
    note: "ok",
  };
  const cases: [string, JsonObject, RegExp][] = [
    ["ask_order", fits, new RegExp(`^${RegExp.escape(JSON.stringify(fits))}$`)],
    ["ask_order", { size: "XL" }, /size must be one of: S, L/],
    ["ask_order", {}, /missing size/],
    ["ask_order", { size: ["S", "L"] }, /size must be a string/],
    ["ask_order", { size: "S", count: 2.5 }, /count must be an integer/],
    ["ask_order", { size: "S", count: 10 }, /count must be at most 9/],
    ["ask_order", { size: "S", email: "ada" }, /email must be an email/],
    ["ask_order", { size: "S", when: "2026-02-29" }, /when must be a date/],
    ["ask_order", { size: "S", sizes: ["S", "XL"] }, /sizes holds "XL"/],
    ["ask_order", { size: "S", sizes: [] }, /sizes must be at least 1 choices/],
    ["ask_order", { size: "S", tier: "gold" }, /tier must be one of: free, pro/],
    ["ask_order", { size: "S", note: "long" }, /note must be at most 3 characters long/],
    [
      "ask_order",
      DECLINED,
      /has content, which only an accepted form holds \(its action is decline\)/,
    ],
  ];
  for (const mode of ["legacy", "auto"] as const) {
    for (const [tool, content, said] of cases) {
      const action = content === DECLINED ? "decline" : "accept";
      await t.step(`${mode}: ${tool} answered ${action} ${JSON.stringify(content)}`, async () => {
        const client = new SdkClient({ name: "v2", version: "2.4.0" }, {
          capabilities: { elicitation: {} },
          ...(mode === "auto" ? { versionNegotiation: { mode } } : {}),
        });
        client.setRequestHandler("elicitation/create", () => ({ action, content }) as never);
        try {
          await client.connect(new StreamableHTTPClientTransport(server.url));
          const era = mode === "auto" ? "2026-07-28" : "2025-11-25";
          assert.equal(client.getNegotiatedProtocolVersion(), era);
          const outcome = await client.callTool({ name: tool, arguments: {} }).then(
            (result) => (result.content as { text: string }[])[0].text,
            (error: Error) => error.message,
          );
          assert.match(outcome, said);
          if (![fits, DECLINED].includes(content)) {
            assert.match(outcome, /does not fit the form it was asked with/);
          }
        } finally {
          await client.close();
        }
      });
    }
  }
});

Deno.test("a form whose answers the course's server could not check is not sent: the tool fails, naming what the form says that no elicitation form says", async (t) => {
  await using server = serveHttp({ ...GRAMMAR, sessionTools: [ASK_CODE] });
  for (const mode of ["legacy", "auto"] as const) {
    await t.step(mode, async () => {
      let asked = 0;
      const client = new SdkClient({ name: "v2", version: "2.4.0" }, {
        capabilities: { elicitation: {} },
        ...(mode === "auto" ? { versionNegotiation: { mode } } : {}),
      });
      client.setRequestHandler("elicitation/create", () => {
        asked++;
        return { action: "accept", content: { code: "ABC" } } as never;
      });
      try {
        await client.connect(new StreamableHTTPClientTransport(server.url));
        const outcome = await client.callTool({ name: "ask_code", arguments: {} }).then(
          (result) => (result.content as { text: string }[])[0].text,
          (error: Error) => error.message,
        );
        assert.match(outcome, /form cannot be checked: its field code has "pattern"/);
        assert.equal(asked, 0, "the user was asked a form whose answer would not be checked");
      } finally {
        await client.close();
      }
    });
  }
});

Deno.test("a 2025-06-18 client's accepted form holding a list is refused: that version's content holds strings, numbers and booleans only", async (t) => {
  await using server = serveHttp({ ...GRAMMAR, sessionTools: FORMS });
  const content = { size: "S", gift: true, sizes: ["S", "L"] };
  for (const version of ["2025-06-18", "2025-11-25"]) {
    await t.step(version, async () => {
      const client = new SdkClient({ name: "v2", version: "2.4.0" }, {
        capabilities: { elicitation: {} },
        supportedProtocolVersions: [version],
      });
      client.setRequestHandler(
        "elicitation/create",
        () => ({ action: "accept", content }) as never,
      );
      try {
        await client.connect(new StreamableHTTPClientTransport(server.url));
        const outcome = await client.callTool({ name: "of_2025_06_18", arguments: {} }).then(
          (result) => (result.content as { text: string }[])[0].text,
          (error: Error) => error.message,
        );
        assert.match(
          outcome,
          version === "2025-06-18" ? /sizes is not a string, number, boolean$/ : /^accept$/,
        );
      } finally {
        await client.close();
      }
    });
  }
});

// Round 16 of the red team: a peer of the other protocol era, where round 15
// left off. A 2026-07-28 stdio server (the TypeScript SDK's v2 server,
// tests/fixtures/round15_crash_peer.ts) that exits while the course's client
// holds a subscription open: the client starts it again at once and sends
// `subscriptions/listen` again there, as 2026-07-28 says it MUST ("the server
// holds no subscription state across reconnections"), so that the caller's
// subscription goes on carrying what the new server tells; one that exits
// each time is not started again past MAX_REOPENS, the subscription ending
// by name. And the client closed while it starts such a server again, or
// after it exited: nothing is started again, and no process is left running.
// A subscription acknowledged with more than was asked (2026-07-28: the
// acknowledgment "reflects the subset the server agreed to honor"), refused
// by name, where the real SDK v2 server acknowledges a subset. And a
// 2025-06-18 client (the SDK v2 client held to it, declaring sampling.tools
// all the same) not sent 2025-11-25's tool-enabled sampling (tools,
// toolChoice), which its version does not define. And the course's client,
// asked by the SDK v2 server (tests/fixtures/form_peer.ts) a form
// whose default is a choice not offered, filling it in as no user's answer;
// a field named "constructor" gets its default all the same. And a
// 2025-11-25 client that did not declare sampling.context not asked to
// include context (includeContext "thisServer"), as that version says a
// server SHOULD NOT; at 2025-06-18, which has no such capability, it is.
// Nor one that did not declare sampling.tools asked with a toolChoice and no
// tools (the client "MUST return an error if this field is provided").

import { Client as SdkClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "../../lib/mcp/client/client.ts";
import { MAX_REOPENS } from "../../lib/mcp/client/subscription.ts";
import { ProtocolError } from "../../lib/mcp/shared/errors.ts";
import type { JsonObject } from "../../lib/mcp/shared/jsonrpc.ts";
import type { SessionTool } from "../../lib/mcp/server/session_spec.ts";
import { MCP_VERSIONS } from "../../lib/mcp/shared/versions.ts";
import { serveHttp } from "../../lib/mcp/server/http_server.ts";
import { GRAMMAR } from "../../servers/grammar.ts";
import { recordingProxy } from "../_wire_proxy.ts";
import { eraSlips, httpWire, type Version } from "../_era_wire.ts";
import { assertGroupGone, commandsHolding } from "../_helpers.ts";
import { crashPeer, formPeer } from "../_peers.ts";
import { formAnswered } from "../_peer_sessions.ts";

/** A client of the crash peer, at 2026-07-28, recording in a new log; `end` closes it and ends whatever is left. */
async function crashClient(): Promise<{ client: Client; log: string; end: () => Promise<void> }> {
  const log = await Deno.makeTempFile();
  const client = new Client(crashPeer("modern", log), {
    versions: MCP_VERSIONS,
    allowed: ["crash", "pid", "change"],
    timeoutMs: 20_000,
  });
  const end = async () => {
    await client.close();
    // A server started again past the client's close (the defect) is ended here, not left running.
    for (const { pid } of commandsHolding(log)) Deno.kill(pid, "SIGKILL");
    await Deno.remove(log);
  };
  await client.initialize();
  assert.equal(client.protocolVersion, "2026-07-28");
  await client.listTools();
  return { client, log, end };
}

const exited = (error: unknown) =>
  error instanceof ProtocolError && /exited with status 3/.test(error.message);

Deno.test("a subscription open when a 2026-07-28 stdio server exits is opened again on the server started again", async () => {
  const { client, end } = await crashClient();
  const pids = [client.pid];
  try {
    const subscription = await client.listen({ toolsListChanged: true });
    const notifications = subscription[Symbol.asyncIterator]();
    await assert.rejects(client.callTool("crash"), exited);
    // The request after the subscription's own: the server has it by the time it answers.
    assert.equal(await client.callTool("pid"), String(client.pid));
    pids.push(client.pid);
    assert.notEqual(pids[1], pids[0], "the server was not started again");
    assert.equal(await client.callTool("change"), "changed");
    // Opened again, its new acknowledgment first (round 17: what changed meanwhile was not told).
    assert.equal(
      (await notifications.next()).value?.method,
      "notifications/subscriptions/acknowledged",
    );
    const { value } = await notifications.next();
    assert.equal(value?.method, "notifications/tools/list_changed");
    assert.deepEqual(subscription.acknowledged, { toolsListChanged: true });
    subscription.close();
    assert.equal((await notifications.next()).done, true);
  } finally {
    await end();
  }
  for (const pid of pids) assertGroupGone(pid);
});

Deno.test("a server that exits each time its subscription is opened again is started again MAX_REOPENS times, then the subscription ends by name", async () => {
  const { client, log, end } = await crashClient();
  try {
    const subscription = await client.listen({ toolsListChanged: true });
    const notifications = subscription[Symbol.asyncIterator]();
    for (let crash = 0; crash <= MAX_REOPENS; crash++) {
      await assert.rejects(client.callTool("crash"), exited);
    }
    for (let reopen = 1; reopen <= MAX_REOPENS; reopen++) {
      const { value } = await notifications.next();
      assert.equal(value?.method, "notifications/subscriptions/acknowledged");
    }
    await assert.rejects(
      notifications.next(),
      (error: unknown) =>
        error instanceof ProtocolError &&
        new RegExp(`exited with status 3, and it was opened again ${MAX_REOPENS} times`)
          .test(error.message),
    );
    assert.equal(
      Deno.readTextFileSync(log).split("\n").filter(Boolean).length,
      MAX_REOPENS + 1,
    );
  } finally {
    await end();
  }
});

Deno.test("a client closed while it starts a 2026-07-28 stdio server again, or after the server exited, starts nothing", async (t) => {
  for (const when of ["while it starts it again", "after it exited"]) {
    await t.step(when, async () => {
      const { client, log, end } = await crashClient();
      try {
        await assert.rejects(client.callTool("crash"), exited);
        const call = when === "after it exited" ? undefined : client.callTool("pid");
        await client.close();
        await assert.rejects(call ?? client.callTool("pid"), ProtocolError);
        assert.deepEqual(commandsHolding(log), [], "a server was started after the client closed");
      } finally {
        await end();
      }
      assertGroupGone(client.pid);
    });
  }
  await t.step("while it starts it again for a subscription", async () => {
    const { client, log, end } = await crashClient();
    try {
      const subscription = await client.listen({ toolsListChanged: true });
      await assert.rejects(client.callTool("crash"), exited);
      await client.close();
      await assert.rejects(subscription[Symbol.asyncIterator]().next(), ProtocolError);
      assert.deepEqual(commandsHolding(log), [], "a server was started after the client closed");
    } finally {
      await end();
    }
    assertGroupGone(client.pid);
  });
});

Deno.test("a subscription acknowledged with more than was asked is refused by name; the SDK v2 server acknowledges a subset", async () => {
  const asked = {
    toolsListChanged: true,
    promptsListChanged: true,
    resourceSubscriptions: ["x:/a"],
  };
  const { client, end } = await crashClient();
  try {
    await using subscription = await client.listen(asked);
    const acknowledged = subscription.acknowledged;
    for (const [key, value] of Object.entries(acknowledged)) {
      assert.ok(
        key === "resourceSubscriptions" || value === false ||
          asked[key as "toolsListChanged"] === true,
        key,
      );
    }
  } finally {
    await end();
  }
  const peer = fileURLToPath(new URL("../fixtures/modern_peer.ts", import.meta.url));
  await using over = new Client([Deno.execPath(), "run", "--quiet", peer, "over-acknowledged"], {
    versions: MCP_VERSIONS,
  });
  await over.initialize();
  await assert.rejects(
    over.listen({ toolsListChanged: true }),
    (error: unknown) =>
      error instanceof ProtocolError &&
      /acknowledged promptsListChanged, resourceSubscriptions file:\/\/\/etc\/passwd, which were not asked/
        .test(error.message),
  );
});

const QUESTION = [{ role: "user", content: { type: "text", text: "Weather in Paris?" } }];

/** A tool of the course's server that asks the client's model with `extra` besides the question, and says what it said. */
const askingModel = (name: string, extra: JsonObject): SessionTool => ({
  name,
  description: "Asks the client's model, and says what it said.",
  inputSchema: { type: "object" },
  run: async (_args, context) => {
    const params = { messages: QUESTION, maxTokens: 8, ...extra };
    const answer = await context.request("sampling/createMessage", params, name);
    return { content: [{ type: "text", text: JSON.stringify(answer.content) }] };
  },
});

/** The course's HTTP server with the sampling tools below. */
const SAMPLING_SERVER = {
  ...GRAMMAR,
  sessionTools: [
    askingModel("ask_with_tools", {
      tools: [{ name: "weather", inputSchema: { type: "object" } }],
      toolChoice: { mode: "auto" },
    }),
    askingModel("ask_in_context", { includeContext: "thisServer" }),
    askingModel("ask_choosing", { toolChoice: { mode: "none" } }),
  ],
};

/**
 * What the tool `name` of the server at `url` says to the SDK v2 client that
 * declares `sampling` and speaks `version` (its model answers "Sunny"), and
 * whether the sampling request was sent, with the wire judge's slips.
 */
async function sampledBy(
  url: URL,
  name: string,
  sampling: JsonObject,
  version: Version = "2025-11-25",
): Promise<{ text: string; asked: boolean; slips: string[] }> {
  await using proxy = recordingProxy(url);
  const client = new SdkClient({ name: "v2", version: "2.4.0" }, {
    capabilities: { sampling },
    supportedProtocolVersions: [version],
  });
  const sunny = { role: "assistant", content: { type: "text", text: "Sunny" }, model: "m" };
  client.setRequestHandler("sampling/createMessage", () => sunny as never);
  let text: string;
  try {
    await client.connect(new StreamableHTTPClientTransport(proxy.url));
    assert.equal(client.getNegotiatedProtocolVersion(), version);
    const result = await client.callTool({ name, arguments: {} });
    text = (result.content as { text: string }[])[0].text;
  } finally {
    await client.close();
  }
  await proxy.settled();
  const asked = proxy.exchanges.some((exchange) =>
    exchange.responseBody.includes('"method":"sampling/createMessage"')
  );
  return { text, asked, slips: eraSlips(httpWire(proxy.exchanges), version, "server") };
}

Deno.test("a 2025-06-18 client is not sent a sampling request that offers the model tools: the tool fails, saying so", async (t) => {
  await using server = serveHttp(SAMPLING_SERVER);
  for (const version of ["2025-06-18", "2025-11-25"] as const) {
    await t.step(version, async () => {
      const sent = version === "2025-11-25";
      const { text, asked, slips } = await sampledBy(
        server.url,
        "ask_with_tools",
        { tools: {} },
        version,
      );
      assert.match(
        text,
        sent ? /Sunny/ : /offers the model tools.*2025-11-25; this session is 2025-06-18/,
      );
      assert.equal(asked, sent, "whether the sampling request was sent");
      // The interop tests' judge of the wire finds nothing of 2025-11-25 in a 2025-06-18 one.
      assert.deepEqual(slips, []);
    });
  }
});

Deno.test("a sampling request asks for context only of a 2025-11-25 client that declared sampling.context", async (t) => {
  await using server = serveHttp(SAMPLING_SERVER);
  const cases = [
    ["2025-11-25", {}, false],
    ["2025-11-25", { context: {} }, true],
    ["2025-06-18", {}, true],
  ] as const;
  for (const [version, sampling, sent] of cases) {
    await t.step(`${version}, sampling ${JSON.stringify(sampling)}`, async () => {
      const { text, asked } = await sampledBy(server.url, "ask_in_context", sampling, version);
      assert.match(text, sent ? /Sunny/ : /did not declare \{"sampling":\{"context":\{\}\}\}/);
      assert.equal(asked, sent, "whether the sampling request was sent");
    });
  }
});

Deno.test("a sampling request with a toolChoice and no tools goes only to a client that declared sampling.tools", async (t) => {
  await using server = serveHttp(SAMPLING_SERVER);
  for (const [sampling, sent] of [[{}, false], [{ tools: {} }, true]] as const) {
    await t.step(`sampling ${JSON.stringify(sampling)}`, async () => {
      const { text, asked } = await sampledBy(server.url, "ask_choosing", sampling);
      assert.match(text, sent ? /Sunny/ : /did not declare \{"sampling":\{"tools":\{\}\}\}/);
      assert.equal(asked, sent, "whether the sampling request was sent");
    });
  }
});

/** Round 16's form: a size (S or L, its default XL), a gift (its default true) and a constructor (its default "Ada"). */
const ORDER_FORM = {
  type: "object",
  properties: {
    size: { type: "string", enum: ["S", "L"], default: "XL" },
    gift: { type: "boolean", default: true },
    constructor: { type: "string", default: "Ada" },
  },
};

Deno.test("the course's client fills in only the defaults that fit their fields", async () => {
  // The SDK v2 server sends a default of XL for a choice of S or L as it was given.
  const received = await formAnswered(formPeer("modern", ORDER_FORM));
  assert.deepEqual(received, { gift: true, constructor: "Ada" });
});

// The TypeScript SDK's v2 client (`@modelcontextprotocol/client` 2.4.0) in
// each of its modes against the course's servers: the grammar server (the
// handshake, 2025-06-18 and 2024-11-05) and the teaching server's sampling
// mode (a `ServerSession`: 2026-07-28 and every handshake version) over
// stdio, and `serveHttp` held to both eras, to 2026-07-28 alone and to one
// handshake version. Its modes: 'legacy' (its default: the handshake alone,
// offering 2025-11-25, or the one version `supportedProtocolVersions` names),
// 'auto' (the probe, then the era the server speaks) and a pin to
// 2026-07-28. Each session agrees on the version the SDK reports, its calls
// are answered correctly (the server asks the client's model by a multi
// round-trip request at 2026-07-28, by a request of its own before), and the
// wire is judged for anything of the other era sent by the course's server
// (tests/_era_wire.ts): over stdio through a tap between the SDK and the
// server, over HTTP through a recording proxy.

import { Client as SdkClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import assert from "node:assert/strict";
import { freshLog, grammarCommand, serverCalls, serverCommand } from "../lib/course/course.ts";
import { serveHttp } from "../lib/mcp/server/http_server.ts";
import { GRAMMAR } from "../servers/grammar.ts";
import { eraSlips, httpWire, tapWires, type Version } from "./_era_wire.ts";
import { assertProcessGone } from "./_helpers.ts";
import { grammarCallsBySdk, sdkText as text } from "./_interop.ts";
import { askingGrammar, ORDER, tapped } from "./_peers.ts";
import { type Exchange, recordingProxy } from "./_wire_proxy.ts";

/** How the SDK's client negotiates: its default (the handshake), one handshake version, the probe, or a pin. */
type Mode = "legacy" | "2024-11-05" | "2025-03-26" | "2025-06-18" | "auto" | "pin";

/** An SDK v2 client in `mode`, whose model answers "ice cream" and whose user is "Ada". */
function sdkClient(mode: Mode): SdkClient {
  const client = new SdkClient({ name: "sdk-v2-interop", version: "2.4.0" }, {
    capabilities: { sampling: {}, elicitation: {} },
    ...(mode === "auto" ? { versionNegotiation: { mode: "auto" as const } } : {}),
    ...(mode === "pin" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
    ...(mode.startsWith("20") ? { supportedProtocolVersions: [mode] } : {}),
  });
  client.setRequestHandler("sampling/createMessage", () => ({
    role: "assistant" as const,
    content: { type: "text" as const, text: "ice cream" },
    model: "stand-in",
    stopReason: "endTurn",
  }));
  client.setRequestHandler("elicitation/create", () => ({
    action: "accept" as const,
    content: { name: "Ada" },
  }));
  return client;
}

/** The tap logs in TMPDIR ({@linkcode overStdio} makes one a connection, and removes it). */
const tapLogs = () =>
  [...Deno.readDirSync(Deno.env.get("TMPDIR") ?? "/tmp")].map(({ name }) => name)
    .filter((name) => name.startsWith("sdk-v2-tap-")).sort();

/**
 * Connect an SDK client in `mode` to `command` through the tap, run `body`,
 * close, and judge what the course's server sent on each connection at the
 * version agreed; every process started (taps and servers) must be gone.
 */
async function overStdio(
  command: string[],
  mode: Mode,
  body: (client: SdkClient) => Promise<void>,
): Promise<string | undefined> {
  const log = await Deno.makeTempFile({ prefix: "sdk-v2-tap-" });
  try {
    const [program, ...args] = tapped(log, command);
    const client = sdkClient(mode);
    let version: string | undefined;
    try {
      await client.connect(new StdioClientTransport({ command: program, args, stderr: "ignore" }));
      version = client.getNegotiatedProtocolVersion();
      await body(client);
    } finally {
      await client.close();
    }
    const connections = tapWires(await Deno.readTextFile(log));
    for (const { tap, serverPid, wire } of connections) {
      assertProcessGone(tap);
      assertProcessGone(serverPid);
      assert.deepEqual(eraSlips(wire, version as Version, "server"), []);
    }
    return version;
  } finally {
    // A connection refused (the pinned client) threw before the log was read: it stayed in TMPDIR.
    await Deno.remove(log);
  }
}

Deno.test("the SDK v2 client in each of its modes with the grammar server over stdio", async (t) => {
  for (
    const [mode, version] of [
      ["legacy", "2025-06-18"],
      ["2024-11-05", "2024-11-05"],
      ["auto", "2025-06-18"],
    ] as const
  ) {
    await t.step(`${mode}: ${version}`, async () => {
      assert.equal(await overStdio(grammarCommand(), mode, grammarCallsBySdk), version);
    });
  }
  await t.step("pinned to 2026-07-28: refused, having sent only the probe", async () => {
    const before = tapLogs();
    await assert.rejects(
      overStdio(grammarCommand(), "pin", () => Promise.resolve()),
      /did not offer pinned protocol version 2026-07-28/,
    );
    assert.deepEqual(tapLogs(), before, "the refused connection's tap log was left in TMPDIR");
  });
});

Deno.test("the SDK v2 client in each of its modes with the teaching server's sampling mode over stdio", async (t) => {
  for (
    const [mode, version] of [
      ["auto", "2026-07-28"],
      ["pin", "2026-07-28"],
      ["legacy", "2025-11-25"],
      ["2025-03-26", "2025-03-26"],
      ["2024-11-05", "2024-11-05"],
    ] as const
  ) {
    await t.step(`${mode}: ${version}, the client's model asked`, async () => {
      const log = await freshLog(`sdk-v2-sampling-${mode}`);
      const agreed = await overStdio(serverCommand("sampling", log), mode, async (client) => {
        const counted = await client.callTool({
          name: "word_count",
          arguments: { text: "vanilla stock needs review" },
        });
        assert.equal(text(counted), "4 (the client's model said: ice cream)");
      });
      assert.equal(agreed, version);
      // A multi round-trip call runs again on each round; the log witnesses every run.
      const runs = await serverCalls(log);
      assert.ok(runs.length >= 1 && runs.every((run) => run.name === "word_count"));
    });
  }
});

Deno.test("the SDK v2 client in each of its modes with serveHttp of each era", async (t) => {
  await using dual = serveHttp(askingGrammar());
  await using modern = serveHttp(askingGrammar(["2026-07-28"]));
  await using early = serveHttp(askingGrammar(["2025-03-26"]));
  const cases = [
    [dual, "auto", "2026-07-28", "ice cream, Ada"],
    [dual, "pin", "2026-07-28", "ice cream, Ada"],
    [dual, "legacy", "2025-11-25", "ice cream, Ada"],
    [dual, "2025-06-18", "2025-06-18", "ice cream, Ada"],
    [dual, "2024-11-05", "2024-11-05", undefined],
    [modern, "auto", "2026-07-28", "ice cream, Ada"],
    [early, "auto", "2025-03-26", undefined],
  ] as const;
  // Before 2025-06-18 there is no elicitation for `greet` to ask with (see the test of that below).
  for (const [server, mode, version, greeting] of cases) {
    const which = server === dual
      ? "both eras"
      : server === modern
      ? "2026-07-28 alone"
      : "2025-03-26 alone";
    await t.step(`${which}, ${mode}: ${version}`, async () => {
      await using proxy = recordingProxy(server.url);
      const client = sdkClient(mode);
      try {
        await client.connect(new StreamableHTTPClientTransport(proxy.url));
        assert.equal(client.getNegotiatedProtocolVersion(), version);
        const ate = await client.callTool({
          name: "conjugate",
          arguments: { verb: "eat", tense: "past_simple", person: "3sg" },
        });
        assert.equal(text(ate), "ate");
        if (greeting !== undefined) {
          assert.equal(text(await client.callTool({ name: "greet", arguments: {} })), greeting);
        }
        const described = await client.callTool({
          name: "describe",
          arguments: { flavor: "vanilla", tubs: 12 },
        });
        assert.deepEqual(JSON.parse(text(described)), ORDER);
        assert.deepEqual(described.structuredContent, version >= "2025-06-18" ? ORDER : undefined);
        await changesHeard(client, version);
      } finally {
        await client.close();
      }
      await proxy.settled();
      assert.deepEqual(eraSlips(httpWire(proxy.exchanges), version, "server"), []);
    });
  }
  await t.step("2026-07-28 alone refuses the SDK's handshake, naming its versions", async () => {
    const [refusal, ...more] = await refusedHandshake(modern.url);
    assert.deepEqual(more, []);
    assert.equal(refusal.method, "POST");
    assert.equal(refusal.responseHeaders.get("mcp-session-id"), null);
  });
});

/**
 * What the SDK's client hears when the tool list changes: at 2026-07-28, on
 * a subscription it opens (`subscriptions/listen`); in a handshake session
 * it has none to open, and the SDK refuses before sending.
 */
async function changesHeard(client: SdkClient, version: string): Promise<void> {
  const change = { name: "change", arguments: {} };
  if (version !== "2026-07-28") {
    await assert.rejects(client.listen({ toolsListChanged: true }));
    assert.equal(text(await client.callTool(change)), "changed");
    return;
  }
  const heard = new Promise<void>((resolve) =>
    client.setNotificationHandler("notifications/tools/list_changed", () => resolve())
  );
  const subscription = await client.listen({ toolsListChanged: true });
  assert.deepEqual(subscription.honoredFilter, { toolsListChanged: true });
  assert.equal(text(await client.callTool(change)), "changed");
  await heard;
  await subscription.close();
}

/** What crossed when the SDK's handshake client was refused, as it must be, by the server at `url`. */
async function refusedHandshake(url: URL): Promise<Exchange[]> {
  await using proxy = recordingProxy(url);
  const client = sdkClient("legacy");
  await assert.rejects(client.connect(new StreamableHTTPClientTransport(proxy.url)), /2026-07-28/);
  await client.close();
  await proxy.settled();
  return proxy.exchanges;
}

Deno.test({
  name: "serveHttp of 2026-07-28 alone answers a legacy initialize 400 Bad Request",
  // Library defect (lib/mcp/server/http_server.ts): a server of 2026-07-28 alone answers
  // the SDK v2 client's POST of `initialize` (protocolVersion 2025-11-25, no
  // MCP-Protocol-Version header) with 200 OK and a -32022 UnsupportedProtocolVersionError
  // body. The transport says "If the server does not implement the requested protocol
  // version ... it MUST respond with 400 Bad Request and an UnsupportedProtocolVersionError"
  // (2026-07-28, basic/transports/streamable-http.mdx, "Protocol Version Header"), and its
  // compatibility matrix has a legacy client's request to a modern server "rejected ...
  // with 400 Bad Request" (basic/versioning.mdx). The SDK's own modern-only endpoint
  // (createMcpHandler with legacy: 'reject') answers 400.
  fn: async () => {
    await using modern = serveHttp({ ...GRAMMAR, versions: ["2026-07-28"] });
    const exchanges = await refusedHandshake(modern.url);
    assert.deepEqual(exchanges.map((exchange) => exchange.status), [400]);
  },
});

Deno.test({
  name:
    "a course server's tool that cannot ask before 2025-06-18 fails as a tool, and the session goes on",
  // Library defect (lib/mcp/server/session.ts, #legacyContext): at 2024-11-05 and 2025-03-26,
  // RequestContext.request("elicitation/create") rejects with RpcError(-32601), and a tool
  // that does not catch it makes the server answer the tools/call itself with
  // {"code":-32601,"message":"Elicitation came with 2025-06-18; this session is 2025-03-26"}:
  // "Method not found" for tools/call, a method the server has. The SDK v2 client throws
  // it; the course's own client takes it for the server's fault and distrusts the session.
  // The specification reports a tool's failure "in tool results with isError: true"
  // (2025-03-26, server/tools.mdx, "Error Handling"), as the SDK v2 server's shim and
  // FastMCP 4.2.3 do when their tool cannot ask; RequestContext.request's JSDoc says it
  // "rejects with ProtocolError".
  fn: async () => {
    await using early = serveHttp(askingGrammar(["2025-03-26"]));
    const client = sdkClient("legacy");
    try {
      await client.connect(new StreamableHTTPClientTransport(early.url));
      const greeted = await client.callTool({ name: "greet", arguments: {} });
      assert.equal(greeted.isError, true);
      const ate = await client.callTool({
        name: "conjugate",
        arguments: { verb: "eat", tense: "past_simple", person: "3sg" },
      });
      assert.equal(text(ate), "ate");
    } finally {
      await client.close();
    }
  },
});

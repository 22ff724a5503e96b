// The TypeScript SDK's 1.x line (`@modelcontextprotocol/sdk` 1.32.2), which
// speaks the handshake alone (2025-11-25 and earlier), against the course's
// dual-era client and servers, both ways, with the wire judged
// (tests/_era_wire.ts): the dual-era client probes once and then speaks
// 2025-11-25 and nothing of 2026-07-28, answering the SDK server's ping and
// refusing its sampling request (it was given no model); the SDK's client is
// served 2025-11-25 by the teaching server's sampling mode over stdio (its
// model asked by a request of the server's own) and by serveHttp of both eras,
// and is refused, with the versions named and no session, by serveHttp of
// 2026-07-28 alone.

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import assert from "node:assert/strict";
import { freshLog, serverCommand } from "../lib/course/course.ts";
import { Client } from "../lib/mcp/client/client.ts";
import { serveHttp } from "../lib/mcp/server/http_server.ts";
import { MCP_VERSIONS } from "../lib/mcp/shared/versions.ts";
import { eraSlips, httpWire, tapWires, transcriptWire } from "./_era_wire.ts";
import { assertGroupGone, assertProcessGone } from "./_helpers.ts";
import { sdkFixtureCommand, sdkText } from "./_interop.ts";
import { sdkV1HttpServer } from "./_listening.ts";
import { askingGrammar, tapped } from "./_peers.ts";
import { recordingProxy } from "./_wire_proxy.ts";

/** An SDK 1.x client whose model answers "ice cream". */
function sdkClient(): SdkClient {
  const client = new SdkClient({ name: "sdk-1x-interop", version: "1.32.2" }, {
    capabilities: { sampling: {} },
  });
  client.setRequestHandler(CreateMessageRequestSchema, () => ({
    role: "assistant" as const,
    content: { type: "text" as const, text: "ice cream" },
    model: "stand-in",
    stopReason: "endTurn",
  }));
  return client;
}

Deno.test("the course's dual-era client speaks 2025-11-25 with the SDK 1.32 server, and nothing of 2026-07-28", async (t) => {
  await t.step("over stdio: its ping answered, its sampling refused", async () => {
    const lines: string[] = [];
    const client = new Client(sdkFixtureCommand("sdk_server.ts"), {
      versions: MCP_VERSIONS,
      allowed: ["echo", "ask_client"],
      transcript: (direction, line) => lines.push(`${direction} ${line}`),
    });
    try {
      await client.initialize();
      assert.equal(client.protocolVersion, "2025-11-25");
      await client.listTools();
      assert.equal(await client.callTool("echo", { text: "fudge" }), "fudge");
      const asked = JSON.parse(await client.callTool("ask_client"));
      assert.deepEqual(asked, { ping: {}, sampling: "refused with -32601" });
    } finally {
      await client.close();
    }
    assertGroupGone(client.pid);
    assert.deepEqual(eraSlips(transcriptWire(lines), "2025-11-25", "client"), []);
  });
  await t.step("over Streamable HTTP, in a session", async () => {
    await using server = await sdkV1HttpServer();
    await using proxy = recordingProxy(server.url);
    const client = new Client(proxy.url, { versions: MCP_VERSIONS, allowed: ["add"] });
    try {
      await client.initialize();
      assert.equal(client.protocolVersion, "2025-11-25");
      await client.listTools();
      assert.equal(await client.callTool("add", { a: 2, b: 3 }), "5");
    } finally {
      await client.close();
    }
    await proxy.settled();
    assert.deepEqual(eraSlips(httpWire(proxy.exchanges), "2025-11-25", "client"), []);
  });
});

Deno.test("the SDK 1.32 client is served 2025-11-25 by the course's servers of both eras, and refused by 2026-07-28 alone", async (t) => {
  await t.step("the teaching server's sampling mode, over stdio: its model asked", async () => {
    const log = await Deno.makeTempFile({ prefix: "sdk-1x-tap-" });
    const [program, ...args] = tapped(log, serverCommand("sampling", await freshLog("sdk-1x")));
    const client = sdkClient();
    try {
      await client.connect(new StdioClientTransport({ command: program, args, stderr: "ignore" }));
      const counted = await client.callTool({
        name: "word_count",
        arguments: { text: "vanilla stock needs review" },
      });
      assert.equal(sdkText(counted), "4 (the client's model said: ice cream)");
    } finally {
      await client.close();
    }
    const [connection, ...more] = tapWires(await Deno.readTextFile(log));
    await Deno.remove(log);
    assert.deepEqual(more, []);
    assertProcessGone(connection.tap);
    assertProcessGone(connection.serverPid);
    const agreed = connection.wire.find((entry) => entry.from === "server")?.message as {
      result: { protocolVersion: string };
    };
    assert.equal(agreed.result.protocolVersion, "2025-11-25");
    assert.deepEqual(eraSlips(connection.wire, "2025-11-25", "server"), []);
  });
  await t.step("serveHttp of both eras, in a session", async () => {
    await using server = serveHttp(askingGrammar());
    await using proxy = recordingProxy(server.url);
    const client = sdkClient();
    try {
      await client.connect(new StreamableHTTPClientTransport(proxy.url));
      const ate = await client.callTool({
        name: "conjugate",
        arguments: { verb: "eat", tense: "past_simple", person: "3sg" },
      });
      assert.equal(sdkText(ate), "ate");
    } finally {
      await client.close();
    }
    await proxy.settled();
    assert.ok(proxy.exchanges.some((exchange) => exchange.responseHeaders.has("mcp-session-id")));
    assert.deepEqual(eraSlips(httpWire(proxy.exchanges), "2025-11-25", "server"), []);
  });
  await t.step(
    "serveHttp of 2026-07-28 alone: refused, its versions named, no session",
    async () => {
      await using server = serveHttp(askingGrammar(["2026-07-28"]));
      await using proxy = recordingProxy(server.url);
      const client = sdkClient();
      await assert.rejects(
        client.connect(new StreamableHTTPClientTransport(proxy.url)),
        /2026-07-28/,
      );
      await client.close();
      await proxy.settled();
      assert.equal(proxy.exchanges.length, 1);
      assert.equal(proxy.exchanges[0].responseHeaders.get("mcp-session-id"), null);
      assert.deepEqual(eraSlips(httpWire(proxy.exchanges), "2026-07-28", "server"), []);
    },
  );
});

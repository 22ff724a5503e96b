// A tool result holds only the content types of the version a session agreed:
// 2024-11-05 has no audio, and 2025-03-26 no resource links. The library's
// server, in a legacy session of an older version, sends no item of a type
// that version does not define: the official Python SDK's client (mcp 2.3.0)
// offering 2024-11-05 calls the conformance fixtures' audio tool through a
// recording proxy, and the era judge (tests/_era_wire.ts, written from the
// specification's schemas) reads the wire; the course's own Client, which
// refuses such an item, gets a tool error it can read instead. A prompt holding such an item is
// refused as the server's error, which the client reads, for the same reason.

import assert from "node:assert/strict";
import { Client } from "../lib/mcp/client/client.ts";
import { serveHttp } from "../lib/mcp/server/http_server.ts";
import { ToolError } from "../lib/mcp/shared/errors.ts";
import { CONFORMANCE_SERVER } from "../servers/conformance.ts";
import { eraSlips, httpWire } from "./_era_wire.ts";
import { pythonClient, pythonInstalled } from "./_peers.ts";
import { recordingProxy } from "./_wire_proxy.ts";

const AUDIO: [string, Record<string, unknown>] = ["test_audio_content", {}];

Deno.test({
  name:
    "the Python SDK's client at 2024-11-05 is sent no audio, which that version does not define",
  ignore: !pythonInstalled,
  fn: async () => {
    await using server = serveHttp(CONFORMANCE_SERVER);
    await using proxy = recordingProxy(server.url);
    const [seen] = await pythonClient([
      { server: proxy.url.href, mode: "legacy", offer: "2024-11-05", calls: [AUDIO] },
    ]);
    assert.equal(seen.error, undefined, seen.error);
    assert.equal(seen.protocolVersion, "2024-11-05");
    await proxy.settled();
    assert.deepEqual(eraSlips(httpWire(proxy.exchanges), "2024-11-05", "server"), []);
    // What it was sent instead: the tool's failure, saying why.
    assert.equal(seen.calls![0].isError, true);
    assert.match(seen.calls![0].text, /audio.*2024-11-05/);
  },
});

Deno.test("the course's Client at 2024-11-05 gets a ToolError naming the audio, and at 2025-03-26 the audio itself", async () => {
  await using server = serveHttp(CONFORMANCE_SERVER);
  await using early = new Client(server.url, {
    versions: ["2024-11-05"],
    allowed: ["test_audio_content"],
  });
  await early.initialize();
  await early.listTools();
  await assert.rejects(early.callTool("test_audio_content", {}), (error: unknown) => {
    assert.ok(error instanceof ToolError, String(error));
    assert.match(error.message, /audio.*2024-11-05/);
    return true;
  });
  await using later = new Client(server.url, {
    versions: ["2025-03-26"],
    allowed: ["test_audio_content"],
  });
  await later.initialize();
  await later.listTools();
  const result = await later.callToolResult("test_audio_content", {});
  assert.equal(result.content[0].type, "audio");
});

/** A server with one prompt whose message holds content of `type` (a later version's). */
function promptServer(content: Record<string, unknown>) {
  return serveHttp({
    name: "prompter",
    version: "1.0.0",
    tools: [],
    prompts: [{
      name: "hear",
      get: () => ({ messages: [{ role: "user", content: content as never }] }),
    }],
  });
}

for (
  const [version, content] of [
    ["2024-11-05", { type: "audio", data: "UklGRg==", mimeType: "audio/wav" }],
    ["2025-03-26", { type: "resource_link", uri: "file:///notes.md", name: "notes" }],
  ] as const
) {
  Deno.test(`a prompt holding ${content.type} content is refused to a ${version} client, not sent`, async () => {
    await using server = promptServer(content);
    await using proxy = recordingProxy(server.url);
    await using client = new Client(proxy.url, { versions: [version] });
    await client.initialize();
    await client.listPrompts();
    await assert.rejects(client.getPrompt("hear"), new RegExp(`${content.type}.*${version}`));
    await proxy.settled();
    assert.deepEqual(eraSlips(httpWire(proxy.exchanges), version, "server"), []);
  });
}

/** A server whose tool `hear` asks the client's model about a sound (audio came with 2025-03-26). */
function samplingServer() {
  return serveHttp({
    name: "listener",
    version: "1.0.0",
    tools: [],
    sessionTools: [{
      name: "hear",
      description: "Asks the client's model what a sound says.",
      inputSchema: { type: "object" },
      run: async (_args, context) => {
        const said = await context.request("sampling/createMessage", {
          messages: [{
            role: "user",
            content: { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
          }],
          maxTokens: 8,
        }, "sound");
        return {
          content: [{ type: "text", text: String((said.content as { text: string }).text) }],
        };
      },
    }],
  });
}

Deno.test("a sampling request holding audio is not sent to a 2024-11-05 client: the tool fails, saying so", async () => {
  await using server = samplingServer();
  await using proxy = recordingProxy(server.url);
  await using client = new Client(proxy.url, {
    versions: ["2024-11-05"],
    allowed: ["hear"],
    sample: () => Promise.resolve({ text: "a bell", model: "ear", stopReason: "endTurn" }),
  });
  await client.initialize();
  await client.listTools();
  await assert.rejects(client.callTool("hear", {}), (error: unknown) => {
    assert.ok(error instanceof ToolError, String(error));
    assert.match(error.message, /audio content, which 2024-11-05 does not define/);
    return true;
  });
  await proxy.settled();
  const asked = httpWire(proxy.exchanges).filter(({ message }) =>
    (message as { method?: string } | undefined)?.method === "sampling/createMessage"
  );
  assert.deepEqual(asked, []);
});

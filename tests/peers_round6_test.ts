// Peers round 6 (issue 39): the course's client as a new user runs it
// against a server written with the TypeScript SDK's v2 package
// (fixtures/round6_sdk_peer.ts), of each era, over stdio and Streamable
// HTTP, trying what the other interop tests do not: a large result beyond
// the BMP, nested structured content under an output schema, a tool with an
// output schema that fails, resources (cache hints, a blob, a template and
// its completion), a prompt that embeds a resource, a call whose deadline
// passes (cancelled, the connection kept), and a tool list that changes.
// Every answer is checked, and so is the wire (nothing of the other era).

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { TimeoutError, ToolError } from "../lib/mcp/shared/errors.ts";
import { MCP_VERSIONS, type McpVersion } from "../lib/mcp/shared/versions.ts";
import { freePort, listeningServer } from "./_listening.ts";
import { type Server, withWire } from "./_peer_sessions.ts";
import { type PeerEra, sdkV2Peer } from "./_peers.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const TOOLS = ["big", "broken", "nested", "retire", "slow"];
const NESTED = {
  ключ: "значение",
  "名前": ["一", "二", { 深い: [1, 2.5, null, true] }],
  emoji: "🙂‍↔️",
};

/** The command of round 6's SDK v2 server of `era`: over stdio, or over HTTP on `port`. */
const round6Peer = (era: PeerEra, port?: number) => sdkV2Peer(era, port, "round6_sdk_peer.ts");

/** What a new user does with round 6's server, which agrees on `version` with a dual-era client. */
async function newUser(server: Server, version: McpVersion): Promise<void> {
  await withWire(server, MCP_VERSIONS, {
    asked: [],
    allowed: TOOLS,
    limit: 1 << 20,
  }, async (client) => {
    await client.initialize();
    assert.equal(client.protocolVersion, version);
    assert.deepEqual(Object.keys(await client.listTools()).sort(), TOOLS);
    // 200 KiB of a character beyond the BMP, in one frame under the limit.
    assert.equal(await client.callTool("big", { kb: 200 }), "🙂".repeat(200 * 256));
    if (version >= "2025-06-18") {
      const whole = await client.callToolResult("nested");
      assert.deepEqual(whole.structuredContent, NESTED);
      assert.deepEqual(whole.notes, []);
    }
    assert.deepEqual(JSON.parse(await client.callTool("nested")), NESTED);
    const broken = await client.callToolResult("broken");
    assert.equal(broken.isError, true);
    assert.equal(broken.structuredContent, undefined);
    await assert.rejects(client.callTool("broken"), ToolError);
    // Resources: listed, read (text beyond the BMP, a blob), a template filled in and completed.
    assert.deepEqual(Object.keys(await client.listResources()).sort(), [
      "blob://one",
      "hello://world",
      "note://1",
    ]);
    assert.deepEqual(Object.keys(await client.listResourceTemplates()), ["note://{id}"]);
    const [hello] = await client.readResource("hello://world");
    assert.equal((hello as { text: string }).text, "héllo 🌍");
    const [blob] = await client.readResource("blob://one");
    assert.equal((blob as { blob: string }).blob, btoa("\x00\x01\xff"));
    const [note] = await client.readResource("note://7");
    assert.equal((note as { text: string }).text, "note 7");
    const ids = await client.complete({ type: "ref/resource", uri: "note://{id}" }, {
      name: "id",
      value: "1",
    });
    assert.deepEqual(ids.values, ["1", "12"]);
    // A prompt whose message embeds a resource.
    await client.listPrompts();
    const review = await client.getPrompt("review", { code: "let ü = '🙂';" });
    assert.deepEqual(review.messages.map((message) => message.content), [{
      type: "resource",
      resource: { uri: "file:///code.ts", mimeType: "text/typescript", text: "let ü = '🙂';" },
    }]);
    // The tool list changes: listed again, the retired tool is gone, and is refused before sending.
    assert.equal(await client.callTool("retire"), "retired");
    assert.deepEqual(Object.keys(await client.listTools()).sort(), [
      "big",
      "broken",
      "retire",
      "slow",
    ]);
    await assert.rejects(client.callTool("nested"), /nested/);
  }, version);
}

/** A call whose deadline passes is cancelled and fails alone; the next call is answered. */
async function cancelled(server: Server, version: McpVersion): Promise<void> {
  await withWire(server, MCP_VERSIONS, {
    asked: [],
    allowed: TOOLS,
    timeoutMs: 3_000,
  }, async (client) => {
    await client.initialize({ timeoutMs: 60_000 });
    assert.equal(client.protocolVersion, version);
    await client.listTools();
    await assert.rejects(client.callTool("slow", { ms: 600_000 }), TimeoutError);
    assert.equal(await client.callTool("slow", { ms: 0 }), "slept 0");
  }, version);
}

const ERAS: [PeerEra, McpVersion][] = [
  ["dual", "2026-07-28"],
  ["modern", "2026-07-28"],
  ["2025-11-25", "2025-11-25"],
  ["2025-06-18", "2025-06-18"],
  ["2025-03-26", "2025-03-26"],
  ["2024-11-05", "2024-11-05"],
];

Deno.test("a new user of the course's client with round 6's SDK v2 server over stdio", async (t) => {
  for (const [era, version] of ERAS) {
    await t.step(`${era}: ${version}`, () => newUser(round6Peer(era), version));
    await t.step(`${era}: a call past its deadline`, () => cancelled(round6Peer(era), version));
  }
});

Deno.test("a new user of the course's client with round 6's SDK v2 server over Streamable HTTP", async (t) => {
  for (const [era, version] of ERAS) {
    const port = freePort();
    await using server = await listeningServer(round6Peer(era, port), port);
    await t.step(`${era}: ${version}`, () => newUser(server.url, version));
    await t.step(`${era}: a call past its deadline`, () => cancelled(server.url, version));
  }
});

/** The command of round 6's hand-written server of `era` (`modern` or `legacy`). */
function rawPeer(era: "modern" | "legacy"): string[] {
  return [Deno.execPath(), "run", "--quiet", `${root}tests/fixtures/round6_raw_peer.ts`, era];
}

for (const [era, version] of [["modern", "2026-07-28"], ["legacy", "2025-11-25"]] as const) {
  Deno.test(`every unusual but valid message of a ${era} server is taken, and answered right`, async () => {
    await withWire(rawPeer(era), MCP_VERSIONS, {
      asked: [],
      allowed: ["echo", "ask", "list"],
    }, async (client) => {
      await client.initialize();
      assert.equal(client.protocolVersion, version);
      // Three pages, their cursors not ASCII, one of them holding a NUL.
      assert.deepEqual(Object.keys(await client.listTools()), ["echo", "ask", "list"]);
      assert.equal(await client.callTool("echo", { text: "ünï 🙂\u2028" }), "ünï 🙂\u2028");
      const whole = await client.callToolResult("echo", { text: "x" });
      assert.deepEqual(whole._meta, {
        "example.com/trace": "ü-1",
        "example.com/numbers": [1, 2.5, null],
      });
      const listed = await client.callToolResult("list");
      assert.deepEqual(
        listed.structuredContent,
        era === "modern" ? ["一", "🙂"] : { items: ["一", "🙂"] },
      );
      assert.equal(await client.callTool("ask"), era === "modern" ? "Ada (echoed)" : "Ada (pong)");
    }, version);
  });
}

// Peers round 6 (issue 39): the course's client as a new user runs it
// against a server written with the TypeScript SDK's v2 package
// (fixtures/round6_sdk_peer.ts), of each era, over stdio and Streamable
// HTTP, trying what the other interop tests do not: a large result beyond
// the BMP, nested structured content under an output schema, a tool with an
// output schema that fails, resources (cache hints, a blob, a template and
// its completion), a prompt that embeds a resource, a call whose deadline
// passes (cancelled, the connection kept), and a tool list that changes.
// Every answer is checked, and so is the wire (nothing of the other era).

import { Client as SdkClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "../lib/mcp/client/client.ts";
import { ProtocolError, TimeoutError, ToolError } from "../lib/mcp/shared/errors.ts";
import {
  LEGACY_VERSIONS,
  MCP_VERSIONS,
  type McpVersion,
  MODERN_VERSIONS,
} from "../lib/mcp/shared/versions.ts";
import { serveHttp } from "../lib/mcp/server/http_server.ts";
import type { SessionSpec } from "../lib/mcp/server/session_spec.ts";
import { eraSlips, httpWire } from "./_era_wire.ts";
import { freePort, listeningServer } from "./_listening.ts";
import { type Server, withWire } from "./_peer_sessions.ts";
import { type PeerEra, sdkV2Peer } from "./_peers.ts";
import { recordingProxy } from "./_wire_proxy.ts";

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

/** A library of resources, a template and a prompt, a page per item, cached for a minute: the course's server. */
const LIBRARY: SessionSpec = {
  name: "round6-library",
  version: "1.0.0",
  pageSize: 1,
  cache: { ttlMs: 60_000, cacheScope: "public" },
  resources: [
    {
      uri: "library://rules",
      name: "rules",
      mimeType: "text/plain",
      read: () => ({ text: "Hüsh 🤫" }),
    },
    { uri: "library://logo", name: "logo", mimeType: "image/png", read: () => ({ bytes: LOGO }) },
  ],
  resourceTemplates: [{
    uriTemplate: "library://books/{id}",
    name: "book",
    mimeType: "text/plain",
    read: ({ id }) => (id === "1" ? { text: "Middlemarch" } : undefined),
  }],
  prompts: [{
    name: "summarize",
    description: "Summarize a book",
    arguments: [{ name: "book", required: true }],
    get: ({ book }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Résumé of ${book} 📚` } }],
    }),
  }, {
    name: "recite",
    arguments: [],
    get: () => ({ messages: [{ role: "assistant", content: { type: "text", text: "…" } }] }),
  }],
};
const LOGO = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255]);

/** Every item of the SDK client's list `list`, page after page. */
async function everyPage<T>(
  list: (params: { cursor?: string }) => Promise<{ nextCursor?: string } & Record<string, unknown>>,
  field: string,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor === undefined ? {} : { cursor });
    items.push(...page[field] as T[]);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return items;
}

Deno.test("the SDK v2 client of each era reads the course's resources and prompts, a page at a time, over HTTP", async (t) => {
  await using server = serveHttp(LIBRARY);
  for (
    const [mode, version] of [
      ["pin", "2026-07-28"],
      ["legacy", "2025-11-25"],
      ["2024-11-05", "2024-11-05"],
    ] as const
  ) {
    await t.step({
      name: `${mode}: ${version}`,
      fn: async () => {
        await using proxy = recordingProxy(server.url);
        const client = new SdkClient({ name: "round6", version: "2.4.0" }, {
          ...(mode === "pin" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
          ...(mode.startsWith("20") ? { supportedProtocolVersions: [mode] } : {}),
        });
        try {
          await client.connect(new StreamableHTTPClientTransport(proxy.url));
          assert.equal(client.getNegotiatedProtocolVersion(), version);
          const resources = await everyPage<{ uri: string }>(
            (p) => client.listResources(p),
            "resources",
          );
          assert.deepEqual(resources.map((resource) => resource.uri), [
            "library://rules",
            "library://logo",
          ]);
          const templates = await everyPage<{ uriTemplate: string }>(
            (p) => client.listResourceTemplates(p),
            "resourceTemplates",
          );
          assert.deepEqual(templates.map((template) => template.uriTemplate), [
            "library://books/{id}",
          ]);
          const rules = await client.readResource({ uri: "library://rules" });
          assert.deepEqual(rules.contents.map((c) => "text" in c ? c.text : undefined), [
            "Hüsh 🤫",
          ]);
          const logo = await client.readResource({ uri: "library://logo" });
          assert.deepEqual(logo.contents.map((c) => "blob" in c ? c.blob : undefined), [
            btoa(String.fromCharCode(...LOGO)),
          ]);
          const book = await client.readResource({ uri: "library://books/1" });
          assert.deepEqual(book.contents.map((c) => "text" in c ? c.text : undefined), [
            "Middlemarch",
          ]);
          // A resource that is not there: -32602 at 2026-07-28, -32002 before, as each version says
          // (the SDK's client takes either for the other; the wire tells them apart).
          await assert.rejects(
            client.readResource({ uri: "library://books/2" }),
            /Resource not found/,
          );
          // (The proxy records what it passes on before passing it: the refusal is in its record.)
          const read = proxy.exchanges.find((exchange) =>
            exchange.requestBody.includes("books/2")
          )!;
          const missing = JSON.parse(read.responseBody);
          assert.equal(missing.error.code, version === "2026-07-28" ? -32602 : -32002);
          const prompts = await everyPage<{ name: string }>(
            (p) => client.listPrompts(p),
            "prompts",
          );
          assert.deepEqual(prompts.map((prompt) => prompt.name), ["summarize", "recite"]);
          const summary = await client.getPrompt({
            name: "summarize",
            arguments: { book: "Middlemarch" },
          });
          assert.deepEqual(summary.messages[0].content, {
            type: "text",
            text: "Résumé of Middlemarch 📚",
          });
        } finally {
          await client.close();
        }
        await proxy.settled();
        assert.deepEqual(eraSlips(httpWire(proxy.exchanges), version, "server"), []);
      },
    });
  }
});

Deno.test("the course's HTTP server names a resource not found as each version does: -32002 in a handshake session, -32602 at 2026-07-28", async () => {
  await using server = serveHttp(LIBRARY);
  for (const [versions, code] of [[LEGACY_VERSIONS, -32002], [MODERN_VERSIONS, -32602]] as const) {
    await using client = new Client(server.url, { versions });
    await client.initialize();
    await assert.rejects(
      client.readResource("library://books/2"),
      (error: ProtocolError) => error.code === code && /Resource not found/.test(error.message),
    );
  }
});

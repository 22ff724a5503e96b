// MCP's legacy versions negotiated as real peers do: the client's handshake
// offers the newest (2025-11-25) and goes on with any version it speaks; a
// server answers with the client's version when it speaks it; what differs
// between versions (structured content, titles, the MCP-Protocol-Version
// header, how arguments that break a tool's schema are refused) follows the
// version agreed, and a result the agreed version does not define is refused,
// or, where that version allows other keys, left aside. (The modern era,
// 2026-07-28, is eras_test.ts's; it is here only beside the others where
// every version is compared.)

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "../lib/mcp/client/client.ts";
import { Connection } from "../lib/mcp/client/connection.ts";
import { HttpTransport } from "../lib/mcp/client/http_transport.ts";
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { withRequestMeta } from "../lib/mcp/shared/meta.ts";
import { LEGACY_VERSIONS, MCP_VERSIONS, type McpVersion } from "../lib/mcp/shared/versions.ts";
import { serveHttp } from "../lib/mcp/server/http_server.ts";
import type { SessionSpec } from "../lib/mcp/server/session_spec.ts";
import { WORD_COUNT } from "../servers/teaching.ts";
import { rawHttpServer, recordingProxy } from "./_raw_http.ts";

const GRAMMAR = fileURLToPath(new URL("../servers/grammar.ts", import.meta.url));
const deno = (path: string, ...args: string[]) => [
  Deno.execPath(),
  "run",
  "--quiet",
  fileURLToPath(new URL(path, import.meta.url)),
  ...args,
];

/** A server of `count`, whose result carries structured content, and whose tool has a title. */
const SPEC: SessionSpec = {
  name: "versions",
  version: "1.0.0",
  tools: [],
  sessionTools: [{
    name: "count",
    description: "Count the words in a text.",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    run: ({ text }) => {
      const n = String(text).split(/\s+/).filter(Boolean).length;
      return Promise.resolve({
        content: [{ type: "text", text: String(n) }],
        structuredContent: { n },
      });
    },
  }],
};

/** Send `lines` to a stdio server's stdin, close it, and read every line it answered. */
async function stdio(command: string[], lines: object[]): Promise<Record<string, unknown>[]> {
  const child = new Deno.Command(command[0], {
    args: command.slice(1),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(lines.map((l) => JSON.stringify(l) + "\n").join("")));
  await writer.close();
  const { stdout } = await child.output();
  return new TextDecoder().decode(stdout).trim().split("\n").map((line) => JSON.parse(line));
}

const initialize = (protocolVersion: string) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "seed", version: "1" } },
});

Deno.test("the grammar server answers a 2024-11-05 initialize over stdio with 2024-11-05", async () => {
  const [reply] = await stdio([Deno.execPath(), "run", "--quiet", GRAMMAR], [
    initialize("2024-11-05"),
  ]);
  assert.equal((reply.result as { protocolVersion: string }).protocolVersion, "2024-11-05");
});

Deno.test("the teaching server answers a 2024-11-05 initialize over stdio with 2024-11-05", async () => {
  const { freshLog, serverCommand } = await import("../lib/course/course.ts");
  const command = serverCommand("normal", await freshLog("test-versions"));
  const [reply] = await stdio(command, [initialize("2024-11-05")]);
  assert.equal((reply.result as { protocolVersion: string }).protocolVersion, "2024-11-05");
});

Deno.test("the client offers 2025-11-25, and goes on with the grammar server's 2025-06-18", async () => {
  const wire: string[] = [];
  await using client = new Client([Deno.execPath(), "run", "--quiet", GRAMMAR], {
    allowed: ["conjugate"],
    transcript: (_direction, line) => void wire.push(line),
  });
  const result = await client.initialize();
  assert.equal(JSON.parse(wire[0]).params.protocolVersion, "2025-11-25");
  assert.equal(result.protocolVersion, "2025-06-18");
  await client.listTools();
  const args = { verb: "eat", tense: "past_simple", person: "3sg" };
  assert.equal(await client.callTool("conjugate", args), "ate");
});

for (const version of LEGACY_VERSIONS) {
  Deno.test(`the library's HTTP server answers a ${version} client with ${version}`, async () => {
    await using server = serveHttp(SPEC);
    await using connection = new Connection(new HttpTransport(server.url));
    const result = await connection.request("initialize", initialize(version).params, {
      cancellable: false,
    });
    assert.equal(result.protocolVersion, version);
  });
}

Deno.test("the library's HTTP server answers a version it does not speak with its newest", async () => {
  await using server = serveHttp(SPEC);
  await using connection = new Connection(new HttpTransport(server.url));
  const result = await connection.request("initialize", initialize("2024-10-07").params, {
    cancellable: false,
  });
  assert.equal(result.protocolVersion, "2025-11-25");
});

/** A server that speaks only `version`, over HTTP; the headers of each request it received. */
function onlyVersion(version: string) {
  const server = serveHttp({ ...SPEC, versions: [version] });
  const proxy = recordingProxy(server.url, { close: () => server.close() });
  return {
    ...proxy,
    get headers() {
      return proxy.seen.map((passed) => passed.headers.get("mcp-protocol-version"));
    },
  };
}

Deno.test("the client completes a call with a server that answers 2024-11-05, and follows that version", async () => {
  await using server = onlyVersion("2024-11-05");
  await using client = new Client(server.url, { allowed: ["count"] });
  assert.equal((await client.initialize()).protocolVersion, "2024-11-05");
  await client.listTools();
  // The server leaves out what 2024-11-05 does not define; the whole result is taken.
  const whole = await client.callToolResult("count", { text: "vanilla stock needs review" });
  assert.deepEqual(whole.content, [{ type: "text", text: "4" }]);
  assert.equal(whole.structuredContent, undefined);
  // The MCP-Protocol-Version header came with 2025-06-18: none was sent.
  assert.deepEqual(new Set(server.headers), new Set([null]));
});

Deno.test("in a 2025-06-18 session the header is sent, and structured content arrives", async () => {
  await using server = onlyVersion("2025-06-18");
  await using client = new Client(server.url, { allowed: ["count"] });
  await client.initialize();
  await client.listTools();
  const whole = await client.callToolResult("count", { text: "one two three" });
  assert.deepEqual(whole.structuredContent, { n: 3 });
  assert.equal(server.headers[0], null); // initialize, before any version is agreed
  assert.ok(server.headers.slice(1).every((header) => header === "2025-06-18"));
});

/** A raw server that speaks `version` and answers every tool call with `result`. */
function rawServer(version: string, result: object) {
  const tools = { tools: [{ name: "t", inputSchema: { type: "object" } }] };
  return rawHttpServer(version, { "tools/list": tools, "tools/call": result });
}

const REFUSED: [string, string, object, RegExp][] = [
  ["an audio item", "2024-11-05", {
    content: [{ type: "audio", data: "AAAA", mimeType: "audio/wav" }],
  }, /the type audio, which 2024-11-05 does not define/],
  ["a resource link", "2025-03-26", {
    content: [{ type: "resource_link", uri: "file:///a", name: "a" }],
  }, /the type resource_link, which 2025-03-26 does not define/],
];

for (const [what, version, result, message] of REFUSED) {
  Deno.test(`the client refuses ${what} in a ${version} session`, async () => {
    await using server = rawServer(version, result);
    await using client = new Client(server.url, { allowed: ["t"] });
    await client.initialize();
    await client.listTools();
    await assert.rejects(client.callToolResult("t"), (error) => {
      assert.ok(error instanceof ProtocolError, String(error));
      assert.match(error.message, message);
      return true;
    });
  });
}

for (const version of ["2024-11-05", "2025-03-26"]) {
  Deno.test(`in a ${version} session a text result that also carries structuredContent is taken, and the session kept`, async () => {
    // Those versions define no structuredContent, and their results allow keys besides content:
    // it is a key the client does not know, not a reason to refuse the result or the session.
    await using server = rawServer(version, {
      content: [{ type: "text", text: "4" }],
      structuredContent: { n: 4 },
    });
    await using client = new Client(server.url, { allowed: ["t"] });
    await client.initialize();
    await client.listTools();
    assert.equal(await client.callTool("t"), "4");
    const whole = await client.callToolResult("t");
    assert.deepEqual(whole.content, [{ type: "text", text: "4" }]);
    assert.equal(whole.structuredContent, undefined);
    assert.equal(await client.callTool("t"), "4");
  });
}

/**
 * What the server at `server` answers a `tools/call` with `params` at
 * `version`, as a client of that version sends it: after the handshake, or
 * (2026-07-28) with its `_meta`. The result, or the error reply's code and data.
 */
async function callAt(server: string[] | URL, version: McpVersion, params: JsonObject) {
  await using connection = new Connection(
    server instanceof URL ? new HttpTransport(server) : server,
  );
  let sent = withRequestMeta(params, { protocolVersion: version, clientCapabilities: {} });
  if (LEGACY_VERSIONS.includes(version)) {
    await connection.request("initialize", initialize(version).params, { cancellable: false });
    connection.version = version;
    connection.notify("notifications/initialized");
    sent = params;
  }
  try {
    return { result: await connection.request("tools/call", sent) };
  } catch (error) {
    if (!(error instanceof ProtocolError) || error.code === undefined) throw error;
    return { error: { code: error.code, data: error.data } };
  }
}

// The tools page: "Invalid arguments" are a protocol error up to 2025-06-18; from 2025-11-25,
// "Input validation errors" are a tool execution error, a result a model can read and correct.
// Arguments that are no object break CallToolRequest's own schema: a protocol error in every version.
const TOOL_ERROR_FROM = ["2025-11-25", "2026-07-28"];

for (const transport of ["stdio", "http"]) {
  Deno.test(`over ${transport}, arguments that break a tool's schema are -32602 up to 2025-06-18, and the tool's failure from 2025-11-25`, async () => {
    await using http = serveHttp({ ...SPEC, tools: [WORD_COUNT] });
    // A plain tool (word_count) and one that runs with a context (echo over stdio, count over HTTP).
    const [plain, withContext, name] = transport === "stdio"
      ? [deno("../bench/servers/stdio_word_count.ts"), deno("./fixtures/modern_peer.ts"), "echo"]
      : [http.url, http.url, "count"];
    const cases: [string[] | URL, string, unknown, string][] = [
      [plain, "word_count", { words: "a b" }, "missing text; unexpected words"],
      [plain, "word_count", "a b", "arguments must be object"],
      [
        withContext,
        name,
        name === "echo" ? {} : { text: 4 },
        name === "echo" ? "missing text" : "text must be string",
      ],
      [withContext, name, null, "arguments must be object"],
    ];
    for (const version of MCP_VERSIONS) {
      for (const [server, tool, args, problems] of cases) {
        const reply = await callAt(server, version, { name: tool, arguments: args as JsonObject });
        const said = `${version}, ${tool} ${JSON.stringify(args)}: ${JSON.stringify(reply)}`;
        if (TOOL_ERROR_FROM.includes(version) && problems !== "arguments must be object") {
          const { content, isError } = (reply.result ?? {}) as JsonObject;
          const text = `Invalid arguments for ${tool}: ${problems}`;
          assert.deepEqual([isError, content], [true, [{ type: "text", text }]], said);
        } else {
          assert.deepEqual(reply.error, { code: -32602, data: problems.split("; ") }, said);
        }
      }
    }
  });
}

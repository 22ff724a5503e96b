// Real peers of both eras, both ways (issue 39, item 3): the TypeScript SDK's
// v2 packages (`@modelcontextprotocol/client` and `/server` 2.4.0, dual-era),
// its 1.x line (`@modelcontextprotocol/sdk` 1.32.2, legacy), the Python SDK
// (`mcp` 2.3.0, dual-era) and FastMCP 4.2.3, against the course's client and
// the library's servers, over stdio and Streamable HTTP: each pair speaks the
// newest version both speak, negotiated as each peer negotiates it, and the
// calls are answered alike in both eras.

import { Client as SdkV2Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport as SdkV2StdioTransport } from "@modelcontextprotocol/client/stdio";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client as SdkV1Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport as SdkV1StdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "../lib/mcp/client/client.ts";
import { ToolError } from "../lib/mcp/shared/errors.ts";
import { MCP_VERSIONS } from "../lib/mcp/shared/versions.ts";
import { serveHttp } from "../lib/mcp/server/http_server.ts";
import { WORD_COUNT } from "../servers/teaching.ts";
import { sdkFixtureCommand } from "./_interop.ts";
import { freePort, listeningServer, sdkV1HttpServer } from "./_listening.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const PYTHON = `${root}tools/interop/.venv/bin/python`;
const python = await Deno.stat(PYTHON).then(() => true, () => false);
const deno = (script: string, ...args: string[]) => [
  Deno.execPath(),
  "run",
  "--quiet",
  `${root}${script}`,
  ...args,
];
/** The library's dual-era stdio server of `word_count`. */
const LIBRARY_STDIO = deno("bench/servers/stdio_word_count.ts");
/** The course's legacy grammar server. */
const GRAMMAR = deno("servers/grammar.ts");
const WORDS = "vanilla stock needs review";

const text = (result: unknown) =>
  (result as { content: { type: string; text: string }[] }).content
    .filter((item) => item.type === "text").map((item) => item.text).join("\n");

Deno.test("the SDK v2 client (auto) speaks 2026-07-28 with the library's stdio server, and the handshake with the legacy grammar server", async () => {
  for (
    const [command, era, call] of [
      [LIBRARY_STDIO, "modern", { name: "word_count", arguments: { text: WORDS } }],
      [GRAMMAR, "legacy", {
        name: "conjugate",
        arguments: { verb: "eat", tense: "past_simple", person: "3sg" },
      }],
    ] as const
  ) {
    const client = new SdkV2Client({ name: "interop", version: "1.0.0" }, {
      versionNegotiation: { mode: "auto" },
    });
    await client.connect(new SdkV2StdioTransport({ command: command[0], args: command.slice(1) }));
    try {
      assert.equal(client.getProtocolEra(), era);
      assert.equal(text(await client.callTool(call)), era === "modern" ? "4" : "ate");
    } finally {
      await client.close();
    }
  }
});

Deno.test("the SDK v2 client (auto) speaks 2026-07-28 with the library's HTTP server", async () => {
  await using server = serveHttp({ name: "library", version: "1.0.0", tools: [WORD_COUNT] });
  const client = new SdkV2Client({ name: "interop", version: "1.0.0" }, {
    versionNegotiation: { mode: "auto" },
  });
  await client.connect(new StreamableHTTPClientTransport(server.url));
  try {
    assert.equal(client.getProtocolEra(), "modern");
    const result = await client.callTool({ name: "word_count", arguments: { text: WORDS } });
    assert.equal(text(result), "4");
  } finally {
    await client.close();
  }
});

/** The course's client of `server`, speaking `versions`; it calls echo and divide. */
async function echoAndDivide(server: string[] | URL, versions?: typeof MCP_VERSIONS) {
  await using client = new Client(server as string[], {
    versions,
    allowed: ["echo", "divide"],
    timeoutMs: 30_000,
  });
  await client.initialize();
  await client.listTools();
  assert.equal(await client.callTool("echo", { text: "mint" }), "mint");
  await assert.rejects(client.callTool("divide", { a: 1, b: 0 }), ToolError);
  return client.protocolVersion;
}

Deno.test("the course's client speaks 2026-07-28 with the SDK v2 server over stdio and HTTP, and 2025-11-25 when it speaks legacy versions only", async () => {
  const stdio = sdkFixtureCommand("sdk_v2_server.ts");
  stdio.splice(2, 0, "--allow-env");
  assert.equal(await echoAndDivide(stdio, MCP_VERSIONS), "2026-07-28");
  assert.equal(await echoAndDivide(stdio), "2025-11-25");
  const port = freePort();
  const http = sdkFixtureCommand("sdk_v2_server.ts", "http", String(port));
  http.splice(2, 0, "--allow-net=127.0.0.1", "--allow-env");
  await using server = await listeningServer(http, port);
  assert.equal(await echoAndDivide(server.url, MCP_VERSIONS), "2026-07-28");
  assert.equal(await echoAndDivide(server.url), "2025-11-25");
});

Deno.test("the course's dual-era client falls back to the handshake with the SDK 1.32 server, over stdio and HTTP", async () => {
  {
    await using client = new Client(sdkFixtureCommand("sdk_server.ts"), {
      versions: MCP_VERSIONS,
      allowed: ["echo"],
    });
    await client.initialize();
    assert.equal(client.protocolVersion, "2025-11-25");
    await client.listTools();
    assert.equal(await client.callTool("echo", { text: "fudge" }), "fudge");
  }
  await using server = await sdkV1HttpServer();
  await using client = new Client(server.url, { versions: MCP_VERSIONS, allowed: ["add"] });
  await client.initialize();
  assert.equal(client.protocolVersion, "2025-11-25");
  await client.listTools();
  assert.equal(await client.callTool("add", { a: 2, b: 3 }), "5");
});

Deno.test("the SDK 1.32 client, which knows only the handshake, is served by the library's dual-era server", async () => {
  const client = new SdkV1Client({ name: "interop-v1", version: "1.0.0" });
  await client.connect(
    new SdkV1StdioTransport({ command: LIBRARY_STDIO[0], args: LIBRARY_STDIO.slice(1) }),
  );
  try {
    assert.equal(client.getServerVersion()?.name, "stdio-word-count");
    const result = await client.callTool({ name: "word_count", arguments: { text: WORDS } });
    assert.equal(text(result), "4");
  } finally {
    await client.close();
  }
});

/** The Python SDK's client (mcp 2.3.0, its default 'auto') against `server`; what it saw. */
async function pythonClient(server: string, tool: string, args: object) {
  const { code, stdout, stderr } = await new Deno.Command(PYTHON, {
    args: [`${root}tests/fixtures/python_sdk_client.py`, server, tool, JSON.stringify(args)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return JSON.parse(new TextDecoder().decode(stdout));
}

Deno.test({
  name:
    "the Python SDK's client speaks 2026-07-28 with the library's servers over stdio and HTTP, and the handshake with the grammar server",
  ignore: !python,
  fn: async () => {
    const stdio = await pythonClient(JSON.stringify(LIBRARY_STDIO), "word_count", { text: WORDS });
    assert.deepEqual([stdio.protocolVersion, stdio.text], ["2026-07-28", ["4"]]);
    await using server = serveHttp({ name: "library", version: "1.0.0", tools: [WORD_COUNT] });
    const http = await pythonClient(server.url.href, "word_count", { text: WORDS });
    assert.deepEqual([http.protocolVersion, http.text], ["2026-07-28", ["4"]]);
    const args = { verb: "eat", tense: "past_simple", person: "3sg" };
    const legacy = await pythonClient(JSON.stringify(GRAMMAR), "conjugate", args);
    assert.deepEqual([legacy.protocolVersion, legacy.text], ["2025-06-18", ["ate"]]);
  },
});

Deno.test({
  name:
    "the course's dual-era client speaks 2026-07-28 with a FastMCP 4.2.3 server over stdio and HTTP",
  ignore: !python,
  fn: async () => {
    const fastmcp = [PYTHON, `${root}tests/fixtures/fastmcp_server.py`];
    const speak = async (server: string[] | URL) => {
      await using client = new Client(server as string[], {
        versions: MCP_VERSIONS,
        allowed: ["word_count", "refuse"],
        timeoutMs: 60_000,
      });
      await client.initialize();
      await client.listTools();
      assert.equal(await client.callTool("word_count", { text: WORDS }), "4");
      await assert.rejects(client.callTool("refuse", { reason: "out of vanilla" }), ToolError);
      return client.protocolVersion;
    };
    assert.equal(await speak(fastmcp), "2026-07-28");
    const port = freePort();
    await using server = await listeningServer([...fastmcp, "http", String(port)], port);
    assert.equal(await speak(server.url), "2026-07-28");
  },
});

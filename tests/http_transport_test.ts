// Streamable HTTP (MCP 2025-06-18) both ways: the course's client and server
// with each other, and each with the official SDK's other half; the server's
// refusals (another Origin, a forged or expired session, a body past its
// bound), each followed by a request that is still served; and a stream that
// drops before its reply, resumed from its last event.
//
// The SDK's package gives its types at paths that do not exist, so each
// import names its types with `@ts-types` (the path without `.js`).

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import assert from "node:assert/strict";
import { Client } from "../lib/mcp/client/client.ts";
import { Connection } from "../lib/mcp/client/connection.ts";
import { HttpTransport } from "../lib/mcp/client/http_transport.ts";
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
import { sseEvent } from "../lib/mcp/shared/sse.ts";
import { serveHttp } from "../lib/mcp/server/http_server.ts";
import type { SessionSpec } from "../lib/mcp/server/session_spec.ts";
import { sdkV1HttpServer } from "./_listening.ts";

/** A small server: `word_count` (a plain tool) and `count_slowly` (progress, then its answer). */
const SPEC: SessionSpec = {
  name: "http-test",
  version: "1.0.0",
  tools: [{
    name: "word_count",
    description: "Count the words in a text.",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
      additionalProperties: false,
    },
    call: ({ text }) => ({ text: String(String(text).split(/\s+/).filter(Boolean).length) }),
  }],
  sessionTools: [{
    name: "count_slowly",
    description: "Report progress three times, then answer 3.",
    inputSchema: { type: "object", properties: {} },
    run: async (_args, context) => {
      for (const step of [1, 2, 3]) {
        context.progress(step, 3);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return { content: [{ type: "text", text: "3" }], isError: false };
    },
  }],
};

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
};

const POST_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** POST `message` to `url` with `headers` besides the usual ones. */
function post(url: URL, message: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { ...POST_HEADERS, ...headers },
    body: typeof message === "string" ? message : JSON.stringify(message),
  });
}

/** Open a session on `url`; its id. */
async function openSession(url: URL): Promise<string> {
  const response = await post(url, INITIALIZE);
  await response.body?.cancel();
  assert.equal(response.status, 200);
  return response.headers.get("mcp-session-id")!;
}

/** `url` still serves: a new session, and a ping in it. */
async function assertServing(url: URL): Promise<void> {
  const session = await openSession(url);
  const pong = await post(url, { jsonrpc: "2.0", id: 2, method: "ping" }, {
    "mcp-session-id": session,
    "mcp-protocol-version": "2025-06-18",
  });
  assert.deepEqual(await pong.json(), { jsonrpc: "2.0", id: 2, result: {} });
}

Deno.test("the course's client calls the course's HTTP server, and DELETEs its session at close", async () => {
  await using server = serveHttp(SPEC);
  const client = new Client(server.url, { allowed: ["word_count", "count_slowly"] });
  await client.initialize();
  assert.deepEqual(Object.keys(await client.listTools()).sort(), ["count_slowly", "word_count"]);
  assert.equal(await client.callTool("word_count", { text: "vanilla stock needs review" }), "4");
  // Progress comes first on the request's event stream; the reply ends it.
  assert.equal(await client.callTool("count_slowly"), "3");
  assert.equal(server.sessions, 1);
  const ended = await client.close();
  assert.equal(ended.deleted, 200);
  assert.match(ended.sessionId!, /^[0-9a-f-]{36}$/);
  assert.equal(server.sessions, 0);
});

Deno.test("requests queued on one HTTP connection each get their own reply", async () => {
  await using server = serveHttp(SPEC);
  await using connection = new Connection(new HttpTransport(server.url));
  await connection.request("initialize", INITIALIZE.params, { cancellable: false });
  const texts = ["one", "one two", "one two three"];
  const results = await Promise.all(
    texts.map((text) =>
      connection.request("tools/call", { name: "word_count", arguments: { text } })
    ),
  );
  assert.deepEqual(results.map((r) => (r.content as { text: string }[])[0].text), ["1", "2", "3"]);
});

Deno.test("the SDK's StreamableHTTPClientTransport talks to the course's HTTP server", async () => {
  await using server = serveHttp(SPEC);
  const client = new SdkClient({ name: "sdk-http-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(server.url));
  try {
    assert.deepEqual(client.getServerVersion(), { name: "http-test", version: "1.0.0" });
    assert.deepEqual(await client.ping(), {});
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ["count_slowly", "word_count"]);
    const counted = await client.callTool({ name: "word_count", arguments: { text: "a b c" } });
    assert.deepEqual(counted.content, [{ type: "text", text: "3" }]);
    const progress: number[] = [];
    const slow = await client.callTool({ name: "count_slowly", arguments: {} }, undefined, {
      onprogress: ({ progress: step }) => void progress.push(step),
    });
    assert.deepEqual(slow.content, [{ type: "text", text: "3" }]);
    assert.deepEqual(progress, [1, 2, 3]);
  } finally {
    await client.close();
  }
});

Deno.test("the course's client talks to a server on the SDK's StreamableHTTPServerTransport", async () => {
  await using server = await sdkV1HttpServer();
  const client = new Client(server.url, { allowed: ["add"] });
  const result = await client.initialize();
  assert.deepEqual(result.serverInfo, { name: "sdk-http", version: "1.0.0" });
  await client.listTools();
  assert.equal(await client.callTool("add", { a: 2, b: 3 }), "5");
  const ended = await client.close();
  assert.equal(ended.deleted, 200);
  assert.equal(ended.sessionId, server.transport.sessionId);
});

Deno.test("a request from another Origin is refused with 403, and the server serves on", async () => {
  await using server = serveHttp(SPEC);
  const refused = await post(server.url, INITIALIZE, { origin: "http://rebinding.example" });
  assert.equal(refused.status, 403);
  assert.match((await refused.json()).error.message, /origin http:\/\/rebinding\.example/);
  const own = await post(server.url, INITIALIZE, { origin: server.url.origin });
  await own.body?.cancel();
  assert.equal(own.status, 200);
  await assertServing(server.url);
});

Deno.test("a forged session id gets 404, a missing one 400, and the server serves on", async () => {
  await using server = serveHttp(SPEC);
  await openSession(server.url);
  const forged = await post(server.url, { jsonrpc: "2.0", id: 2, method: "ping" }, {
    "mcp-session-id": crypto.randomUUID(),
  });
  assert.equal(forged.status, 404);
  await forged.body?.cancel();
  const missing = await post(server.url, { jsonrpc: "2.0", id: 2, method: "ping" });
  assert.equal(missing.status, 400);
  await missing.body?.cancel();
  await assertServing(server.url);
});

Deno.test("an expired session gets 404, the client says the session ended, and the server serves on", async () => {
  await using server = serveHttp(SPEC, { sessionTtlMs: 50 });
  const client = new Client(server.url, { allowed: ["word_count"], timeoutMs: 2000 });
  try {
    await client.initialize();
    await new Promise((resolve) => setTimeout(resolve, 120));
    await assert.rejects(client.listTools(), (error) => {
      assert.ok(error instanceof ProtocolError);
      assert.match(error.message, /has ended session .* \(404 Not Found\)/);
      return true;
    });
  } finally {
    await client.close();
  }
  await assertServing(server.url);
});

Deno.test("a body past the bound gets 413 and is not read whole, and the server serves on", async () => {
  await using server = serveHttp(SPEC, { maxBodyBytes: 1024 });
  const session = await openSession(server.url);
  const big = {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "word_count", arguments: { text: "word ".repeat(1000) } },
  };
  const declared = await post(server.url, big, { "mcp-session-id": session });
  assert.equal(declared.status, 413);
  await declared.body?.cancel();
  // Without a Content-Length, the bound holds while the body is read.
  const chunks = ReadableStream.from([new TextEncoder().encode(JSON.stringify(big))]);
  const streamed = await fetch(server.url, {
    method: "POST",
    headers: { ...POST_HEADERS, "mcp-session-id": session },
    body: chunks,
  });
  assert.equal(streamed.status, 413);
  await streamed.body?.cancel();
  await assertServing(server.url);
});

Deno.test("the course's HTTP server answers what is not MCP over HTTP with the right status", async () => {
  await using server = serveHttp(SPEC);
  const notJson = await post(server.url, "{not json");
  assert.equal(notJson.status, 400);
  assert.equal((await notJson.json()).error.code, -32700);
  const batch = await post(server.url, [INITIALIZE]);
  assert.equal(batch.status, 400);
  await batch.body?.cancel();
  const put = await fetch(server.url, { method: "PUT" });
  assert.equal(put.status, 405);
  await put.body?.cancel();
  const jsonOnly = await post(server.url, INITIALIZE, { accept: "application/json" });
  assert.equal(jsonOnly.status, 406);
  await jsonOnly.body?.cancel();
  const session = await openSession(server.url);
  const oldVersion = await post(server.url, { jsonrpc: "2.0", id: 2, method: "ping" }, {
    "mcp-session-id": session,
    "mcp-protocol-version": "1999-01-01",
  });
  assert.equal(oldVersion.status, 400);
  await oldVersion.body?.cancel();
  await assertServing(server.url);
});

Deno.test("a client survives a stream that drops before its reply, resuming from the last event", async () => {
  // A server that cuts the POST's stream after one event, and gives the rest on a GET
  // that names it in Last-Event-ID.
  const resumedFrom: (string | null)[] = [];
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    if (request.method === "GET") {
      resumedFrom.push(request.headers.get("last-event-id"));
      if (request.headers.get("last-event-id") === null) return new Response(null, { status: 405 });
      const reply = { jsonrpc: "2.0", id: 1, result: { resumed: true } };
      return new Response(sseEvent({ id: "s:1", data: JSON.stringify(reply) }), {
        headers: { "content-type": "text/event-stream" },
      });
    }
    const message = await request.json();
    if (!("id" in message)) return new Response(null, { status: 202 });
    const note = {
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: "info", data: "x" },
    };
    return new Response(sseEvent({ id: "s:0", retry: 10, data: JSON.stringify(note) }), {
      headers: { "content-type": "text/event-stream" },
    });
  });
  try {
    await using connection = new Connection(
      new HttpTransport(`http://127.0.0.1:${http.addr.port}/mcp`, { listen: false }),
    );
    assert.deepEqual(await connection.request("tools/call", {}), { resumed: true });
    assert.deepEqual(resumedFrom, ["s:0"]);
  } finally {
    await http.shutdown();
  }
});

Deno.test("a client given a learner's sseData reads event streams with it, and so resumes none", async () => {
  // The learners' release holds no reader of its own: its Client reads with the learner's sseData.
  const sseData = (text: string) => [...text.matchAll(/^data: (.*)\n\n/gm)].map((m) => m[1]);
  const resumedFrom: (string | null)[] = [];
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    if (request.method === "GET") {
      resumedFrom.push(request.headers.get("last-event-id"));
      return new Response(null, { status: 405 });
    }
    const message = await request.json();
    if (!("id" in message)) return new Response(null, { status: 202 });
    const note = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info" } };
    const reply = { jsonrpc: "2.0", id: message.id, result: { read: true } };
    // The first request's stream drops after its notification; the second carries its reply.
    const events = [note, ...message.id === 1 ? [] : [reply]];
    return new Response(
      events.map((m) => sseEvent({ id: "s:0", data: JSON.stringify(m) })).join(""),
      {
        headers: { "content-type": "text/event-stream" },
      },
    );
  });
  try {
    const url = `http://127.0.0.1:${http.addr.port}/mcp`;
    await using connection = new Connection(new HttpTransport(url, { listen: false, sseData }));
    await assert.rejects(
      connection.request("tools/call", {}),
      (error) =>
        error instanceof ProtocolError &&
        /ended before its reply \(read with your sseData: check it against Lab 04's sseData cases\)$/
          .test(error.message),
    );
    assert.deepEqual(resumedFrom, []);
    assert.deepEqual(await connection.request("tools/call", {}), { read: true });
  } finally {
    await http.shutdown();
  }
});

Deno.test("the course's HTTP server replays a dropped stream's events to a GET with Last-Event-ID", async () => {
  await using server = serveHttp(SPEC);
  const session = await openSession(server.url);
  const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
  const call = {
    jsonrpc: "2.0",
    id: 5,
    method: "tools/call",
    params: { name: "count_slowly", arguments: {}, _meta: { progressToken: "p" } },
  };
  const response = await post(server.url, call, headers);
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  // Read up to the first event with an id, then drop the stream.
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/id: (\S+)/.test(text)) text += (await reader.read()).value ?? "";
  const firstId = /id: (\S+)/.exec(text)![1];
  await reader.cancel();
  const resumed = await fetch(server.url, {
    headers: { ...headers, accept: "text/event-stream", "last-event-id": firstId },
  });
  const rest = await resumed.text();
  assert.match(rest, /"id":5,"result":\{"content":\[\{"type":"text","text":"3"\}\]/);
  assert.doesNotMatch(rest, new RegExp(`id: ${firstId}\n`));
});

// Streamable HTTP to its letter, both ways. The client: a POST's response
// carries requests and notifications, then the reply to what that POST
// carried, and nothing else (a hostile server that swaps replies between
// POSTs is refused, however well the ids match); session ids are visible
// ASCII; a 404 for the session starts a new one. The server: the protocol
// version checked on every method, a body that is not JSON-RPC refused with
// 400, no reply on the GET stream, and a second GET given a stream of its own.

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { z } from "zod";
import { Client } from "../lib/mcp/client/client.ts";
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
import { sseEvent } from "../lib/mcp/shared/sse.ts";
import { serveHttp } from "../lib/mcp/server/http_server.ts";
import type { SessionSpec } from "../lib/mcp/server/session_spec.ts";

type Message = Record<string, unknown> & { id?: number | string; method?: string };

const ECHO = {
  name: "echo",
  description: "Say the text back.",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
};

/** A reply to `request` whose text is `text`. */
function echoReply(id: unknown, text: string): Message {
  return { jsonrpc: "2.0", id: id as number, result: { content: [{ type: "text", text }] } };
}

/** Options for {@linkcode hostileServer}. */
interface Hostile {
  /** How each reply is written: one JSON body, or an event stream. */
  media: "json" | "sse";
  /** How many `tools/call` POSTs it holds before answering each with the next one's reply. */
  swap: number;
  /** The session id it issues. @default {"s-1"} */
  sessionId?: string;
}

/**
 * A server that answers the handshake and `tools/list` as it should, then
 * holds `swap` tool calls and answers each call's POST with its own result
 * labelled with the next call's id: every id is one the client is waiting
 * for, on the wrong POST, so that trusting the id alone gives each call
 * another's answer.
 */
function hostileServer(options: Hostile) {
  const held: { message: Message; answer: (response: Response) => void }[] = [];
  const reply = (message: Message) => {
    if (options.media === "json") {
      return new Response(JSON.stringify(message), {
        headers: { "content-type": "application/json" },
      });
    }
    const progress = { jsonrpc: "2.0", method: "notifications/message", params: {} };
    return new Response(
      sseEvent({ data: JSON.stringify(progress) }) + sseEvent({ data: JSON.stringify(message) }),
      { headers: { "content-type": "text/event-stream" } },
    );
  };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    if (request.method === "GET") return new Response(null, { status: 405 });
    if (request.method === "DELETE") return new Response(null, { status: 200 });
    const message = await request.json() as Message;
    if (message.id === undefined) return new Response(null, { status: 202 });
    if (message.method === "initialize") {
      const response = reply({
        jsonrpc: "2.0",
        id: message.id,
        result: {
          protocolVersion: (message.params as Message).protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: "hostile", version: "1" },
        },
      });
      response.headers.set("mcp-session-id", options.sessionId ?? "s-1");
      return response;
    }
    if (message.method === "tools/list") {
      return reply({ jsonrpc: "2.0", id: message.id, result: { tools: [ECHO] } });
    }
    const { promise, resolve } = Promise.withResolvers<Response>();
    held.push({ message, answer: resolve });
    if (held.length === options.swap) {
      held.forEach(({ message, answer }, i) => {
        const text = ((message.params as Message).arguments as Message).text as string;
        answer(reply(echoReply(held[(i + 1) % held.length].message.id, text)));
      });
    }
    return await promise;
  });
  return { url: new URL(`http://127.0.0.1:${server.addr.port}/mcp`), server };
}

for (const media of ["json", "sse"] as const) {
  for (const swap of [2, 64]) {
    Deno.test(`a reply on another request's POST (${swap} in flight, ${media}) is refused, not taken`, async () => {
      const { url, server } = hostileServer({ media, swap });
      await using _ = server;
      await using client = new Client(url, {
        allowed: ["echo"],
        maxInFlight: swap,
        timeoutMs: 5000,
      });
      await client.initialize();
      await client.listTools();
      const calls = Array.from(
        { length: swap },
        (_, i) => client.callTool("echo", { text: `${i}` }),
      );
      const outcomes = await Promise.allSettled(calls);
      for (const outcome of outcomes) {
        // Not one call is answered with another's text.
        assert.equal(outcome.status, "rejected", JSON.stringify(outcome));
        const error = (outcome as PromiseRejectedResult).reason;
        assert.ok(error instanceof ProtocolError, String(error));
        assert.match(error.message, /POST of request \d+ .*carried the reply to request \d+/);
      }
    });
  }
}

/** An SDK server of `add`, which logs and reports progress before it answers. */
function sdkServer(): McpServer {
  const server = new McpServer({ name: "sdk", version: "1.0.0" }, {
    capabilities: { logging: {} },
  });
  server.registerTool("add", {
    description: "Add two integers, slowly.",
    inputSchema: { a: z.number().int(), b: z.number().int() },
  }, async ({ a, b }, extra) => {
    await extra.sendNotification({
      method: "notifications/message",
      params: { level: "info", data: `adding ${a} and ${b}` },
    });
    await new Promise((resolve) => setTimeout(resolve, 20 - a));
    return { content: [{ type: "text" as const, text: String(a + b) }] };
  });
  return server;
}

for (const stateful of [true, false]) {
  for (const json of [false, true]) {
    const mode = `${stateful ? "stateful" : "stateless"}, ${json ? "JSON" : "SSE"}`;
    Deno.test(`every reply of the SDK's HTTP server (${mode}) is taken, 16 in flight`, async () => {
      const options = { sessionIdGenerator: stateful ? () => crypto.randomUUID() : undefined };
      const shared = new StreamableHTTPServerTransport({ ...options, enableJsonResponse: json });
      if (stateful) await sdkServer().connect(shared);
      const handle = async (request: IncomingMessage, response: ServerResponse) => {
        if (stateful) return void await shared.handleRequest(request, response);
        // Stateless: a server and a transport for each request, as the SDK's examples do.
        const transport = new StreamableHTTPServerTransport({
          ...options,
          enableJsonResponse: json,
        });
        await sdkServer().connect(transport);
        response.on("close", () => void transport.close());
        await transport.handleRequest(request, response);
      };
      const http = createServer((request, response) => void handle(request, response));
      await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
      const { port } = http.address() as { port: number };
      try {
        await using client = new Client(new URL(`http://127.0.0.1:${port}/mcp`), {
          allowed: ["add"],
          maxInFlight: 16,
          timeoutMs: 10_000,
        });
        await client.initialize();
        await client.listTools();
        const sums = await Promise.all(
          Array.from({ length: 16 }, (_, a) => client.callTool("add", { a, b: 100 })),
        );
        assert.deepEqual(sums, Array.from({ length: 16 }, (_, a) => String(a + 100)));
      } finally {
        await shared.close();
        http.closeAllConnections();
        await new Promise((resolve) => http.close(resolve));
      }
    });
  }
}

for (const bad of ["", "s 1", "s\t1", "s\u00e91"]) {
  Deno.test(`a session id that is not visible ASCII (${JSON.stringify(bad)}) is refused`, async () => {
    const { url, server } = hostileServer({ media: "json", swap: 1, sessionId: bad });
    await using _ = server;
    await using client = new Client(url, { allowed: ["echo"], timeoutMs: 5000 });
    await assert.rejects(client.initialize(), (error) => {
      assert.ok(error instanceof ProtocolError, String(error));
      assert.match(error.message, /session id .* visible ASCII/i);
      return true;
    });
  });
}

/** A server of `word_count`, and `wait`, which answers only when its session ends. */
const SPEC: SessionSpec = {
  name: "letter",
  version: "1.0.0",
  tools: [{
    name: "word_count",
    description: "Count the words in a text.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    call: ({ text }) => ({ text: String(String(text).split(/\s+/).filter(Boolean).length) }),
  }],
  sessionTools: [{
    name: "wait",
    description: "Wait until the session ends.",
    inputSchema: { type: "object", properties: {} },
    run: (_args, context) =>
      new Promise((_resolve, reject) => context.signal.addEventListener("abort", reject)),
  }],
};

Deno.test("after a 404 for its session, the client starts a new one: the call in flight fails, later calls go through", async () => {
  await using server = serveHttp(SPEC, { sessionTtlMs: 300 });
  await using client = new Client(server.url, {
    allowed: ["word_count", "wait"],
    maxInFlight: 2,
    timeoutMs: 5000,
  });
  const first = await client.initialize();
  await client.listTools();
  const waiting = client.callTool("wait");
  // The session expires on the server while `wait` is in flight.
  await assert.rejects(waiting, (error) => {
    assert.ok(error instanceof ProtocolError, String(error));
    assert.match(error.message, /ended session .* \(404 Not Found\)/);
    return true;
  });
  assert.equal(await client.callTool("word_count", { text: "vanilla stock needs review" }), "4");
  assert.equal(await client.callTool("word_count", { text: "one two three" }), "3");
  assert.equal(server.sessions, 1);
  const ended = await client.close();
  assert.equal(ended.deleted, 200);
  assert.equal(server.sessions, 0);
  assert.ok(first.protocolVersion);
});

const POST_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** Open a session on the course's server at `url`; the headers every later request carries. */
async function openSession(url: URL): Promise<Record<string, string>> {
  const response = await fetch(url, {
    method: "POST",
    headers: POST_HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", v: 1 } },
    }),
  });
  await response.body?.cancel();
  assert.equal(response.status, 200);
  return {
    "mcp-session-id": response.headers.get("mcp-session-id")!,
    "mcp-protocol-version": "2025-06-18",
  };
}

/** POST `body` (text, or a message) in the session `session`. */
function post(url: URL, session: Record<string, string>, body: unknown): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { ...POST_HEADERS, ...session },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

Deno.test("the server refuses an unsupported MCP-Protocol-Version on GET and DELETE too, with 400", async () => {
  await using server = serveHttp(SPEC);
  const session = await openSession(server.url);
  const bad = { ...session, "mcp-protocol-version": "1999-01-01" };
  const get = await fetch(server.url, { headers: { ...bad, accept: "text/event-stream" } });
  await get.body?.cancel();
  assert.equal(get.status, 400);
  const deleted = await fetch(server.url, { method: "DELETE", headers: bad });
  await deleted.body?.cancel();
  assert.equal(deleted.status, 400);
  // The refused DELETE did not end the session.
  assert.equal(server.sessions, 1);
  const pong = await post(server.url, session, { jsonrpc: "2.0", id: 2, method: "ping" });
  assert.deepEqual(await pong.json(), { jsonrpc: "2.0", id: 2, result: {} });
});

Deno.test("the server answers a body that is not a JSON-RPC message with 400, not 202", async () => {
  await using server = serveHttp(SPEC);
  const session = await openSession(server.url);
  for (const body of [{ foo: 1 }, { jsonrpc: "2.0" }, { jsonrpc: "1.0", method: "x" }, 7, "[]"]) {
    const response = await post(server.url, session, body);
    assert.equal(response.status, 400, JSON.stringify(body));
    assert.equal((await response.json()).error.code, -32600, JSON.stringify(body));
  }
  // A notification and a response are still accepted with 202.
  for (
    const body of [{ jsonrpc: "2.0", method: "notifications/x" }, {
      jsonrpc: "2.0",
      id: 9,
      result: {},
    }]
  ) {
    const response = await post(server.url, session, body);
    await response.body?.cancel();
    assert.equal(response.status, 202, JSON.stringify(body));
  }
});

Deno.test("the error for a malformed request is never sent on the GET stream", async () => {
  await using server = serveHttp(SPEC);
  const session = await openSession(server.url);
  const get = await fetch(server.url, { headers: { ...session, accept: "text/event-stream" } });
  assert.equal(get.status, 200);
  const malformed = await post(server.url, session, { jsonrpc: "2.0", id: 5, method: 42 });
  assert.equal(malformed.status, 400);
  assert.equal((await malformed.json()).error.code, -32600);
  // Whatever the GET stream carried in the next 200 ms: no message at all.
  const reader = get.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const deadline = Date.now() + 200;
  while (Date.now() < deadline) {
    const next = await Promise.race([
      reader.read(),
      new Promise<undefined>((resolve) =>
        setTimeout(() => resolve(undefined), deadline - Date.now())
      ),
    ]);
    if (next === undefined || next.done) break;
    text += next.value;
  }
  await reader.cancel();
  assert.doesNotMatch(text, /data:/);
});

Deno.test("a second GET gets an event stream of its own, not 409", async () => {
  await using server = serveHttp(SPEC);
  const session = await openSession(server.url);
  const headers = { ...session, accept: "text/event-stream" };
  const first = await fetch(server.url, { headers });
  const second = await fetch(server.url, { headers });
  for (const response of [first, second]) {
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    await response.body?.cancel();
  }
});

Deno.test("a call's stream closed after a priming event is resumed at the server's retry, and its reply taken", async () => {
  let resumedAfter: string | null = null;
  let closedAt = 0;
  let resumedAt = 0;
  let called: unknown;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    const sse = { "content-type": "text/event-stream" };
    if (request.method === "GET") {
      resumedAfter = request.headers.get("last-event-id");
      if (resumedAfter === null) return new Response(null, { status: 405 });
      resumedAt = performance.now();
      const reply = echoReply(called, "resumed");
      return new Response(sseEvent({ id: "e2", data: JSON.stringify(reply) }), { headers: sse });
    }
    const message = await request.json() as Message;
    if (message.id === undefined) return new Response(null, { status: 202 });
    if (message.method === "initialize") {
      return Response.json({
        jsonrpc: "2.0",
        id: message.id,
        result: {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "polling", version: "1" },
        },
      });
    }
    if (message.method === "tools/list") {
      return Response.json({ jsonrpc: "2.0", id: message.id, result: { tools: [ECHO] } });
    }
    // The priming event (an id, a retry, empty data), then the stream ends without the reply.
    closedAt = performance.now();
    called = message.id;
    return new Response("id: e1\nretry: 300\ndata: \n\n", { headers: sse });
  });
  await using _ = server;
  await using client = new Client(new URL(`http://127.0.0.1:${server.addr.port}/mcp`), {
    allowed: ["echo"],
  });
  await client.initialize();
  await client.listTools();
  assert.equal(await client.callTool("echo", { text: "x" }), "resumed");
  assert.equal(resumedAfter, "e1");
  assert.ok(resumedAt - closedAt >= 250, `resumed after ${resumedAt - closedAt} ms`);
});

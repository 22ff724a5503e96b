// MCP's two eras, spoken by the library's client and servers over stdio and
// Streamable HTTP: the client given a modern version probes with
// server/discover and falls back to the handshake on any other answer or none
// (never keyed to one error code), takes an UnsupportedProtocolVersionError's
// list, and speaks the newest version both sides speak; a modern request
// carries its _meta (and over HTTP its headers, and no session); results carry
// resultType; multi round-trip requests go round with the same answer
// functions, echoing requestState byte for byte under new ids, bounded; the
// server seals its requestState; subscriptions; and nothing of one era reaches
// a peer of the other.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "../lib/mcp/client/client.ts";
import { Connection } from "../lib/mcp/client/connection.ts";
import { DualEra } from "../lib/mcp/client/dual_era.ts";
import { ProtocolError, TimeoutError } from "../lib/mcp/shared/errors.ts";
import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { standardHeaders } from "../lib/mcp/shared/mcp_headers.ts";
import { withRequestMeta } from "../lib/mcp/shared/meta.ts";
import { LEGACY_VERSIONS, MCP_VERSIONS, MODERN_VERSIONS } from "../lib/mcp/shared/versions.ts";
import { ChangeFeed } from "../lib/mcp/server/change_feed.ts";
import { serveHttp } from "../lib/mcp/server/http_server.ts";
import type { SessionSpec } from "../lib/mcp/server/session_spec.ts";
import { rawHttpServer, recordingProxy } from "./_raw_http.ts";

const fixture = (name: string, mode: string) => [
  Deno.execPath(),
  "run",
  "--quiet",
  fileURLToPath(new URL(`./fixtures/${name}.ts`, import.meta.url)),
  mode,
];
const GRAMMAR = [
  Deno.execPath(),
  "run",
  "--quiet",
  fileURLToPath(new URL("../servers/grammar.ts", import.meta.url)),
];
const elicit = () => Promise.resolve({ action: "accept" as const, content: { name: "Ada" } });
const sample = () =>
  Promise.resolve({ text: "Hello", model: "stand-in", stopReason: "endTurn" as const });

/** A client of `server` that records the wire, one parsed message a line. */
function recorded(server: string[] | URL, options: ConstructorParameters<typeof Client>[1] = {}) {
  const wire: { direction: string; message: JsonObject }[] = [];
  const client = new Client(server as string[], {
    timeoutMs: 10_000,
    transcript: (direction, line) => void wire.push({ direction, message: JSON.parse(line) }),
    ...options,
  });
  const sent = (method: string) =>
    wire.filter((m) => m.direction === ">" && m.message.method === method);
  return { client, wire, sent };
}

/** A dual-era client of the modern fixture in `mode`, that records the wire. */
const modernRecorded = (mode: string, options: ConstructorParameters<typeof Client>[1] = {}) =>
  recorded(fixture("modern_peer", mode), { versions: MCP_VERSIONS, allowed: ["echo"], ...options });

/**
 * POST the modern request `method` with `params` (and the `_meta` of a client
 * that declares `capabilities`) to `url`, its headers as the transport asks;
 * its status and JSON body.
 */
async function postModern(
  url: URL,
  method: string,
  params: JsonObject,
  capabilities: JsonObject = {},
) {
  const sent = withRequestMeta(params, {
    protocolVersion: "2026-07-28",
    clientCapabilities: capabilities,
  });
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...standardHeaders(method, sent),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: sent }),
  });
  return { status: response.status, body: await response.json() };
}

Deno.test("a dual-era client probes a modern stdio server, and speaks 2026-07-28 with no handshake", async () => {
  const { client, wire, sent } = modernRecorded("normal");
  await using _ = client;
  const discover = await client.initialize();
  assert.deepEqual(discover.supportedVersions, [...MCP_VERSIONS]);
  assert.equal(client.protocolVersion, "2026-07-28");
  await client.listTools();
  assert.equal(await client.callTool("echo", { text: "vanilla" }), "vanilla");
  assert.equal(wire[0].message.method, "server/discover");
  assert.deepEqual(sent("initialize"), []);
  for (const { message } of wire.filter((m) => m.direction === ">")) {
    const meta = (message.params as JsonObject)._meta as JsonObject;
    assert.equal(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    assert.deepEqual(meta["io.modelcontextprotocol/clientInfo"], {
      name: "external-tools-with-mcp",
      version: "0.1.0",
    });
    assert.deepEqual(meta["io.modelcontextprotocol/clientCapabilities"], {});
  }
});

Deno.test("a dual-era client falls back to the handshake with a legacy server that answers -32601", async () => {
  const { client, wire } = recorded(GRAMMAR, { versions: MCP_VERSIONS, allowed: ["conjugate"] });
  await using _ = client;
  const result = await client.initialize();
  assert.equal(result.protocolVersion, "2025-06-18");
  await client.listTools();
  const args = { verb: "eat", tense: "past_simple", person: "3sg" };
  assert.equal(await client.callTool("conjugate", args), "ate");
  assert.deepEqual(
    wire.slice(0, 3).map((m) => m.message.method ?? (m.message.error as JsonObject).code),
    [
      "server/discover",
      -32601,
      "initialize",
    ],
  );
  // After the handshake, nothing modern: no _meta of the protocol's on a legacy request.
  for (const { message } of wire.slice(2).filter((m) => m.direction === ">")) {
    assert.equal(JSON.stringify(message).includes("io.modelcontextprotocol/"), false);
  }
});

for (const mode of ["silent", "invalid-params", "server-error", "not-json-rpc"]) {
  Deno.test(`a dual-era client falls back to the handshake with a legacy server that meets the probe ${mode}`, async () => {
    const { client } = recorded(fixture("legacy_peer", mode), {
      versions: MCP_VERSIONS,
      allowed: ["echo"],
      probeMs: 300,
    });
    await using _ = client;
    assert.equal((await client.initialize()).protocolVersion, "2025-11-25");
    await client.listTools();
    assert.equal(await client.callTool("echo", { text: "chocolate" }), "chocolate");
  });
}

Deno.test("an UnsupportedProtocolVersionError to the probe means a modern server: the client picks from its list", async () => {
  const { client, sent } = modernRecorded("unsupported-first");
  await using _ = client;
  await client.initialize();
  assert.equal(client.protocolVersion, "2026-07-28");
  assert.equal(sent("server/discover").length, 2);
  assert.deepEqual(sent("initialize"), []);
  await client.listTools();
  assert.equal(await client.callTool("echo", { text: "mint" }), "mint");
});

Deno.test("a server that refuses every server/discover with -32022 naming the version asked is refused by name, with no handshake", async () => {
  // It refuses 2026-07-28 and names it as supported, at the probe and at the second asking: a
  // ProtocolError that says so, not a TypeError of the client's own, and no fall back.
  const { client, sent } = modernRecorded("unsupported-always");
  await using _ = client;
  await assert.rejects(
    client.initialize(),
    (error: unknown) =>
      error instanceof ProtocolError && /2026-07-28/.test(error.message) &&
      /refused/.test(error.message),
  );
  assert.equal(sent("server/discover").length, 2);
  assert.deepEqual(sent("initialize"), []);
});

Deno.test("a modern server slow to answer the probe, which then refuses the handshake with its versions, is spoken to in 2026-07-28", async () => {
  // The probe's deadline passes before the server reads it; the handshake that follows is
  // refused with an UnsupportedProtocolVersionError: a modern error, so a modern server.
  const { client, sent } = modernRecorded("slow-modern-only", { probeMs: 100 });
  await using _ = client;
  await client.initialize();
  assert.equal(client.protocolVersion, "2026-07-28");
  assert.equal(sent("initialize").length, 1);
  await client.listTools();
  assert.equal(await client.callTool("echo", { text: "late" }), "late");
});

Deno.test("a client of modern versions only does not fall back: a legacy server is refused by name", async () => {
  const { client, sent } = recorded(GRAMMAR, { versions: MODERN_VERSIONS });
  await using _ = client;
  await assert.rejects(client.initialize(), (error) => {
    assert.ok(error instanceof ProtocolError);
    assert.match(error.message, /not a modern one .* speaks 2026-07-28 only/);
    return true;
  });
  assert.deepEqual(sent("initialize"), []);
});

Deno.test("a client of legacy versions (the default) speaks the newest of them with a dual-era server, by the handshake", async () => {
  const { client, sent } = recorded(fixture("modern_peer", "normal"), { allowed: ["echo"] });
  await using _ = client;
  assert.equal((await client.initialize()).protocolVersion, "2025-11-25");
  assert.deepEqual(sent("server/discover"), []);
  await client.listTools();
  assert.equal(await client.callTool("echo", { text: "lemon" }), "lemon");
});

Deno.test("a server of modern versions only names them in its refusal of initialize", async () => {
  await using server = serveHttp({
    name: "modern",
    version: "1",
    tools: [],
    versions: ["2026-07-28"],
  });
  await using client = new Client(server.url);
  await assert.rejects(client.initialize(), (error) => {
    assert.ok(error instanceof ProtocolError);
    assert.equal(error.code, -32022);
    assert.deepEqual((error.data as JsonObject).supported, ["2026-07-28"]);
    return true;
  });
});

/** The library's HTTP server behind a proxy that records each request's method, headers and body. */
function watched(
  spec: SessionSpec,
  tamper?: (body: JsonObject, count: number) => Response | undefined,
) {
  const server = serveHttp(spec);
  return recordingProxy(server.url, { tamper, close: () => server.close() });
}

const COUNT: SessionSpec = {
  name: "count",
  version: "1",
  tools: [],
  sessionTools: [{
    name: "count",
    description: "Counts words.",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    run: ({ text }) => ({
      content: [{ type: "text", text: String(String(text).split(/\s+/).length) }],
    }),
  }],
};

Deno.test("over HTTP a dual-era client speaks 2026-07-28: headers on every POST, no session, no GET, no DELETE", async () => {
  await using server = watched(COUNT);
  {
    await using client = new Client(server.url, { versions: MCP_VERSIONS, allowed: ["count"] });
    await client.initialize();
    await client.listTools();
    assert.equal(await client.callTool("count", { text: "vanilla stock needs review" }), "4");
  }
  assert.deepEqual(server.seen.map((s) => s.method), ["POST", "POST", "POST"]);
  for (const { headers, body } of server.seen) {
    assert.equal(headers.get("mcp-protocol-version"), "2026-07-28");
    assert.equal(headers.get("mcp-method"), body!.method);
    assert.equal(headers.get("mcp-session-id"), null);
  }
  assert.equal(server.seen[2].headers.get("mcp-name"), "count");
});

Deno.test("over HTTP a dual-era client falls back to the handshake with a legacy server's 400", async () => {
  const noSession = () =>
    new Response("Bad Request: No valid session ID provided", { status: 400 });
  await using legacy = rawHttpServer("2025-06-18", {}, { otherwise: noSession });
  await using client = new Client(legacy.url, { versions: MCP_VERSIONS });
  assert.equal((await client.initialize()).protocolVersion, "2025-06-18");
  assert.deepEqual(legacy.methods.slice(0, 2), ["server/discover", "initialize"]);
});

Deno.test("over HTTP a modern request whose response stream broke is re-issued with a new id", async () => {
  const slow: SessionSpec = {
    ...COUNT,
    sessionTools: [{
      ...COUNT.sessionTools![0],
      run: (args, context) => {
        context.progress(1); // a progress notification first makes the response an event stream
        return COUNT.sessionTools![0].run(args, context);
      },
    }],
  };
  let cut = 0;
  await using server = watched(slow, (body) => {
    if (body.method !== "tools/call" || cut++ > 0) return undefined;
    // The first tools/call: a stream that ends before its reply.
    return new Response(
      'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"x","progress":1}}\n\n',
      {
        headers: { "content-type": "text/event-stream" },
      },
    );
  });
  await using client = new Client(server.url, { versions: MCP_VERSIONS, allowed: ["count"] });
  await client.initialize();
  await client.listTools();
  assert.equal(await client.callTool("count", { text: "one two three" }), "3");
  const calls = server.seen.filter((s) => s.body?.method === "tools/call").map((s) => s.body!.id);
  assert.equal(calls.length, 2);
  assert.notEqual(calls[0], calls[1]);
});

Deno.test("over HTTP a request re-issued after its stream broke keeps the deadline it was first sent with", async () => {
  // Each tools/list's stream ends without its reply two thirds of the way to the deadline. Before:
  // each re-issue of a request sent with no deadline of its own (listTools) had a new one, so that
  // it was held four times as long and ended in the last broken stream's ProtocolError; now the
  // second send meets the first's deadline.
  const timeoutMs = 1500;
  await using server = watched(COUNT, (body) => {
    if (body.method !== "tools/list") return undefined;
    const progress =
      'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"x","progress":1}}\n\n';
    return new Response(
      new ReadableStream({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode(progress));
          await new Promise((resolve) => setTimeout(resolve, (timeoutMs * 2) / 3));
          controller.close();
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  });
  await using client = new Client(server.url, {
    versions: MCP_VERSIONS,
    allowed: ["count"],
    timeoutMs,
  });
  await client.initialize();
  await assert.rejects(client.listTools(), TimeoutError);
  assert.equal(server.seen.filter((s) => s.body?.method === "tools/list").length, 2);
});

Deno.test("a multi round-trip call is answered by the client's own elicit and sample, its requestState echoed byte for byte under new ids", async () => {
  const { client, wire } = modernRecorded("normal", {
    allowed: ["ask"],
    elicit,
    sample,
  });
  await using _ = client;
  await client.initialize();
  await client.listTools();
  assert.equal(await client.callTool("ask"), "Hello, Ada");
  const calls = wire.filter((m) => m.direction === ">" && m.message.method === "tools/call");
  const answers = wire.filter((m) => m.direction === "<" && m.message.result !== undefined).slice(
    -3,
  );
  assert.equal(calls.length, 3);
  assert.equal(new Set(calls.map((c) => c.message.id)).size, 3);
  assert.equal((calls[0].message.params as JsonObject).requestState, undefined);
  for (const round of [1, 2]) {
    const given = (answers[round - 1].message.result as JsonObject).requestState;
    assert.equal(typeof given, "string");
    assert.equal((calls[round].message.params as JsonObject).requestState, given);
  }
  assert.deepEqual((calls[1].message.params as JsonObject).inputResponses, {
    user_name: { action: "accept", content: { name: "Ada" } },
  });
});

Deno.test("a server that asks again every round is stopped after maxRounds", async () => {
  const { client, sent } = modernRecorded("normal", {
    allowed: ["always_asks"],
    elicit,
    maxRounds: 3,
  });
  await using _ = client;
  await client.initialize();
  await client.listTools();
  await assert.rejects(client.callTool("always_asks"), /still needed input after 3 rounds/);
  assert.equal(sent("tools/call").length, 3);
});

Deno.test("a server that asks more than sixteen questions at once is refused before any is asked", async () => {
  let asked = 0;
  const counting = () => (asked++, elicit());
  const { client } = modernRecorded("normal", { allowed: ["many_questions"], elicit: counting });
  await using _ = client;
  await client.initialize();
  await client.listTools();
  await assert.rejects(client.callTool("many_questions"), /asks 17 questions at once/);
  assert.equal(asked, 0);
});

Deno.test("the HTTP server holds at most maxSessions modern requests in flight; past it, 503", async () => {
  await using server = serveHttp({ ...COUNT, changes: new ChangeFeed() }, { maxSessions: 2 });
  await using client = new Client(server.url, { versions: MCP_VERSIONS, allowed: ["count"] });
  await client.initialize();
  await client.listTools();
  const open = [
    await client.listen({ toolsListChanged: true }),
    await client.listen({ toolsListChanged: true }),
  ];
  await assert.rejects(client.callTool("count", { text: "a b" }), /503/);
  for (const subscription of open) subscription.close();
  // The streams' ends reach the server as it can: the next call may need a moment.
  for (let tries = 0;; tries++) {
    const answered = await postModern(server.url, "tools/list", {});
    if (answered.status === 200) break;
    assert.ok(tries < 50, "the server still holds the closed subscriptions");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});

Deno.test("a client that did not declare elicitation is not asked: the server answers -32021", async () => {
  const { client } = modernRecorded("normal", {
    allowed: ["ask"],
  });
  await using _ = client;
  await client.initialize();
  await client.listTools();
  await assert.rejects(client.callTool("ask"), (error) => {
    assert.ok(error instanceof ProtocolError);
    assert.equal(error.code, -32021);
    assert.deepEqual((error.data as JsonObject).requiredCapabilities, { elicitation: {} });
    return true;
  });
});

const modernPeer = (mode: string, options: ConstructorParameters<typeof Client>[1] = {}) =>
  new Client(fixture("modern_peer", mode), {
    versions: MCP_VERSIONS,
    allowed: ["echo"],
    timeoutMs: 1000,
    ...options,
  });

Deno.test("a 2026-07-28 result without resultType, which that version requires, is refused, and the connection with it", async () => {
  {
    await using client = modernPeer("no-result-type");
    await client.initialize();
    await client.listTools();
    await assert.rejects(
      client.callTool("echo", { text: "x" }),
      /The result of tools\/call has no resultType, which 2026-07-28 requires of every result/,
    );
    await assert.rejects(client.listTools(), ProtocolError); // and the connection with it
  }
  {
    await using client = modernPeer("discover-no-result-type");
    await assert.rejects(client.initialize(), (error) => {
      assert.ok(error instanceof ProtocolError);
      assert.match(error.message, /The result of server\/discover has no resultType/);
      return true;
    });
  }
  // A legacy server's results never carry it: the same client takes them, as complete ones.
  await using client = new Client(GRAMMAR, { versions: MCP_VERSIONS, allowed: ["conjugate"] });
  assert.equal((await client.initialize()).protocolVersion, "2025-06-18");
  await client.listTools();
  const ate = await client.callTool("conjugate", {
    verb: "eat",
    tense: "past_simple",
    person: "3sg",
  });
  assert.equal(ate, "ate");
});

Deno.test("a modern result of a type the client does not know is refused", async () => {
  await using client = modernPeer("odd-result-type");
  await client.initialize();
  await client.listTools();
  await assert.rejects(
    client.callTool("echo", { text: "x" }),
    /resultType "later", which 2026-07-28 does not define/,
  );
  await assert.rejects(client.listTools(), ProtocolError); // and the connection with it
});

Deno.test("in the modern era the careful client still refuses a wrong id, an oversized frame, and waits no longer than its deadline", async () => {
  {
    await using client = modernPeer("wrong-id");
    await client.initialize();
    await client.listTools();
    await assert.rejects(client.callTool("echo", { text: "x" }), /does not match the request's id/);
  }
  {
    await using client = modernPeer("oversized");
    await client.initialize();
    await client.listTools();
    await assert.rejects(client.callTool("echo", { text: "x" }), ProtocolError);
  }
  const { client, sent } = modernRecorded("hang", {
    allowed: ["echo"],
    timeoutMs: 1000,
  });
  await using _ = client;
  await client.initialize();
  await client.listTools();
  await assert.rejects(client.callTool("echo", { text: "x" }), /had no reply within 1000 ms/);
  assert.equal(sent("notifications/cancelled").length, 1);
});

Deno.test("in the modern era the allowlist and the argument checks refuse before anything is sent", async () => {
  const { client, sent } = modernRecorded("normal");
  await using _ = client;
  await client.initialize();
  await client.listTools();
  await assert.rejects(client.callTool("change"), Deno.errors.PermissionDenied);
  await assert.rejects(client.callTool("echo", { text: 4 }), /do not match its inputSchema/);
  assert.deepEqual(sent("tools/call"), []);
});

Deno.test("a modern server that sends a request of its own, or asks what the client did not declare, is distrusted", async () => {
  {
    await using client = modernPeer("asks-itself");
    await client.initialize();
    await client.listTools();
    await assert.rejects(client.callTool("echo", { text: "x" }), /a 2026-07-28 server sends none/);
  }
  await using client = modernPeer("legacy-input");
  await client.initialize();
  await client.listTools();
  await assert.rejects(client.callTool("echo", { text: "x" }), /roots\/list.*did not declare/);
});

Deno.test("the server refuses a tampered requestState, and one replayed on another request", async () => {
  await using server = serveHttp({
    ...COUNT,
    sessionTools: [{
      name: "greet",
      description: "Greets by name.",
      inputSchema: { type: "object", properties: { to: { type: "string" } } },
      run: async (_args, context) => {
        const answer = await context.request("elicitation/create", {
          message: "Name?",
          requestedSchema: { type: "object", properties: {} },
        }, "name");
        return { content: [{ type: "text", text: `hi ${(answer.content as JsonObject)?.name}` }] };
      },
    }],
  });
  const call = (params: JsonObject) =>
    postModern(server.url, "tools/call", { name: "greet", ...params }, { elicitation: {} });
  const first = await call({ arguments: { to: "a" } });
  const state = first.body.result.requestState as string;
  const name = { name: { action: "accept", content: { name: "Ada" } } };
  assert.equal(
    (await call({ arguments: { to: "a" }, inputResponses: name, requestState: state })).body.result
      .content[0].text,
    "hi Ada",
  );
  const tampered = await call({
    arguments: { to: "a" },
    inputResponses: name,
    // The state says it was made for another request: its first character changed.
    requestState: (state[0] === "e" ? "f" : "e") + state.slice(1),
  });
  assert.deepEqual([tampered.status, tampered.body.error.code], [400, -32602]);
  assert.match(tampered.body.error.message, /failed verification/);
  const replayed = await call({
    arguments: { to: "b" },
    inputResponses: name,
    requestState: state,
  });
  assert.match(replayed.body.error.message, /made for another request/);
});

// server/discover exists only in 2026-07-28, whose DiscoverRequest requires params._meta: without
// it the request is a malformed modern one (-32602; over HTTP, 400), never a legacy request of a
// method not found, whether the handshake came before it or not.
const CLIENT = { name: "eras", version: "1" };
const MALFORMED_META: JsonObject[] = [
  {},
  { _meta: "2026-07-28" },
  { _meta: { "io.modelcontextprotocol/clientCapabilities": {} } },
];

Deno.test("a dual-era stdio server refuses server/discover without its _meta with -32602, before the handshake and after it", async () => {
  for (const handshake of [false, true]) {
    await using connection = new Connection(fixture("modern_peer", "normal"));
    if (handshake) {
      const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT };
      await connection.request("initialize", params, { cancellable: false });
      connection.notify("notifications/initialized");
    }
    for (const params of MALFORMED_META) {
      const refused = await connection.request("server/discover", params, { errorIsAnswer: true })
        .then(() => undefined, (error) => error.code);
      assert.equal(refused, -32602, `${JSON.stringify(params)}, handshake: ${handshake}`);
    }
    const discover = await connection.request(
      "server/discover",
      withRequestMeta({}, { protocolVersion: "2026-07-28", clientCapabilities: {} }),
    );
    assert.deepEqual(discover.supportedVersions, [...MCP_VERSIONS]);
  }
});

Deno.test("the HTTP server refuses server/discover without its _meta with 400 and -32602, in a legacy session or none", async () => {
  await using server = serveHttp(COUNT);
  const post = (message: JsonObject, headers: Record<string, string> = {}) =>
    fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", ...message }),
    });
  const handshake = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT };
  const initialized = await post({ id: 1, method: "initialize", params: handshake });
  await initialized.body?.cancel();
  const session = initialized.headers.get("mcp-session-id")!;
  // The headers of a 2026-07-28 request, and the body of a request that carries no _meta of one.
  const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" };
  for (const inSession of [false, true]) {
    for (const params of MALFORMED_META) {
      const response = await post(
        { id: 9, method: "server/discover", params },
        inSession ? { ...headers, "mcp-session-id": session } : headers,
      );
      const { id, error } = await response.json();
      const what = `${JSON.stringify(params)}, in a session: ${inSession}`;
      assert.deepEqual([response.status, id, error.code], [400, 9, -32602], what);
    }
  }
});

Deno.test("a modern server has no ping or logging/setLevel, marks results complete, and gives caching hints", async () => {
  await using server = serveHttp({
    ...COUNT,
    resources: [{ uri: "demo://a", name: "a", read: () => ({ text: "A" }) }],
  });
  const post = (method: string, params: JsonObject = {}) => postModern(server.url, method, params);
  for (const method of ["ping", "logging/setLevel", "initialize"]) {
    const { status, body } = await post(method);
    assert.deepEqual([status, body.error.code, body.id], [404, -32601, 7]);
  }
  for (const method of ["tools/list", "resources/list"]) {
    const { result } = (await post(method)).body;
    assert.deepEqual([result.resultType, result.ttlMs, result.cacheScope], [
      "complete",
      0,
      "private",
    ]);
  }
  const missing = await post("resources/read", { uri: "demo://none" });
  assert.deepEqual([missing.status, missing.body.error.code], [400, -32602]);
});

for (const transport of ["stdio", "http"]) {
  Deno.test(`subscriptions/listen over ${transport}: acknowledged, only what was asked for, until closed`, async () => {
    const feed = new ChangeFeed();
    await using server = serveHttp({ ...COUNT, changes: feed, prompts: [] });
    const target = transport === "http" ? server.url : fixture("modern_peer", "normal");
    await using client = new Client(target as string[], {
      versions: MCP_VERSIONS,
      allowed: ["change"],
    });
    await client.initialize();
    await client.listTools();
    const subscription = await client.listen({
      toolsListChanged: true,
      resourcesListChanged: true,
    });
    // The server offers no resources: it acknowledges the tools only.
    assert.deepEqual(subscription.acknowledged, { toolsListChanged: true });
    if (transport === "http") {
      feed.promptsChanged();
      feed.toolsChanged();
    } else assert.equal(await client.callTool("change"), "changed");
    const iterator = subscription[Symbol.asyncIterator]();
    const first = await iterator.next();
    assert.equal(first.value.method, "notifications/tools/list_changed");
    const tag = first.value.params._meta["io.modelcontextprotocol/subscriptionId"];
    assert.equal(typeof tag, "number");
    subscription.close();
    assert.equal((await iterator.next()).done, true);
    if (transport === "stdio") {
      // A subscription open when the server's input ends does not keep it running.
      await subscription[Symbol.asyncDispose]();
      const again = await client.listen({ toolsListChanged: true });
      assert.deepEqual(again.acknowledged, { toolsListChanged: true });
      // The server ends the subscription with its result, and exits 0, its session done.
      assert.equal((await client.close() as Deno.CommandStatus).code, 0);
      const signals = client.closeSteps().filter((step) => step.what.startsWith("SIG"));
      assert.deepEqual(signals, []);
    }
  });
}

Deno.test("a subscription closed by the client is cancelled as such, not as a deadline missed", async () => {
  const { client, sent } = modernRecorded("normal", { allowed: ["change"] });
  await using _ = client;
  await client.initialize();
  const subscription = await client.listen({ toolsListChanged: true });
  subscription.close();
  await subscription[Symbol.asyncDispose]();
  const [listen] = sent("subscriptions/listen");
  const cancels = sent("notifications/cancelled");
  assert.deepEqual(cancels.map(({ message }) => message.params), [
    { requestId: listen.message.id, reason: "The client no longer wants it" },
  ]);
});

Deno.test("a legacy session has no subscriptions: listen is refused before anything is sent", async () => {
  const { client, sent } = recorded(GRAMMAR);
  await using _ = client;
  await client.initialize();
  await assert.rejects(
    client.listen({ toolsListChanged: true }),
    /came with 2026-07-28; this session is 2025-06-18/,
  );
  assert.deepEqual(sent("subscriptions/listen"), []);
});

Deno.test("the versions: five, newest first, in two eras", () => {
  assert.deepEqual([...MODERN_VERSIONS, ...LEGACY_VERSIONS], [...MCP_VERSIONS]);
});

Deno.test("a client given no version it speaks is refused before it starts anything", () => {
  for (const versions of [[], ["2027-01-01"]]) {
    assert.throws(
      () => new Client(GRAMMAR, { versions: versions as never }),
      /versions must name one or more of 2026-07-28, /,
    );
  }
});

/** A transport the test speaks for: what the client sends, and what the test delivers. */
function fakeTransport() {
  const sent: JsonObject[] = [];
  let stream!: ReadableStreamDefaultController<Uint8Array[]>;
  const incoming = new ReadableStream<Uint8Array[]>({ start: (c) => void (stream = c) });
  const deliver = (message: JsonObject) =>
    stream.enqueue([new TextEncoder().encode(JSON.stringify(message))]);
  const transport = {
    incoming,
    gone: new Promise<never>(() => {}),
    unread: 0,
    send: (message: JsonObject) => (sent.push(message), Promise.resolve()),
    context: () => "",
    close() {
      try {
        stream.close();
      } catch {
        // The client stopped reading already.
      }
      return Promise.resolve();
    },
  };
  return { transport, sent, deliver };
}

Deno.test("a reply that merely carries a subscription's id goes to the answer function, not to the subscription", async () => {
  const { transport, deliver } = fakeTransport();
  await using connection = new Connection(transport as never);
  const open = connection.open("subscriptions/listen", { notifications: {} });
  const call = connection.request("tools/call", { name: "echo" });
  // The reply to the call, labelled with the subscription's id, and no tag of a subscription's end.
  deliver({ jsonrpc: "2.0", id: open.id, result: { content: [] } });
  await assert.rejects(call, /does not match the request's id/);
  await assert.rejects(open.reply, ProtocolError); // and the connection is trusted no more
});

const tag = (id: unknown) => ({ _meta: { "io.modelcontextprotocol/subscriptionId": id } });

Deno.test("a subscription ends with the result that names it, or the server's cancellation", async () => {
  const { transport, deliver } = fakeTransport();
  await using connection = new Connection(transport as never);
  const first = connection.open("subscriptions/listen", { notifications: {} });
  const second = connection.open("subscriptions/listen", { notifications: {} });
  deliver({ jsonrpc: "2.0", id: first.id, result: { resultType: "complete", ...tag(first.id) } });
  assert.deepEqual(await first.reply, { resultType: "complete", ...tag(first.id) });
  deliver({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: second.id } });
  assert.equal(await second.reply, undefined); // no result came
});

Deno.test("a subscription that ends at 2026-07-28 with a result without resultType is refused, and the connection with it", async () => {
  const { transport, sent, deliver } = fakeTransport();
  await using connection = new Connection(transport as never);
  const era = new DualEra(connection, {
    versions: MCP_VERSIONS,
    capabilities: {},
    probeMs: 60_000,
    maxRounds: 2,
  });
  const connecting = era.connect();
  while (sent.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  const discover = { supportedVersions: ["2026-07-28"], capabilities: {}, resultType: "complete" };
  deliver({ jsonrpc: "2.0", id: sent[0].id, result: discover });
  await connecting;
  const listen = () => era.open("subscriptions/listen", { notifications: {} });
  const typed = listen();
  deliver({ jsonrpc: "2.0", id: typed.id, result: { resultType: "complete", ...tag(typed.id) } });
  assert.equal((await typed.reply)?.resultType, "complete");
  const cancelled = listen();
  deliver({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: cancelled.id },
  });
  assert.equal(await cancelled.reply, undefined);
  const untyped = listen();
  deliver({ jsonrpc: "2.0", id: untyped.id, result: tag(untyped.id) });
  await assert.rejects(untyped.reply, /The result of subscriptions\/listen has no resultType/);
  await assert.rejects(era.request("tools/list", {}), ProtocolError);
});

// Round 17 of the red team, second part: a hostile or careless peer against
// what changed in the library that day (a subscription opened again over
// Streamable HTTP, the server's keep-alive, its check of a model's message).
// A careless client of the course's HTTP server that asks many modern
// requests: each one's session stayed held by the server's own signal (a
// listener for its closing, never taken away), about 8 KB a request for as
// long as the server ran; measured in a process of its own with the
// collector open (tests/fixtures/round17_held_per_request.ts). And a stdio
// server that exits mid-subscription and is started again as a 2025-11-25
// one: the subscription sent again there ended with the server's "Method not
// found", where the client knows the version it agreed, which has no
// subscriptions; it ends naming it now, and nothing is left running. And a
// subscription closed by its caller while its stdio server is started again
// (the client still open): the client sent the subscription again to the new
// server all the same, then cancelled it, and the cancelled request's end,
// which no one heard, was an unhandled rejection that ends a Deno program.
// And the caller's own requests while that server is started again (which
// the subscription's re-open begins at once): each failed with "Call
// initialize() before callTool()", the client's half-made handshake with the
// new server taken for the caller's fault; they wait for the server now.
// And a hostile HTTP server (a proxy in front of the course's server, which
// cuts a subscription's stream once acknowledged and answers its re-sent
// listen its own way): a re-opened subscription never acknowledged, or
// acknowledged under another subscription's id, ended as if the server had
// closed it cleanly (its cancelled request's end taken for the server's),
// where its deadline passed; it ends with TimeoutError now. One acknowledged
// wider than asked, or answered with an error, ends by name (held). And a
// careless client of the course's server, its keep-alive every 10 ms: forty
// subscriptions opened and dropped, one whose stream is never read, one open
// as the server closes: the server closes at once, and the test's sanitizers
// find no timer left (held).

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "../../lib/mcp/client/client.ts";
import { serveHttp } from "../../lib/mcp/server/http_server.ts";
import { ProtocolError, TimeoutError } from "../../lib/mcp/shared/errors.ts";
import type { JsonObject } from "../../lib/mcp/shared/jsonrpc.ts";
import { MCP_VERSIONS } from "../../lib/mcp/shared/versions.ts";
import { assertGroupGone, commandsHolding } from "../_helpers.ts";
import { askingGrammar, crashPeer, tapped } from "../_peers.ts";

Deno.test("the course's HTTP server holds nothing of a modern request once it is answered", async () => {
  const measure = fileURLToPath(import.meta.resolve("../fixtures/round17_held_per_request.ts"));
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "--v8-flags=--expose-gc", measure, "1500"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(success, new TextDecoder().decode(stderr));
  const perRequest = Number(new TextDecoder().decode(stdout).trim());
  // A request's session, held, is some 8 KB; what the heap's own noise leaves is under 1 KB.
  assert.ok(perRequest < 2048, `${perRequest} bytes held for each request answered`);
});

/** A shell word. */
const quoted = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/**
 * A 2026-07-28 client of the stdio server `command` (crash peers that log to
 * `log`), subscribed to its tool list, then `crash` called: its server exited
 * once. `end` closes it, ends whatever is left, and checks each server gone.
 */
async function crashedOnce(command: string[], log: string) {
  const client = new Client(command, {
    versions: MCP_VERSIONS,
    allowed: ["crash", "pid"],
    timeoutMs: 20_000,
  });
  const pids: number[] = [];
  const end = async () => {
    await client.close();
    for (const { pid } of commandsHolding(log)) Deno.kill(pid, "SIGKILL");
    await Deno.remove(log);
    for (const pid of pids) assertGroupGone(pid);
  };
  try {
    await client.initialize();
    pids.push(client.pid);
    assert.equal(client.protocolVersion, "2026-07-28");
    await client.listTools();
    const subscription = await client.listen({ toolsListChanged: true });
    await assert.rejects(client.callTool("crash"), /exited with status 3/);
    return { client, subscription, pids, end };
  } catch (error) {
    await end();
    throw error;
  }
}

Deno.test("a subscription whose stdio server is started again as a 2025-11-25 one ends naming that version", async () => {
  const log = await Deno.makeTempFile();
  // Modern until it has crashed once (its log then holds a line), 2025-11-25 after.
  const [modern, legacy] = [crashPeer("modern", log), crashPeer("2025-11-25", log)]
    .map((command) => command.map(quoted).join(" "));
  const { client, subscription, pids, end } = await crashedOnce(
    ["sh", "-c", `if [ -s ${quoted(log)} ]; then exec ${legacy}; else exec ${modern}; fi`],
    log,
  );
  try {
    await assert.rejects(
      subscription[Symbol.asyncIterator]().next(),
      (error: unknown) =>
        error instanceof ProtocolError && /2025-11-25/.test(error.message) &&
        /subscriptions\/listen/.test(error.message),
    );
    pids.push(client.pid);
    assert.equal(client.protocolVersion, "2025-11-25");
    assert.equal(await client.callTool("pid"), String(client.pid));
  } finally {
    await end();
  }
});

Deno.test("a subscription closed while its stdio server is started again is not sent again, and nothing rejects unheard", async () => {
  const [log, wire] = [await Deno.makeTempFile(), await Deno.makeTempFile()];
  const { client, subscription, pids, end } = await crashedOnce(
    tapped(wire, crashPeer("modern", log)),
    log,
  );
  try {
    subscription.close(); // while the server is started again
    // Started again: a subscription sent again would have gone before this call.
    assert.equal(await client.callTool("pid"), await client.callTool("pid"));
    pids.push(client.pid);
    assert.notEqual(pids[1], pids[0], "the server was not started again");
    assert.equal((await subscription[Symbol.asyncIterator]().next()).done, true);
    const sent = Deno.readTextFileSync(wire).split("\n")
      .filter((line) => / > .*"subscriptions\/listen"/.test(line));
    assert.equal(sent.length, 1, "the closed subscription was sent again");
  } finally {
    await end();
    await Deno.remove(wire);
  }
});

Deno.test("requests made while a stdio server is started again for a subscription wait for it", async () => {
  const log = await Deno.makeTempFile();
  const { client, subscription, pids, end } = await crashedOnce(crashPeer("modern", log), log);
  try {
    // Started again at once, for the subscription: asked at points all through the start.
    const asked = [0, 50, 100, 200, 400].map((ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)).then(() =>
        Promise.all([client.callTool("pid"), client.listTools().then(Object.keys)])
      )
    );
    const answers = await Promise.all(asked);
    pids.push(client.pid);
    assert.notEqual(pids[1], pids[0], "the server was not started again");
    for (const [pid, tools] of answers) {
      assert.equal(pid, String(pids[1]));
      assert.ok(tools.includes("pid"));
    }
    const { value } = await subscription[Symbol.asyncIterator]().next();
    assert.equal(value?.method, "notifications/subscriptions/acknowledged");
    subscription.close();
  } finally {
    await end();
  }
});

/** How a hostile server answers a re-sent listen: from its body and the course's server's answer. */
type Reanswer = (body: string, upstream: Response) => Response | Promise<Response>;

/**
 * A hostile server in front of the course's server at `target`: it cuts the
 * first subscription's stream once its acknowledgment has passed, and
 * answers the listen sent again with `reanswer`.
 */
function reopenedBy(target: URL, reanswer: Reanswer): Deno.HttpServer<Deno.NetAddr> {
  let listens = 0;
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const body = await request.text();
    const headers = new Headers(request.headers);
    headers.delete("host");
    const upstream = await fetch(target, { method: request.method, headers, body: body || null });
    if (!body.includes('"subscriptions/listen"')) return upstream;
    if (++listens > 1) return reanswer(body, upstream);
    return acknowledged(upstream, (passed) => passed, true);
  });
}

/**
 * `upstream`'s event stream as far as its acknowledgment, made `rewrite` of;
 * then ended with no result (`cut`: broken), or left open until the client
 * lets go of it.
 */
async function acknowledged(
  upstream: Response,
  rewrite: (passed: string) => string,
  cut = false,
): Promise<Response> {
  const reader = upstream.body!.getReader();
  const decoder = new TextDecoder();
  let passed = "";
  while (!passed.includes(ACKNOWLEDGED)) {
    const { done, value } = await reader.read();
    if (done) break;
    passed += decoder.decode(value, { stream: true });
  }
  if (cut) await reader.cancel();
  return new Response(
    new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(rewrite(passed)));
        if (cut) controller.close();
      },
      cancel: () => reader.cancel(),
    }),
    { headers: upstream.headers },
  );
}

const ACKNOWLEDGED = "notifications/subscriptions/acknowledged";

/** The course's server's answer with `from` replaced by `to`. */
const rewritten = (from: RegExp, to: string): Reanswer => (_body, upstream) =>
  acknowledged(upstream, (passed) => passed.replace(from, to));

/** The answer `reply` to the request `body`, the course's server's own dropped. */
const replaced = (reply: JsonObject): Reanswer => async (body, upstream) => {
  await upstream.body?.cancel();
  return Response.json({ jsonrpc: "2.0", id: JSON.parse(body).id, ...reply });
};

Deno.test("a subscription opened again over HTTP ends by name, however the hostile server answers its listen", async (t) => {
  await using server = serveHttp(askingGrammar());
  const never = async (_body: string, upstream: Response) => {
    await upstream.body?.cancel();
    return new Response(new ReadableStream(), { headers: { "content-type": "text/event-stream" } });
  };
  const cases: [string, Reanswer, (error: unknown) => boolean][] = [
    [
      "never answered",
      never,
      (error) =>
        error instanceof TimeoutError && /not acknowledged within 1000 ms/.test(`${error}`),
    ],
    [
      "acknowledged under another subscription's id",
      rewritten(/("io.modelcontextprotocol\/subscriptionId":)\d+/g, "$1-1"),
      (error) =>
        error instanceof TimeoutError && /not acknowledged within 1000 ms/.test(`${error}`),
    ],
    [
      "acknowledged wider than asked",
      rewritten(/"toolsListChanged":true/, '"toolsListChanged":true,"promptsListChanged":true'),
      (error) =>
        error instanceof ProtocolError &&
        /promptsListChanged, which were not asked/.test(`${error}`),
    ],
    [
      "answered with an error",
      replaced({ error: { code: -32603, message: "not again" } }),
      (error) => error instanceof ProtocolError && /error -32603: not again/.test(`${error}`),
    ],
  ];
  for (const [name, reanswer, ended] of cases) {
    await t.step(name, async () => {
      await using hostile = reopenedBy(server.url, reanswer);
      const url = new URL(`http://127.0.0.1:${hostile.addr.port}${server.url.pathname}`); // an HTTP URL's path
      await using client = new Client(url, { versions: MCP_VERSIONS, timeoutMs: 1000 });
      await client.initialize();
      await client.listTools();
      const subscription = await client.listen({ toolsListChanged: true });
      await assert.rejects(Array.fromAsync(subscription), ended);
    });
  }
});

Deno.test("the course's server lets go of each subscription's keep-alive: many opened and dropped, one left unread, one open as it closes", async () => {
  const server = serveHttp(askingGrammar(), { keepAliveMs: 10 });
  const client = new Client(server.url, { versions: MCP_VERSIONS });
  try {
    await client.initialize();
    for (let i = 0; i < 40; i++) (await client.listen({ toolsListChanged: true })).close();
    // A raw client that asks for a subscription and never reads its stream.
    const unread = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "subscriptions/listen",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "subscriptions/listen",
        params: {
          notifications: { toolsListChanged: true },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    });
    assert.equal(unread.status, 200);
    const open = await client.listen({ toolsListChanged: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Closed with both open: each ends (the test's sanitizers find any timer left).
    await server[Symbol.asyncDispose]();
    assert.deepEqual(await Array.fromAsync(open), []);
    await unread.body?.cancel();
  } finally {
    await client.close();
    await server[Symbol.asyncDispose]();
  }
});

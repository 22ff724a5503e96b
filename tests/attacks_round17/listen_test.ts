// Round 17 of the red team: round 16's leftovers, as a peer of the other era
// sees them. A 2026-07-28 subscription over Streamable HTTP whose stream
// breaks mid-subscription (the proxy of tests/_wire_proxy.ts cuts it, as a
// dropped connection would), in front of the course's own HTTP server and of
// the TypeScript SDK's v2 server: it ended with a ProtocolError and was never
// opened again, where 2026-07-28 says a transport that closes without the
// subscription's result "indicates an unexpected disconnect, which the client
// MAY treat as a trigger to reconnect", and the client re-opens it on stdio.
// Now it is opened again as on stdio (at most MAX_REOPENS times, then it ends
// by name), and the caller is told, by the new acknowledgment, that what
// changed while it was lost was not told; a client closed as its stream
// breaks sends no subscription again. And a quiet subscription to the
// course's server, behind an intermediary that closes idle streams: the
// SDK v2 server keeps its streams alive with a comment every 15 s, as
// 2026-07-28 encourages, the course's server sent nothing, so that the SDK v2
// client, which never opens a subscription again, lost it for good.

import { Client as SdkClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import assert from "node:assert/strict";
import { Client } from "../../lib/mcp/client/client.ts";
import { MAX_REOPENS } from "../../lib/mcp/client/subscription.ts";
import { serveHttp } from "../../lib/mcp/server/http_server.ts";
import { ProtocolError } from "../../lib/mcp/shared/errors.ts";
import type { JsonRpcNotification } from "../../lib/mcp/shared/jsonrpc.ts";
import { MCP_VERSIONS } from "../../lib/mcp/shared/versions.ts";
import { freePort, listeningServer } from "../_listening.ts";
import { askingGrammar, sdkV2Peer } from "../_peers.ts";
import { type Exchange, recordingProxy } from "../_wire_proxy.ts";

const ACKNOWLEDGED = "notifications/subscriptions/acknowledged";

/** The POSTs of `subscriptions/listen` that crossed the proxy, in order. */
const listens = (exchanges: Exchange[]) =>
  exchanges.filter((exchange) => exchange.requestBody.includes('"subscriptions/listen"'));

/**
 * A client of the server at `url` through a recording proxy, subscribed to
 * its tool list; its deadline `timeoutMs` (the client's default when not given).
 */
async function subscribed(url: URL, timeoutMs?: number) {
  const proxy = recordingProxy(url);
  const client = new Client(proxy.url, { versions: MCP_VERSIONS, allowed: ["change"], timeoutMs });
  await client.initialize();
  assert.equal(client.protocolVersion, "2026-07-28");
  await client.listTools();
  const subscription = await client.listen({ toolsListChanged: true });
  const notifications = subscription[Symbol.asyncIterator]();
  /** Cut the stream of the subscription's latest `subscriptions/listen`. */
  const cut = () => listens(proxy.exchanges).at(-1)!.cut();
  const end = async () => {
    await client.close();
    await proxy.settled();
    await proxy[Symbol.asyncDispose]();
  };
  return { client, proxy, subscription, notifications, cut, end };
}

/** The next notification, which must be `method`. */
async function next(
  notifications: AsyncIterator<JsonRpcNotification>,
  method: string,
): Promise<JsonRpcNotification> {
  const { value, done } = await notifications.next();
  assert.equal(done, false, `the subscription ended where ${method} was awaited`);
  assert.equal(value.method, method);
  return value;
}

/** A subscription broken once goes on, telling that it was opened again, then what changes. */
async function brokenOnce(url: URL): Promise<void> {
  const { client, proxy, subscription, notifications, cut, end } = await subscribed(url);
  try {
    cut();
    // Opened again: its new acknowledgment says so, and what it agreed to now.
    const again = await next(notifications, ACKNOWLEDGED);
    assert.deepEqual(again.params?.notifications, { toolsListChanged: true });
    assert.deepEqual(subscription.acknowledged, { toolsListChanged: true });
    assert.equal(await client.callTool("change"), "changed");
    await next(notifications, "notifications/tools/list_changed");
    assert.equal(listens(proxy.exchanges).length, 2);
    subscription.close();
    assert.equal((await notifications.next()).done, true);
  } finally {
    await end();
  }
}

/** A subscription broken each time ends by name, after MAX_REOPENS re-opens. */
async function brokenEachTime(url: URL): Promise<void> {
  const { proxy, notifications, cut, end } = await subscribed(url);
  try {
    for (let reopen = 1; reopen <= MAX_REOPENS; reopen++) {
      cut();
      await next(notifications, ACKNOWLEDGED);
    }
    cut();
    await assert.rejects(
      notifications.next(),
      (error: unknown) =>
        error instanceof ProtocolError &&
        new RegExp(
          `ended before its reply, and it was opened again ${MAX_REOPENS} times in a row already, ` +
            "its stream broken each time",
        ).test(error.message),
    );
    assert.equal(listens(proxy.exchanges).length, MAX_REOPENS + 1);
  } finally {
    await end();
  }
}

/**
 * A subscription broken now and then, each time after it stayed open for the
 * client's deadline: opened again each time, more than MAX_REOPENS times.
 */
async function brokenNowAndThen(url: URL): Promise<void> {
  const timeoutMs = 1500;
  const { client, proxy, subscription, notifications, cut, end } = await subscribed(url, timeoutMs);
  try {
    for (let reopen = 1; reopen <= MAX_REOPENS + 1; reopen++) {
      await new Promise((resolve) => setTimeout(resolve, timeoutMs + 100));
      cut();
      await next(notifications, ACKNOWLEDGED);
    }
    assert.equal(await client.callTool("change"), "changed");
    await next(notifications, "notifications/tools/list_changed");
    assert.equal(listens(proxy.exchanges).length, MAX_REOPENS + 2);
    subscription.close();
  } finally {
    await end();
  }
}

Deno.test("a subscription whose HTTP stream breaks is opened again on the course's server, and says so", async (t) => {
  await using server = serveHttp(askingGrammar());
  await t.step("broken once", () => brokenOnce(server.url));
  await t.step("broken each time", () => brokenEachTime(server.url));
  await t.step("broken now and then", () => brokenNowAndThen(server.url));
  await t.step("a client closed as the stream breaks sends no subscription after", async () => {
    // Closed as soon as the cut is made, a turn of the event loop later, and a little later.
    for (const wait of [undefined, 0, 5, 20]) {
      const { client, proxy, notifications, cut, end } = await subscribed(server.url);
      try {
        cut();
        if (wait !== undefined) await new Promise((resolve) => setTimeout(resolve, wait));
        await client.close();
        // The subscription ends (what it read first is still read): no hang.
        const read = await Array.fromAsync({ [Symbol.asyncIterator]: () => notifications })
          .catch((error) => (assert.ok(error instanceof ProtocolError), []));
        assert.ok(read.every(({ method }) => method === ACKNOWLEDGED));
        await proxy.settled();
        // At most the one re-open under way when it closed, and nothing after.
        assert.ok(listens(proxy.exchanges).length <= 2, `closed after ${wait} ms`);
      } finally {
        await end();
      }
    }
  });
});

Deno.test("a subscription whose HTTP stream breaks is opened again on the SDK v2 server, and says so", async (t) => {
  const port = freePort();
  await using server = await listeningServer(sdkV2Peer("dual", port), port);
  await t.step("broken once", () => brokenOnce(server.url));
  await t.step("broken each time", () => brokenEachTime(server.url));
});

/** Cut the response of `exchange` once nothing has crossed for `idleMs`, until the function returned is called. */
function idleCutter(exchange: Exchange, idleMs: number): () => void {
  let seen = exchange.chunks.length;
  let quietSince = Date.now();
  const timer = setInterval(() => {
    if (exchange.chunks.length !== seen) [seen, quietSince] = [exchange.chunks.length, Date.now()];
    else if (Date.now() - quietSince >= idleMs) exchange.cut();
  }, idleMs / 10);
  return () => clearInterval(timer);
}

Deno.test("a quiet subscription to the course's server outlives an intermediary that closes idle streams: the SDK v2 client still hears", async () => {
  await using server = serveHttp(askingGrammar(), { keepAliveMs: 100 });
  await using proxy = recordingProxy(server.url);
  const client = new SdkClient({ name: "v2", version: "2.4.0" }, {
    capabilities: {},
    versionNegotiation: { mode: "auto" },
  });
  const heard = new Promise((resolve) =>
    client.setNotificationHandler("notifications/tools/list_changed", () => resolve("heard"))
  );
  try {
    await client.connect(new StreamableHTTPClientTransport(proxy.url));
    const subscription = await client.listen({ toolsListChanged: true });
    const stop = idleCutter(listens(proxy.exchanges)[0], 1000);
    // Quiet for two and a half idle timeouts.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    stop();
    await client.callTool({ name: "change", arguments: {} });
    const outcome = await Promise.race([
      heard,
      subscription.closed.then((why) => `closed: ${why}`),
    ]);
    assert.equal(outcome, "heard");
    assert.match(listens(proxy.exchanges)[0].responseBody, /^: keep-alive$/m);
    await subscription.close();
  } finally {
    await client.close();
    await proxy.settled();
  }
});

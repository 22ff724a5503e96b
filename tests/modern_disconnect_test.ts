// A modern (2026-07-28) request over Streamable HTTP is cancelled by the
// client's disconnect ("The server MUST treat a client disconnect as
// cancellation of that request. No notifications/cancelled message is
// required or expected"), whether or not its response had begun: the SDK v2
// client (`@modelcontextprotocol/client` 2.4.0) aborts a call to a tool that
// sends nothing before its reply, and the library's server stops the tool.
// In a legacy session a disconnect is not a cancellation ("Disconnection
// SHOULD NOT be interpreted as the client cancelling its request"), and the
// tool runs on.

import { Client as SdkV2Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import assert from "node:assert/strict";
import { Client } from "../lib/mcp/client/client.ts";
import { serveHttp } from "../lib/mcp/server/http_server.ts";
import { MCP_VERSIONS } from "../lib/mcp/shared/versions.ts";
import type { SessionTool } from "../lib/mcp/server/session_spec.ts";
import { postJson } from "./_raw_http.ts";

/** A tool that answers after `ms`, or says it was stopped; `outcome` settles with which. */
function slowTool(ms: number) {
  const { promise: outcome, resolve } = Promise.withResolvers<"stopped" | "finished">();
  const started = Promise.withResolvers<void>();
  const tool: SessionTool = {
    name: "slow",
    description: "Answers after a while, and sends nothing before.",
    inputSchema: { type: "object" },
    run: (_args, context) =>
      new Promise((done) => {
        started.resolve();
        const timer = setTimeout(() => {
          resolve("finished");
          done({ content: [{ type: "text", text: "finished" }] });
        }, ms);
        context.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve("stopped");
          done({ content: [{ type: "text", text: "stopped" }] });
        });
      }),
  };
  return { tool, outcome, started: started.promise };
}

Deno.test("the SDK v2 client's abort of a 2026-07-28 call whose response has not begun stops the library's tool", async () => {
  // The tool would finish in 20 s: the test asserts which came first, not how soon.
  const { tool, outcome, started } = slowTool(20_000);
  await using server = serveHttp({ name: "slow", version: "1.0.0", sessionTools: [tool] });
  const client = new SdkV2Client({ name: "eras", version: "1.0.0" }, {
    versionNegotiation: { mode: "auto" },
  });
  await client.connect(new StreamableHTTPClientTransport(server.url));
  try {
    assert.equal(client.getProtocolEra(), "modern");
    const abort = new AbortController();
    const call = client.callTool({ name: "slow", arguments: {} }, { signal: abort.signal });
    await started;
    abort.abort();
    await assert.rejects(call, /abort/i);
    assert.equal(await outcome, "stopped");
  } finally {
    await client.close();
  }
});

Deno.test("in a legacy session a client's disconnect is no cancellation: the tool runs on", async () => {
  const { tool, outcome, started } = slowTool(300);
  await using server = serveHttp({ name: "slow", version: "1.0.0", sessionTools: [tool] });
  const post = (body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
    postJson(server.url, body, headers, signal);
  const opened = await post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "e", version: "1" },
    },
  });
  await opened.body?.cancel();
  const session = {
    "mcp-session-id": opened.headers.get("mcp-session-id")!,
    "mcp-protocol-version": "2025-11-25",
  };
  const abort = new AbortController();
  const call = post(
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow", arguments: {} } },
    session,
    abort.signal,
  );
  await started;
  abort.abort();
  await assert.rejects(call);
  assert.equal(await outcome, "finished");
});

Deno.test("a 2026-07-28 call whose client waits for it is not taken for a disconnect: the tool finishes", async () => {
  const { tool, outcome } = slowTool(300);
  await using server = serveHttp({ name: "slow", version: "1.0.0", sessionTools: [tool] });
  await using client = new Client(server.url, { versions: MCP_VERSIONS, allowed: ["slow"] });
  await client.initialize();
  await client.listTools();
  assert.equal(client.protocolVersion, "2026-07-28");
  assert.equal(await client.callTool("slow", {}), "finished");
  assert.equal(await outcome, "finished");
});

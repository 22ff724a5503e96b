// What a Streamable HTTP server of one era answers a client of the other era
// where the two transports differ, held beside the real peers of each era:
// the TypeScript SDK's v2 server (`@modelcontextprotocol/server` 2.4.0) and
// FastMCP 4.2.3, each held to one era (fixtures/sdk_v2_peer.ts,
// fixtures/fastmcp_peer.py), and the library's serveHttp of the same
// versions. The same raw requests go to each, as a client of the other era
// (or a careless one) sends them.

import assert from "node:assert/strict";
import { serveHttp } from "../lib/mcp/server/http_server.ts";
import { MCP_VERSIONS } from "../lib/mcp/shared/versions.ts";
import { GRAMMAR } from "../servers/grammar.ts";
import { freePort, listeningServer } from "./_listening.ts";
import { fastmcpPeer, type PeerEra, pythonInstalled, sdkV2Peer } from "./_peers.ts";
import { postJson as post } from "./_raw_http.ts";

const HANDSHAKE = {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "eras", version: "1.0.0" },
};

/** A request's HTTP status and its body's JSON-RPC error, if it has one. */
async function answer(response: Response): Promise<{ status: number; error?: string }> {
  const text = await response.text();
  const data = text.split("\n").find((line) => line.startsWith("data:"))?.slice(5) ?? text;
  const error = text === "" ? undefined : JSON.parse(data)?.error?.message;
  return { status: response.status, ...(error === undefined ? {} : { error }) };
}

/** The real peers of `era` over HTTP, started at once, beside the library's server of `versions`. */
async function withPeers(
  era: PeerEra,
  versions: string[],
  run: (name: string, url: URL) => Promise<void>,
): Promise<void> {
  const makers = pythonInstalled ? [sdkV2Peer, fastmcpPeer] : [sdkV2Peer];
  const names = ["the SDK v2 server", "FastMCP"];
  const peers = await Promise.all(makers.map((make) => {
    const port = freePort();
    return listeningServer(make(era, port), port);
  }));
  try {
    await using library = serveHttp({ ...GRAMMAR, versions });
    await run("the library's server", library.url);
    for (const [i, peer] of peers.entries()) await run(names[i], peer.url);
  } finally {
    for (const peer of peers) await peer[Symbol.asyncDispose]();
  }
}

Deno.test("a server of 2026-07-28 alone answers a legacy client's GET and DELETE 405, as the real peers do", async () => {
  await withPeers("modern", ["2026-07-28"], async (name, url) => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(url, {
        method,
        headers: { accept: "text/event-stream", "last-event-id": "0", "mcp-session-id": "abc" },
      });
      const { status, error } = await answer(response);
      assert.equal(status, 405, `${name} answered ${method} ${status}: ${error}`);
      assert.match(response.headers.get("allow") ?? "", /POST/, name);
      assert.doesNotMatch(error ?? "", /initialize first/, name);
    }
  });
});

Deno.test("a server of 2026-07-28 alone ignores a session id: a modern request naming one is served", async () => {
  await withPeers("modern", ["2026-07-28"], async (name, url) => {
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" };
    const listed = await post(url, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta },
    }, {
      ...headers,
      "mcp-session-id": "abc",
    });
    assert.equal(listed.status, 200, name);
    assert.equal(listed.headers.get("mcp-session-id"), null, name);
    await listed.body?.cancel();
    // A request of the handshake's era in a session the server never issued: refused for what it
    // lacks (its _meta, its version), not taken for a lost session (404), which would only send
    // a legacy client back to an initialize the server refuses.
    const legacy = await answer(
      await post(url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, {
        "mcp-protocol-version": "2025-11-25",
        "mcp-session-id": "abc",
      }),
    );
    assert.equal(legacy.status, 400, `${name}: ${legacy.error}`);
    // A notification (a legacy client's notifications/initialized, in that session): the
    // library's server takes it, with nothing to do, as the SDK v2 server does (FastMCP refuses
    // it, 400); neither sends the client back to an initialize it would refuse.
    const notified = await answer(
      await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, {
        "mcp-protocol-version": "2025-11-25",
        "mcp-session-id": "abc",
      }),
    );
    assert.equal(notified.status, name === "FastMCP" ? 400 : 202, `${name}: ${notified.error}`);
    assert.doesNotMatch(notified.error ?? "", /initialize/, name);
  });
});

Deno.test("a server of 2025-06-18 alone refuses a session's request that names another version in MCP-Protocol-Version, as the SDK v2 server does", async () => {
  await withPeers("2025-06-18", ["2025-06-18"], async (name, url) => {
    const opened = await post(url, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: HANDSHAKE,
    });
    await opened.body?.cancel();
    const session = opened.headers.get("mcp-session-id");
    assert.ok(session !== null, name);
    const list = (version: string, id: number) =>
      post(url, { jsonrpc: "2.0", id, method: "tools/list" }, {
        "mcp-session-id": session,
        "mcp-protocol-version": version,
      });
    const agreed = await list("2025-06-18", 2);
    assert.equal(agreed.status, 200, name);
    await agreed.body?.cancel();
    if (name === "FastMCP") return; // FastMCP 4.2.3 serves any legacy version named there
    for (const version of ["2024-11-05", "2025-11-25", "2026-07-28", "2099-01-01"]) {
      const { status, error } = await answer(await list(version, 3));
      assert.equal(status, 400, `${name} served a request of ${version}`);
      assert.ok(error?.includes(version), `${name}: ${error}`);
      // The versions it names as supported are its own, and never the one it refused.
      const supported = error!.slice(error!.lastIndexOf("supported"));
      assert.match(supported, /2025-06-18/, `${name}: ${error}`);
      assert.ok(!supported.includes(version), `${name}: ${error}`);
    }
  });
});

Deno.test("a request that names a handshake version in _meta is refused with -32022, and the library's refusal says why without claiming that version", async () => {
  await withPeers("dual", [...MCP_VERSIONS], async (name, url) => {
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": "2025-11-25",
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const response = await post(url, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta },
    }, {
      "mcp-protocol-version": "2025-11-25",
      "mcp-method": "tools/list",
    });
    const text = await response.text();
    const data = text.split("\n").find((line) => line.startsWith("data:"))?.slice(5) ?? text;
    const { error } = JSON.parse(data);
    assert.equal(response.status, 400, name);
    // FastMCP 4.2.3 takes the header's legacy version for a legacy request, and refuses it for
    // its missing session (-32600): the others judge the _meta.
    if (name === "FastMCP") return;
    assert.equal(error.code, -32022, name);
    assert.equal(error.data.requested, "2025-11-25", name);
    assert.ok(error.data.supported.includes("2026-07-28"), name);
    if (name !== "the library's server") return;
    // Its data lists every version it speaks, the handshake's too, as the specification's
    // example does; its words say that 2025-11-25 is spoken through initialize, not in _meta.
    assert.match(error.message, /2025-11-25 .*initialize/);
    assert.doesNotMatch(error.message, /supported: .*2025-11-25/);
  });
});

Deno.test("a dual-era server takes a notification that names no session, as the real peers do, never sending a modern client to initialize", async () => {
  await withPeers("dual", [...MCP_VERSIONS], async (name, url) => {
    const notified = await answer(
      await post(url, {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 1 },
      }, { "mcp-protocol-version": "2026-07-28", "mcp-method": "notifications/cancelled" }),
    );
    assert.equal(notified.status, 202, `${name}: ${notified.error}`);
    // A response names no request a dual-era server made outside a session: it asked nothing.
    const replied = await answer(
      await post(url, { jsonrpc: "2.0", id: 1, result: {} }, {
        "mcp-protocol-version": "2026-07-28",
      }),
    );
    assert.ok(replied.status >= 200 && replied.status < 500, name);
    assert.doesNotMatch(replied.error ?? "", /initialize/, name);
  });
});

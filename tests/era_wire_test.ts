// The interop tests' judge of the wire (_era_wire.ts) finds each kind of
// slip it is there for, and passes the openings a dual-era client is allowed.

import assert from "node:assert/strict";
import { eraSlips, type Side, type Version, type WireMessage } from "./_era_wire.ts";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
/** A message `from` one side, over HTTP when it has `headers`. */
const sentBy =
  (from: Side) => (message: object, headers?: Record<string, string>): WireMessage => ({
    from,
    message: { jsonrpc: "2.0", ...message },
    ...(headers === undefined
      ? {}
      : { http: { method: "POST", headers: new Headers(headers), status: 200 } }),
  });
const client = sentBy("client");
const server = sentBy("server");
const probe = client({ id: 1, method: "server/discover", params: { _meta: ENVELOPE } });
const initialize = client({
  id: 2,
  method: "initialize",
  params: { protocolVersion: "2025-11-25" },
});
const discovered = server({
  id: 1,
  result: { supportedVersions: ["2026-07-28"], resultType: "complete" },
});
const call = (id: number, extra: object = {}) =>
  client({
    id,
    method: "tools/call",
    params: { name: "t", arguments: {}, _meta: ENVELOPE, ...extra },
  });

/** A 2025-06-18 session in which the server asks for a form of `properties` (with `extra` params). */
const asksForm = (properties: object, extra: object = {}) => [
  client({ id: 2, method: "initialize", params: { protocolVersion: "2025-06-18" } }),
  server({
    id: "s",
    method: "elicitation/create",
    params: { message: "?", requestedSchema: { type: "object", properties }, ...extra },
  }),
];

const slips: [string, Version, Side, WireMessage[], RegExp][] = [
  [
    "a 2025-06-18 server asks a string field with a default",
    "2025-06-18",
    "server",
    asksForm({ name: { type: "string", default: "Ada" } }),
    /its field name has a default, which came with 2025-11-25/,
  ],
  [
    "a 2025-06-18 server asks for titled choices (oneOf)",
    "2025-06-18",
    "server",
    asksForm({ size: { type: "string", oneOf: [{ const: "S", title: "Small" }] } }),
    /its field size has titled choices \(oneOf\)/,
  ],
  [
    "a 2025-06-18 server asks for a multiple choice",
    "2025-06-18",
    "server",
    asksForm({ sizes: { type: "array", items: { type: "string", enum: ["S"] } } }),
    /its field sizes has a multiple choice \(type array\)/,
  ],
  [
    "a 2025-06-18 server names the elicitation's mode",
    "2025-06-18",
    "server",
    asksForm({}, { mode: "form" }),
    /its params carry mode, which came with 2025-11-25/,
  ],
  [
    "a 2025-06-18 client answers a form with a list",
    "2025-06-18",
    "client",
    [
      ...asksForm({ size: { type: "string", enum: ["S"] } }),
      client({ id: "s", result: { action: "accept", content: { size: ["S"] } } }),
    ],
    /its content's size is a list, which 2025-06-18's ElicitResult does not hold/,
  ],
  [
    "a 2025-03-26 client answers elicitation/create",
    "2025-03-26",
    "client",
    [
      initialize,
      server({ id: "s", method: "elicitation/create", params: {} }),
      client({ id: "s", result: {} }),
    ],
    /answers elicitation\/create with a result/,
  ],
  [
    "a legacy client sends a multi round-trip retry",
    "2025-11-25",
    "client",
    [initialize, client({ id: 3, method: "tools/call", params: { name: "t", requestState: "x" } })],
    /requestState, a 2026-07-28 field/,
  ],
  [
    "a legacy client sends the 2026-07-28 envelope",
    "2025-06-18",
    "client",
    [initialize, call(3)],
    /_meta carry io\.modelcontextprotocol\/protocolVersion/,
  ],
  [
    "a legacy server sends resultType",
    "2025-11-25",
    "server",
    [initialize, server({ id: 2, result: { resultType: "complete", content: [] } })],
    /resultType, a 2026-07-28 field/,
  ],
  [
    "a 2025-03-26 server sends structured content",
    "2025-03-26",
    "server",
    [initialize, server({ id: 2, result: { content: [], structuredContent: {} } })],
    /2025-03-26 has no structuredContent/,
  ],
  [
    "a 2025-11-25 server sends a structured value that is not an object",
    "2025-11-25",
    "server",
    [initialize, server({ id: 2, result: { content: [], structuredContent: [2, 3, 5] } })],
    /structuredContent is not an object, which 2025-11-25 requires/,
  ],
  [
    "a 2025-06-18 server lists an output schema that is not an object's",
    "2025-06-18",
    "server",
    [
      initialize,
      server({ id: 2, result: { tools: [{ name: "primes", outputSchema: { type: "array" } }] } }),
    ],
    /tool primes has an outputSchema not of "type": "object"/,
  ],
  [
    "a modern client sends the handshake once the era is settled",
    "2026-07-28",
    "client",
    [probe, discovered, client({ method: "notifications/initialized" })],
    /2026-07-28 has no notifications\/initialized/,
  ],
  [
    "a modern client sends ping",
    "2026-07-28",
    "client",
    [probe, discovered, client({ id: 5, method: "ping" })],
    /2026-07-28 has no ping requests from the client/,
  ],
  [
    "a modern request without its version",
    "2026-07-28",
    "client",
    [probe, discovered, client({ id: 5, method: "tools/list", params: {} })],
    /does not name 2026-07-28/,
  ],
  [
    "a modern server asks the client a request of its own",
    "2026-07-28",
    "server",
    [probe, discovered, server({ id: "s", method: "sampling/createMessage", params: {} })],
    /2026-07-28 has no sampling\/createMessage requests from the server/,
  ],
  [
    "a modern server's result without resultType",
    "2026-07-28",
    "server",
    [probe, discovered, call(3), server({ id: 3, result: { content: [] } })],
    /resultType is undefined/,
  ],
  [
    "a client answers a request its server cancelled",
    "2025-11-25",
    "client",
    [
      initialize,
      server({ id: "s", method: "sampling/createMessage", params: {} }),
      server({ method: "notifications/cancelled", params: { requestId: "s" } }),
      client({ id: "s", result: {} }),
    ],
    /answers a request the peer had cancelled/,
  ],
  [
    "a client answers a cancelled request whose id its own probe had used",
    "2024-11-05",
    "client",
    [
      probe,
      initialize,
      server({ id: 1, method: "sampling/createMessage", params: {} }),
      server({ method: "notifications/cancelled", params: { requestId: 1 } }),
      client({ id: 1, error: { code: -32603, message: "the model failed" } }),
    ],
    /answers a request the peer had cancelled/,
  ],
  [
    "a modern HTTP request with a session and no Mcp-Method",
    "2026-07-28",
    "client",
    [call(3, {})].map((entry) => ({
      ...entry,
      http: {
        method: "POST",
        headers: new Headers({ "mcp-session-id": "s", "mcp-protocol-version": "2026-07-28" }),
        status: 0,
      },
    })),
    /carries mcp-session-id[^]*Mcp-Method is null/,
  ],
  [
    "a legacy HTTP request with Mcp-Method",
    "2025-11-25",
    "client",
    [
      initialize,
      client({ id: 3, method: "tools/list" }, {
        "mcp-method": "tools/list",
        "mcp-protocol-version": "2025-11-25",
      }),
    ],
    /carries mcp-method, a 2026-07-28 header/,
  ],
  [
    "a 2025-03-26 HTTP request with MCP-Protocol-Version",
    "2025-03-26",
    "client",
    [initialize, client({ id: 3, method: "tools/list" }, { "mcp-protocol-version": "2025-03-26" })],
    /2025-03-26 has no MCP-Protocol-Version header/,
  ],
  [
    "a legacy HTTP server's refusal that opens a session",
    "2025-11-25",
    "server",
    [
      initialize,
      server({ id: 2, error: { code: -32602, message: "no" } }, { "mcp-session-id": "s" }),
    ],
    /a refusal \(200\) carries Mcp-Session-Id/,
  ],
];

for (const [name, version, side, wire, expected] of slips) {
  Deno.test(`the era judge finds it when ${name}`, () => {
    const found = eraSlips(wire, version, side);
    assert.match(found.join("\n"), expected, JSON.stringify(found));
  });
}

Deno.test("the era judge lets a 2025-06-18 form be, and a 2025-11-25 session ask with what it added", () => {
  const form = asksForm({
    size: { type: "string", enum: ["S", "L"], enumNames: ["Small", "Large"] },
    gift: { type: "boolean", default: false },
  });
  assert.deepEqual(eraSlips(form, "2025-06-18", "server"), []);
  const later = asksForm({ sizes: { type: "array", items: { type: "string", enum: ["S"] } } }, {
    mode: "form",
  });
  later[0] = initialize;
  assert.deepEqual(eraSlips(later, "2025-11-25", "server"), []);
});

Deno.test("the era judge lets a dual-era client probe, fall back, and take a late DiscoverResult", () => {
  const legacy = [
    probe,
    server({ id: 1, error: { code: -32601, message: "Method not found" } }),
    initialize,
    server({ id: 2, result: { protocolVersion: "2025-11-25", capabilities: {} } }),
    client({ method: "notifications/initialized" }),
  ];
  assert.deepEqual(eraSlips(legacy, "2025-11-25", "client"), []);
  assert.deepEqual(eraSlips(legacy, "2025-11-25", "server"), []);
  const late = [
    probe,
    client({ method: "notifications/cancelled", params: { requestId: 1 } }),
    initialize,
    discovered,
    server({ id: 2, error: { code: -32022, message: "2026-07-28 only" } }),
    call(3),
    server({ id: 3, result: { content: [], resultType: "complete" } }),
  ];
  assert.deepEqual(eraSlips(late, "2026-07-28", "client"), []);
  assert.deepEqual(eraSlips(late, "2026-07-28", "server"), []);
});

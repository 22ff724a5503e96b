// Round 14 of the red team: the course's client meets a real server of
// either era (the TypeScript SDK's v2 server, `@modelcontextprotocol/server`
// 2.4.0: tests/fixtures/round14_mrtr_peer.ts) at the odd but valid corners of
// 2026-07-28's multi round-trip requests the interop tests do not reach: a
// `requestState` alone (no question), of quotes, backslashes, line
// separators and astral characters, echoed exactly; one too large for the
// client's frame or body limit, refused by name; a second round that asks
// something else than the first, with a state of its own; progress and a log
// line in a retried round; and questions the client never declared (roots,
// a URL elicitation), which the server refuses to ask. The same tools in a
// 2025-11-25 session run through the SDK's shim, as the server's own
// requests. Over stdio and Streamable HTTP, each server's processes gone
// at the end. And the course's dual-era server with the SDK clients of the
// handshake: an output schema or a structured value that is not an object
// (2026-07-28's) is not sent to them, since 2025-11-25 has neither and both
// SDKs refuse the list or the call; nor is a message of several blocks
// (2025-11-25's) sent to a 2025-06-18 client's model, nor a question (form
// or URL elicitation, sampling with tools) to a client that did not declare
// it, in either era. The SDK v2 client's cancellation stops a tool in either
// era, and a requestState the server never issued is refused. A legacy
// server that exits at the probe (as Python SDK 1.x servers did) is started
// again for the handshake, as the SDK v2 client does.

import { Client as SdkClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as SdkV1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as SdkV1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client, type LogMessage } from "../../lib/mcp/client/client.ts";
import { ProtocolError, ToolError } from "../../lib/mcp/shared/errors.ts";
import type { JsonObject } from "../../lib/mcp/shared/jsonrpc.ts";
import { serveHttp } from "../../lib/mcp/server/http_server.ts";
import type { SessionTool } from "../../lib/mcp/server/session_spec.ts";
import { MCP_VERSIONS } from "../../lib/mcp/shared/versions.ts";
import { GRAMMAR } from "../../servers/grammar.ts";
import { assertGroupGone } from "../_helpers.ts";
import { recordingProxy } from "../_wire_proxy.ts";
import { freePort, listeningServer } from "../_listening.ts";
import { askingGrammar, type PeerEra, sdkV2Peer } from "../_peers.ts";

const FIXTURE = "round14_mrtr_peer.ts";
const TOOLS = ["ask_then_count", "roots", "state_only", "twice", "url"];

/** A session of the course's client with `server`, whose user is Ada and whose model says Hello. */
async function session(
  server: readonly string[] | URL,
  body: (client: Client<readonly string[] | URL>, logs: LogMessage[]) => Promise<void>,
): Promise<void> {
  const logs: LogMessage[] = [];
  const client = new Client<readonly string[] | URL>(server, {
    versions: MCP_VERSIONS,
    allowed: TOOLS,
    timeoutMs: 20_000,
    onLog: (log) => logs.push(log),
    elicit: () => Promise.resolve({ action: "accept", content: { name: "Ada" } }),
    sample: () => Promise.resolve({ text: "Hello", model: "stand-in", stopReason: "endTurn" }),
  });
  let pid: number | undefined;
  try {
    await client.initialize();
    if (Array.isArray(server)) pid = client.pid;
    await client.listTools();
    await body(client, logs);
  } finally {
    await client.close();
  }
  if (pid !== undefined) assertGroupGone(pid);
}

/** Each odd corner, answered as `era` answers it (2026-07-28's rounds, or the shim's requests). */
async function oddCorners(server: readonly string[] | URL, era: "2026-07-28" | "2025-11-25") {
  await session(server, async (client, logs) => {
    assert.equal(client.protocolVersion, era);
    assert.equal(await client.callTool("state_only", { length: 2000 }), "exact");
    assert.equal(await client.callTool("twice"), "Hello, Ada");
    await client.setLogLevel("info");
    const progress: number[] = [];
    const counted = await client.callTool("ask_then_count", {}, {
      onProgress: (step) => progress.push(step.progress),
    });
    assert.equal(counted, "3");
    assert.deepEqual(progress, [1, 2, 3]);
    assert.ok(logs.some((log) => log.data === "counted 3 letters"), JSON.stringify(logs));
    // Never declared: at 2026-07-28 the server's -32021, in a handshake session a tool's failure.
    const undeclared = era === "2026-07-28"
      ? (error: unknown) => error instanceof ProtocolError && /-32021/.test(error.message)
      : (error: unknown) => error instanceof ToolError && /did not declare/.test(error.message);
    await assert.rejects(client.callTool("roots"), undeclared);
    await assert.rejects(client.callTool("url"), undeclared);
  });
}

Deno.test("a real 2026-07-28 server's odd multi round-trip requests, over stdio", async (t) => {
  await t.step("both eras: 2026-07-28's rounds", () => oddCorners(peer("dual"), "2026-07-28"));
  await t.step(
    "2025-11-25 alone: the shim's requests",
    () => oddCorners(peer("2025-11-25"), "2025-11-25"),
  );
  await t.step(
    "a requestState past the frame limit is refused by name, and nothing left running",
    async () => {
      await session(peer("modern"), async (client) => {
        await assert.rejects(
          client.callTool("state_only", { length: 200_000 }),
          (error: unknown) =>
            error instanceof ProtocolError && /65536-byte limit/.test(error.message),
        );
      });
    },
  );
});

Deno.test("a real 2026-07-28 server's odd multi round-trip requests, over Streamable HTTP", async (t) => {
  for (const [era, version] of [["dual", "2026-07-28"], ["2025-11-25", "2025-11-25"]] as const) {
    await t.step(`${era}`, async () => {
      const port = freePort();
      await using server = await listeningServer(peer(era, port), port);
      await oddCorners(server.url, version);
      if (era !== "dual") return;
      // A body past the limit is refused by name; the next call is answered.
      await session(server.url, async (client) => {
        await assert.rejects(
          client.callTool("state_only", { length: 200_000 }),
          (error: unknown) =>
            error instanceof ProtocolError && /65536-byte limit/.test(error.message),
        );
        assert.equal(await client.callTool("twice"), "Hello, Ada");
      });
    });
  }
});

/** How `primes` is listed: an output schema of an array, as 2026-07-28 allows. */
const LISTED = {
  name: "primes",
  description: "The first three primes.",
  inputSchema: { type: "object" },
  outputSchema: { type: "array", items: { type: "integer" } },
};

/** A tool of the course's server whose structured value is an array. */
const PRIMES: SessionTool = {
  ...LISTED,
  run: () => ({ content: [{ type: "text", text: "[2,3,5]" }], structuredContent: [2, 3, 5] }),
};

Deno.test("a dual-era server sends an array's output schema and structured content at 2026-07-28 only: the SDK clients of the handshake list and call the tool", async (t) => {
  // 2026-07-28 loosens "`outputSchema` to allow any JSON Schema 2020-12 keywords, and
  // `structuredContent` to allow any JSON value"; 2025-11-25's schema has
  // `outputSchema?: { type: "object", … }` and `structuredContent?: { [key: string]: unknown }`.
  await using server = serveHttp({
    ...GRAMMAR,
    sessionTools: [PRIMES],
    list: () => ({ tools: [LISTED] }),
  });
  const clients = {
    "the SDK 1.32 client (2025-11-25)": () => ({
      client: new SdkV1Client({ name: "v1", version: "1.32.2" }),
      transport: new SdkV1Transport(server.url),
    }),
    "the SDK v2 client, legacy (2025-11-25)": () => ({
      client: new SdkClient({ name: "v2", version: "2.4.0" }),
      transport: new StreamableHTTPClientTransport(server.url),
    }),
    "the SDK v2 client, auto (2026-07-28)": () => ({
      client: new SdkClient({ name: "v2", version: "2.4.0" }, {
        versionNegotiation: { mode: "auto" },
      }),
      transport: new StreamableHTTPClientTransport(server.url),
    }),
  };
  for (const [which, make] of Object.entries(clients)) {
    await t.step(which, async () => {
      const { client, transport } = make();
      try {
        await client.connect(transport);
        const modern = /2026-07-28/.test(which);
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((tool: { outputSchema?: unknown }) => tool.outputSchema), [
          modern ? LISTED.outputSchema : undefined,
        ]);
        const result = await client.callTool({ name: "primes", arguments: {} });
        assert.deepEqual(result.content, [{ type: "text", text: "[2,3,5]" }]);
        assert.deepEqual(result.structuredContent, modern ? [2, 3, 5] : undefined);
      } finally {
        await client.close();
      }
    });
  }
});

/**
 * A tool of the course's server, `name`, that asks the client's model with
 * `params` and answers with what the model said, as JSON.
 */
function askingModel(name: string, description: string, params: JsonObject): SessionTool {
  return {
    name,
    description,
    inputSchema: { type: "object" },
    run: async (_args, context) => {
      const said = await context.request("sampling/createMessage", params, name);
      return { content: [{ type: "text", text: JSON.stringify(said.content) }] };
    },
  };
}

/** A tool of the course's server that asks the client's model with a message of two blocks. */
const ASK_IN_BLOCKS = askingModel("ask_in_blocks", "Asks the client's model, in two blocks.", {
  messages: [{
    role: "user",
    content: [{ type: "text", text: "Say" }, { type: "text", text: " hello" }],
  }],
  maxTokens: 8,
});

Deno.test("a message of several blocks is sent to a client's model from 2025-11-25 only: at 2025-06-18 the tool fails, saying so", async (t) => {
  // 2025-11-25 made a SamplingMessage's content "SamplingContent | SamplingContent[]";
  // at 2025-06-18 it is one block. The SDK client takes either; the course's refuses a list.
  await using server = serveHttp({ ...GRAMMAR, sessionTools: [ASK_IN_BLOCKS] });
  for (const version of ["2025-06-18", "2025-11-25"]) {
    await t.step(version, async () => {
      const heard: unknown[] = [];
      const client = new SdkClient({ name: "v2", version: "2.4.0" }, {
        capabilities: { sampling: {} },
        supportedProtocolVersions: [version],
      });
      client.setRequestHandler("sampling/createMessage", (request) => {
        heard.push(request.params.messages[0].content);
        return { role: "assistant", content: { type: "text", text: "Hi" }, model: "stand-in" };
      });
      try {
        await client.connect(new StreamableHTTPClientTransport(server.url));
        assert.equal(client.getNegotiatedProtocolVersion(), version);
        const result = await client.callTool({ name: "ask_in_blocks", arguments: {} });
        const [said] = result.content as { text: string }[];
        if (version === "2025-11-25") {
          assert.equal(heard.length, 1);
          assert.equal(said.text, JSON.stringify({ type: "text", text: "Hi" }));
        } else {
          assert.deepEqual(heard, [], "the model was asked with a list of blocks at 2025-06-18");
          assert.equal(result.isError, true);
          assert.match(said.text, /list of content blocks, which came with 2025-11-25/);
        }
      } finally {
        await client.close();
      }
    });
  }
});

/** A tool of the course's server that asks the user to visit a page (2025-11-25's URL mode). */
const SIGN_IN: SessionTool = {
  name: "sign_in",
  description: "Asks the user to sign in on a page.",
  inputSchema: { type: "object" },
  run: async (_args, context) => {
    const url = "https://example.com/sign-in";
    const params = { mode: "url", message: "Sign in", url, elicitationId: "e1" };
    const answer = await context.request("elicitation/create", params, "sign_in");
    return { content: [{ type: "text", text: String(answer.action) }] };
  },
};

Deno.test("in a 2025-11-25 session the server asks only what the client declared: elicitation, and its URL mode", async (t) => {
  // 2025-11-25: "Servers MUST NOT send elicitation requests with modes that are not
  // supported by the client", and (lifecycle) "Only use capabilities that were
  // successfully negotiated". `greet` asks in form mode, `sign_in` in URL mode.
  const spec = askingGrammar();
  await using server = serveHttp({ ...spec, sessionTools: [...spec.sessionTools!, SIGN_IN] });
  const cases = [
    [{}, "greet", /declare/],
    [{ elicitation: {} }, "sign_in", /declare/],
    [{ elicitation: { form: {} } }, "sign_in", /declare/],
    [{ elicitation: { url: {} } }, "sign_in", /^accept$/],
    // "an empty capabilities object is equivalent to declaring support for `form` mode only"
    [{ elicitation: { url: {} } }, "greet", /declare/],
  ] as const;
  for (const [capabilities, tool, said] of cases) {
    await t.step(`${tool}, the client declaring ${JSON.stringify(capabilities)}`, async () => {
      await using proxy = recordingProxy(server.url);
      const client = new SdkClient({ name: "v2", version: "2.4.0" }, { capabilities });
      if ("elicitation" in capabilities) {
        client.setRequestHandler("elicitation/create", () => ({ action: "accept" as const }));
      }
      try {
        await client.connect(new StreamableHTTPClientTransport(proxy.url));
        assert.equal(client.getNegotiatedProtocolVersion(), "2025-11-25");
        const result = await client.callTool({ name: tool, arguments: {} });
        const [{ text }] = result.content as { text: string }[];
        assert.match(text, said);
      } finally {
        await client.close();
      }
      await proxy.settled();
      const asked = proxy.exchanges.some((exchange) =>
        exchange.responseBody.includes('"method":"elicitation/create"')
      );
      assert.equal(asked, said.source === "^accept$", "what the server asked");
    });
  }
});

Deno.test("at 2026-07-28 a client that declared URL elicitation alone is not asked in form mode: -32021", async () => {
  await using server = serveHttp(askingGrammar());
  await using proxy = recordingProxy(server.url);
  const client = new SdkClient({ name: "v2", version: "2.4.0" }, {
    capabilities: { elicitation: { url: {} } },
    versionNegotiation: { mode: "auto" },
  });
  client.setRequestHandler("elicitation/create", () => ({ action: "accept" as const }));
  try {
    await client.connect(new StreamableHTTPClientTransport(proxy.url));
    assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
    await assert.rejects(client.callTool({ name: "greet", arguments: {} }), /capabilit/i);
  } finally {
    await client.close();
  }
  await proxy.settled();
  const asked = proxy.exchanges.some((exchange) =>
    exchange.responseBody.includes("input_required")
  );
  assert.equal(asked, false, "the server asked in form mode");
});

/** A tool of the course's server that offers the client's model a tool of its own (2025-11-25's sampling with tools). */
const ASK_WITH_TOOLS = askingModel(
  "ask_with_tools",
  "Asks the client's model, offering it a tool.",
  {
    messages: [{ role: "user", content: { type: "text", text: "Weather in Paris?" } }],
    tools: [{ name: "weather", inputSchema: { type: "object" } }],
    maxTokens: 8,
  },
);

Deno.test("a client that did not declare sampling.tools is not sent a tool-enabled sampling request, in either era", async (t) => {
  // "Servers MUST NOT send tool-enabled sampling requests to Clients that have not
  // declared support for tool use via the `sampling.tools` capability."
  await using server = serveHttp({ ...GRAMMAR, sessionTools: [ASK_WITH_TOOLS] });
  const cases = [["legacy", false], ["auto", false], ["legacy", true], ["auto", true]] as const;
  for (const [mode, tools] of cases) {
    await t.step(`${mode}, ${tools ? "declaring" : "not declaring"} sampling.tools`, async () => {
      const heard: unknown[] = [];
      const client = new SdkClient({ name: "v2", version: "2.4.0" }, {
        capabilities: { sampling: tools ? { tools: {} } : {} },
        ...(mode === "auto" ? { versionNegotiation: { mode } } : {}),
      });
      client.setRequestHandler("sampling/createMessage", (request) => {
        heard.push(request.params);
        return { role: "assistant", content: { type: "text", text: "Sunny" }, model: "stand-in" };
      });
      try {
        await client.connect(new StreamableHTTPClientTransport(server.url));
        const outcome = await client.callTool({ name: "ask_with_tools", arguments: {} }).then(
          (result) => JSON.stringify(result),
          (error: Error) => error.message,
        );
        assert.equal(heard.length, tools ? 1 : 0, "whether the model was offered a tool");
        assert.match(outcome, tools ? /Sunny/ : /tools/);
      } finally {
        await client.close();
      }
    });
  }
});

Deno.test("the SDK v2 client's cancellation stops the course's tool in either era, and a requestState the server never issued is refused", async (t) => {
  const heard: string[] = [];
  const slow: SessionTool = {
    name: "slow",
    description: "Waits until it is cancelled.",
    inputSchema: { type: "object" },
    run: (_args, context) =>
      new Promise((resolve) => {
        heard.push("started");
        context.signal.addEventListener("abort", () => {
          heard.push("stopped");
          resolve({ content: [{ type: "text", text: "too late" }] });
        });
      }),
  };
  /** Wait until `count` things were heard; a bound (not a measure) so that a broken server fails, not hangs. */
  const heardAtLeast = async (count: number) => {
    for (let tries = 0; heard.length < count; tries++) {
      assert.ok(tries < 1000, `heard only ${heard.join(", ") || "nothing"}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  await using server = serveHttp({ ...GRAMMAR, sessionTools: [slow] });
  for (const mode of ["legacy", "auto"] as const) {
    await t.step(mode, async () => {
      heard.length = 0;
      const client = new SdkClient({ name: "v2", version: "2.4.0" }, {
        ...(mode === "auto" ? { versionNegotiation: { mode } } : {}),
      });
      try {
        await client.connect(new StreamableHTTPClientTransport(server.url));
        const stop = new AbortController();
        const call = client.callTool({ name: "slow", arguments: {} }, { signal: stop.signal });
        await heardAtLeast(1);
        stop.abort();
        await assert.rejects(call, /abort/i);
        await heardAtLeast(2);
        assert.deepEqual(heard, ["started", "stopped"]);
        if (mode === "auto") {
          const forged = { name: "slow", arguments: {}, requestState: "eyJmb3JnZWQiOnRydWV9" };
          await assert.rejects(
            client.request({ method: "tools/call", params: forged }),
            /requestState failed verification/,
          );
          assert.deepEqual(heard, ["started", "stopped"], "the forged round ran the tool");
        }
      } finally {
        await client.close();
      }
    });
  }
});

Deno.test("a legacy server that exits at the probe is started again for the handshake, as the SDK v2 client does", async (t) => {
  // 2026-07-28 (stdio): a server that "does not respond within a reasonable timeout"
  // to the probe "is legacy. Fall back to the initialize handshake", and "If the
  // server process exits unexpectedly, the client SHOULD restart it".
  const dies = [
    Deno.execPath(),
    "run",
    "--quiet",
    fileURLToPath(new URL("../fixtures/legacy_peer.ts", import.meta.url)),
    "exit",
  ];
  await t.step("the SDK v2 client, auto", async () => {
    const client = new SdkClient({ name: "v2", version: "2.4.0" }, {
      versionNegotiation: { mode: "auto" },
    });
    try {
      await client.connect(
        new StdioClientTransport({ command: dies[0], args: dies.slice(1), stderr: "ignore" }),
      );
      assert.equal(client.getNegotiatedProtocolVersion(), "2025-11-25");
    } finally {
      await client.close();
    }
  });
  await t.step("the course's dual-era client", async () => {
    const client = new Client(dies, { versions: MCP_VERSIONS, allowed: ["echo"] });
    const first = client.pid;
    let second: number | undefined;
    try {
      await client.initialize();
      second = client.pid;
      assert.equal(client.protocolVersion, "2025-11-25");
      await client.listTools();
      assert.equal(await client.callTool("echo", { text: "chocolate" }), "chocolate");
    } finally {
      await client.close();
    }
    assert.notEqual(second, first);
    assertGroupGone(first);
    assertGroupGone(second!);
  });
});

/** The round 14 peer of `era`: over stdio, or over HTTP on `port`. */
function peer(era: PeerEra, port?: number): string[] {
  return sdkV2Peer(era, port, FIXTURE);
}

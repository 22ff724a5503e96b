// Where the library slipped between versions (issue 39's list), each fixed and
// held here: what a legacy server may ask at each version, what a 2025-11-25
// client declared (form-mode elicitation, no tasks), a server's cancellation of
// its own request, the HTTP server's refused initialize, and the client's API
// for completion, progress and the log level.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "../lib/mcp/client/client.ts";
import type { LogMessage, Progress } from "../lib/mcp/client/server_news.ts";
import type { SamplingRequest } from "../lib/mcp/client/sampling.ts";
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { MCP_VERSIONS } from "../lib/mcp/shared/versions.ts";
import { serveHttp } from "../lib/mcp/server/http_server.ts";
import type { SessionSpec } from "../lib/mcp/server/session_spec.ts";
import { rawHttpServer } from "./_raw_http.ts";

const ASKING = fileURLToPath(new URL("./fixtures/asking.ts", import.meta.url));

/** A client of the asking fixture at `version`, asking `request`; what its tool call answered. */
async function asked(
  version: string,
  request: JsonObject,
  options: {
    elicit?: () => Promise<JsonObject>;
    sample?: (r: SamplingRequest, o?: { signal: AbortSignal }) => Promise<JsonObject>;
    cancel?: boolean;
  },
): Promise<unknown> {
  const command = [Deno.execPath(), "run", "--quiet", ASKING, version, JSON.stringify(request)];
  if (options.cancel) command.push("cancel");
  await using client = new Client(command, {
    allowed: ["ask"],
    timeoutMs: 10_000,
    ...(options.elicit === undefined ? {} : { elicit: options.elicit as never }),
    ...(options.sample === undefined ? {} : { sample: options.sample as never }),
  });
  await client.initialize();
  await client.listTools();
  return JSON.parse(await client.callTool("ask"));
}

const FORM = {
  method: "elicitation/create",
  params: {
    message: "Name?",
    requestedSchema: { type: "object", properties: { name: { type: "string" } } },
  },
};

for (const version of ["2024-11-05", "2025-03-26"]) {
  Deno.test(`at ${version} elicitation/create is a method not found, and the user is never asked`, async () => {
    let asks = 0;
    const elicit = () => (asks++, Promise.resolve({ action: "accept", content: { name: "Ada" } }));
    const reply = await asked(version, FORM, { elicit }) as { error: { code: number } };
    assert.equal(reply.error.code, -32601);
    assert.equal(asks, 0);
  });
}

Deno.test("at 2025-06-18 elicitation/create is answered by the user", async () => {
  const elicit = () => Promise.resolve({ action: "accept", content: { name: "Ada" } });
  const reply = await asked("2025-06-18", FORM, { elicit }) as { result: JsonObject };
  assert.deepEqual(reply.result, { action: "accept", content: { name: "Ada" } });
});

Deno.test("a URL-mode elicitation sent to a client that declared form mode only is refused with -32602", async () => {
  let asks = 0;
  const elicit = () => (asks++, Promise.resolve({ action: "accept" }));
  const url = {
    method: "elicitation/create",
    params: {
      mode: "url",
      message: "Sign in",
      url: "https://example.com/login",
      elicitationId: "e1",
    },
  };
  const reply = await asked("2025-11-25", url, { elicit }) as {
    error: { code: number; message: string };
  };
  assert.equal(reply.error.code, -32602);
  assert.match(reply.error.message, /form mode only/);
  assert.equal(asks, 0);
});

const BLOCKS = {
  method: "sampling/createMessage",
  params: {
    messages: [{
      role: "user",
      content: [{ type: "text", text: "vanilla " }, { type: "text", text: "stock" }],
    }],
    maxTokens: 8,
  },
};

Deno.test("at 2025-11-25 a sampling request whose content is an array of blocks is answered", async () => {
  const seen: string[] = [];
  const sample = (request: SamplingRequest) => {
    seen.push(request.messages[0].text);
    return Promise.resolve({ text: "ice cream", model: "stand-in", stopReason: "endTurn" });
  };
  const reply = await asked("2025-11-25", BLOCKS, { sample }) as { result: JsonObject };
  assert.deepEqual(seen, ["vanilla stock"]);
  assert.equal((reply.result.content as JsonObject).text, "ice cream");
});

Deno.test("at 2025-06-18, which has one block per message, an array of blocks is still refused", async () => {
  const sample = () => Promise.resolve({ text: "x", model: "m", stopReason: "endTurn" });
  const reply = await asked("2025-06-18", BLOCKS, { sample }) as { error: { code: number } };
  assert.equal(reply.error.code, -32602);
});

Deno.test("a sampling request the server has cancelled is not answered, and the model is told", async () => {
  let aborted = false;
  const sample = async (_request: SamplingRequest, options?: { signal: AbortSignal }) => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    aborted = options?.signal.aborted ?? false;
    return { text: "late", model: "m", stopReason: "endTurn" };
  };
  const request = {
    method: "sampling/createMessage",
    params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 8 },
  };
  assert.equal(await asked("2025-11-25", request, { sample, cancel: true }), "no reply");
  assert.equal(aborted, true);
});

Deno.test("a tool whose execution.taskSupport is required is refused by name, and never called plainly", async () => {
  const task = {
    name: "slow",
    inputSchema: { type: "object" },
    execution: { taskSupport: "required" },
  };
  const ran = { content: [{ type: "text", text: "ran" }] };
  await using server = rawHttpServer("2025-11-25", {
    "tools/list": { tools: [task] },
    "tools/call": ran,
  });
  await using client = new Client(server.url, { allowed: ["slow"] });
  await client.initialize();
  await client.listTools();
  await assert.rejects(client.callTool("slow"), (error) => {
    assert.ok(error instanceof ProtocolError);
    assert.match(error.message, /slow requires task-augmented execution .* not called plainly/);
    return true;
  });
  assert.equal(server.methods.includes("tools/call"), false);
});

Deno.test("the HTTP server answers a refused initialize without a session id, and serves nothing in it", async () => {
  await using server = serveHttp({ name: "s", version: "1", tools: [] });
  const response = await fetch(server.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { capabilities: {} },
    }),
  });
  assert.equal((await response.json()).error.code, -32602);
  assert.equal(response.headers.get("mcp-session-id"), null);
  assert.equal(server.sessions, 0);
});

/** A library server with a tool that reports progress and logs, completion, and logging. */
const NEWS: SessionSpec = {
  name: "news",
  version: "1",
  tools: [],
  capabilities: { logging: {}, completions: {} },
  sessionTools: [{
    name: "count",
    description: "Counts to three, saying so.",
    inputSchema: { type: "object" },
    run: (_args, context) => {
      for (const n of [1, 2, 3]) context.progress(n, 3, `counted ${n}`);
      context.log("debug", "a detail");
      context.log("warning", "a warning");
      return { content: [{ type: "text", text: "3" }] };
    },
  }],
  handlers: {
    "completion/complete": (params) => {
      const value = String((params.argument as JsonObject).value);
      return {
        completion: {
          values: ["paris", "perth", "prague"].filter((city) => city.startsWith(value)),
          hasMore: false,
        },
      };
    },
  },
};

for (const versions of [undefined, MCP_VERSIONS]) {
  const era = versions === undefined ? "legacy" : "modern";
  Deno.test(`a ${era} client hears progress on a call it gave a callback, and logs at the level it set`, async () => {
    await using server = serveHttp(NEWS);
    const logs: LogMessage[] = [];
    await using client = new Client(server.url, {
      allowed: ["count"],
      versions,
      onLog: (log) => void logs.push(log),
    });
    await client.initialize();
    await client.listTools();
    const progress: Progress[] = [];
    assert.equal(
      await client.callTool("count", {}, { onProgress: (p) => void progress.push(p) }),
      "3",
    );
    assert.deepEqual(progress.map((p) => p.progress), [1, 2, 3]);
    assert.deepEqual(progress[2], { progress: 3, total: 3, message: "counted 3" });
    // Modern: no log for a request that set no level; legacy: the session's default, every level.
    assert.deepEqual(
      logs.map((log) => log.data),
      era === "modern" ? [] : ["a detail", "a warning"],
    );
    logs.length = 0;
    await client.setLogLevel("warning");
    await client.callTool("count");
    assert.deepEqual(logs, [{ level: "warning", data: "a warning" }]);
  });

  Deno.test(`a ${era} client asks for completion and takes the server's suggestions`, async () => {
    await using server = serveHttp(NEWS);
    await using client = new Client(server.url, { versions });
    await client.initialize();
    const completion = await client.complete({ type: "ref/prompt", name: "trip" }, {
      name: "city",
      value: "p",
    });
    assert.deepEqual(completion, { values: ["paris", "perth", "prague"], hasMore: false });
  });
}

Deno.test("completion and the log level are refused before sending by a server that offers neither", async () => {
  await using server = serveHttp({ name: "plain", version: "1", tools: [] });
  await using client = new Client(server.url);
  await client.initialize();
  await assert.rejects(
    client.complete({ type: "ref/prompt", name: "p" }, { name: "a", value: "" }),
    /offers no completions/,
  );
  await assert.rejects(client.setLogLevel("info"), /offers no logging/);
});

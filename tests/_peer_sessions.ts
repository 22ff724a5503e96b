// The course's client in a session with a real server of one era (the SDK v2
// peer or the FastMCP peer, which offer the same four tools), as a new user
// would run it: connect, list, call each tool (with progress and the server's
// log lines), complete and get a prompt, hear of a change (on a subscription
// at 2026-07-28), answer the server's questions with `elicit` and `sample`,
// close. Every answer is checked, and so is the
// wire: nothing of one era sent to a peer of the other (see _era_wire.ts).

import assert from "node:assert/strict";
import { Client, type LogMessage } from "../lib/mcp/client/client.ts";
import type { ElicitResult } from "../lib/mcp/client/elicitation.ts";
import type { Sample } from "../lib/mcp/client/sampling.ts";
import { ProtocolError, ToolError } from "../lib/mcp/shared/errors.ts";
import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { MCP_VERSIONS, type McpVersion } from "../lib/mcp/shared/versions.ts";
import { eraSlips, httpWire, transcriptWire, type WireMessage } from "./_era_wire.ts";
import { assertGroupGone } from "./_helpers.ts";
import { ORDER } from "./_peers.ts";
import { recordingProxy } from "./_wire_proxy.ts";

const TOOLS = ["ask", "count_slowly", "describe", "refuse", "word_count"];
/** A tool some peers have besides: it tells listeners that the tool list changed. */
const CHANGE = "change";

/** What a session with a peer must come to. */
export interface Expected {
  /** The version the two agree on. */
  version: McpVersion;
  /**
   * Whether `ask` gets its answer: in a session where the server can ask
   * (2026-07-28's multi round-trip requests, or a handshake session from
   * 2025-06-18 on with a channel for the server's requests); otherwise it
   * fails as a tool, and the user is never asked.
   */
  asks: boolean;
  /** The client's model. @default {a stand-in that answers "Hello" at once} */
  model?: Sample;
}

/** A server to reach: a command (stdio) or an MCP endpoint (HTTP). */
export type Server = readonly string[] | URL;

/**
 * A session of the course's client, speaking `versions`, with the peer
 * `server`: each answer checked against `expected`, the wire read for
 * anything of the other era, and (over stdio) nothing of the server's
 * process group left running.
 */
export async function peerSession(
  server: Server,
  versions: readonly McpVersion[],
  expected: Expected,
): Promise<void> {
  const asked: string[] = [];
  const logs: LogMessage[] = [];
  await withWire(server, versions, { asked, logs, model: expected.model }, async (client) => {
    await client.initialize();
    assert.equal(client.protocolVersion, expected.version);
    const tools = Object.keys(await client.listTools());
    assert.deepEqual(tools.filter((tool) => tool !== CHANGE).sort(), TOOLS);
    assert.equal(await client.callTool("word_count", { text: "vanilla stock needs review" }), "4");
    assert.deepEqual(
      JSON.parse(await client.callTool("describe", { flavor: "vanilla", tubs: 12 })),
      ORDER,
    );
    if (expected.version >= "2025-06-18") {
      const whole = await client.callToolResult("describe", { flavor: "vanilla", tubs: 12 });
      assert.deepEqual(whole.structuredContent, ORDER);
    }
    await assert.rejects(
      client.callTool("refuse", { reason: "out of vanilla" }),
      (error: unknown) => error instanceof ToolError && /out of vanilla/.test(error.message),
    );
    // Progress and log lines, each era its own way (a token and _meta.logLevel, or logging/setLevel).
    await client.setLogLevel("info");
    const progress: number[] = [];
    const counted = await client.callTool("count_slowly", { text: "vanilla stock needs review" }, {
      onProgress: (step) => progress.push(step.progress),
    });
    assert.equal(counted, "4");
    assert.deepEqual(progress, [1, 2, 3, 4]);
    assert.ok(logs.some((log) => JSON.stringify(log.data).includes("counted 4 words")), `${logs}`);
    await client.listPrompts();
    const flavors = await client.complete({ type: "ref/prompt", name: "order" }, {
      name: "flavor",
      value: "v",
    });
    assert.deepEqual(flavors.values, ["vanilla", "vinegar"]);
    const prompt = await client.getPrompt("order", { flavor: "vanilla" });
    assert.deepEqual(prompt.messages.map((message) => message.content), [
      { type: "text", text: "One tub of vanilla, please." },
    ]);
    if (tools.includes(CHANGE)) await changesHeard(client, expected.version);
    if (expected.asks) {
      assert.equal(await client.callTool("ask"), "Hello, Ada");
      assert.deepEqual(asked.sort(), ["elicit", "sample"]);
    } else {
      await assert.rejects(client.callTool("ask"), ToolError);
      assert.ok(!asked.includes("elicit"), `the user was asked at ${expected.version}`);
    }
  }, expected.version);
}

/**
 * A session of the course's client with many calls in flight at once (at
 * most four; eight sent), in the era agreed at `version`: calls that ask
 * the user and the model (each its own rounds, or its own requests of the
 * server) beside calls that report progress, each answered as if alone, its
 * progress its own.
 */
export async function crowdedSession(
  server: Server,
  versions: readonly McpVersion[],
  version: McpVersion,
): Promise<void> {
  await withWire(server, versions, { asked: [], maxInFlight: 4 }, async (client) => {
    await client.initialize();
    assert.equal(client.protocolVersion, version);
    await client.listTools();
    const texts = ["vanilla", "vanilla stock", "vanilla stock needs", "vanilla stock needs review"];
    const counts = texts.map(async (text) => {
      const progress: number[] = [];
      const counted = await client.callTool("count_slowly", { text }, {
        onProgress: (step) => progress.push(step.progress),
      });
      return { counted, progress };
    });
    const asks = texts.map(() => client.callTool("ask"));
    assert.deepEqual(await Promise.all(asks), texts.map(() => "Hello, Ada"));
    assert.deepEqual(
      await Promise.all(counts),
      texts.map((_text, index) => ({
        counted: String(index + 1),
        progress: Array.from({ length: index + 1 }, (_, step) => step + 1),
      })),
    );
  }, version);
}

/**
 * What the course's client hears when the tool list changes: at
 * 2026-07-28, on a subscription it opened (`subscriptions/listen`); in a
 * handshake session it has none to open (refused before anything is sent),
 * and the server's unasked notification is passed over.
 */
async function changesHeard(client: Client<Server>, version: McpVersion): Promise<void> {
  if (version !== "2026-07-28") {
    await assert.rejects(client.listen({ toolsListChanged: true }), ProtocolError);
    assert.equal(await client.callTool(CHANGE), "changed");
    return;
  }
  await using subscription = await client.listen({ toolsListChanged: true });
  const heard = subscription[Symbol.asyncIterator]().next();
  assert.equal(await client.callTool(CHANGE), "changed");
  const { value } = await heard;
  assert.equal(value?.method, "notifications/tools/list_changed");
}

/**
 * A session of the course's client, speaking `versions` only (one era),
 * with a server that speaks none of them: connecting fails with a
 * `ProtocolError` that matches `why`, and the client sends only its era's
 * opening request, once (`initialize`, or `server/discover`).
 */
export async function refusedSession(
  server: Server,
  versions: readonly McpVersion[],
  why: RegExp,
): Promise<void> {
  const wire = await withWire(server, versions, { asked: [] }, async (client) => {
    await assert.rejects(
      client.initialize(),
      (error: unknown) => error instanceof ProtocolError && why.test(error.message),
    );
  }, versions[0]);
  // Its requests: a probe that timed out is also cancelled (notifications/cancelled, of both eras).
  const sent = wire.filter((entry) => entry.from === "client")
    .map((entry) => entry.message as JsonObject | undefined)
    .filter((message) => message !== undefined && "id" in message && "method" in message)
    .map((message) => message!.method);
  assert.deepEqual(sent, [versions[0] === "2026-07-28" ? "server/discover" : "initialize"]);
}

/**
 * Run `body` with a client of `server` whose wire is recorded (what it
 * asks the user and the model noted in `asked`), then close it, judge the
 * wire at `version`, and resolve with it.
 */
export async function withWire(
  server: Server,
  versions: readonly McpVersion[],
  { asked, logs, model, maxInFlight, allowed = [...TOOLS, CHANGE], limit, timeoutMs = 60_000 }: {
    asked: string[];
    logs?: LogMessage[];
    model?: Sample;
    maxInFlight?: number;
    /** The tools the client may call. @default {the four tools and `change`} */
    allowed?: string[];
    /** The most bytes one incoming frame may take. @default {the client's} */
    limit?: number;
    /** Each request's deadline. @default {60000} */
    timeoutMs?: number;
  },
  body: (client: Client<Server>) => Promise<void>,
  version: McpVersion,
): Promise<WireMessage[]> {
  const lines: string[] = [];
  const proxy = server instanceof URL ? recordingProxy(server) : undefined;
  const client = new Client<Server>(proxy?.url ?? server, {
    versions,
    allowed,
    timeoutMs,
    maxInFlight,
    limit,
    transcript: (direction, line) => lines.push(`${direction} ${line}`),
    onLog: (log) => logs?.push(log),
    elicit: (params) => {
      asked.push("elicit");
      return Promise.resolve(answerEach(params));
    },
    sample: (request, options) => {
      asked.push("sample");
      return model?.(request, options) ??
        Promise.resolve({ text: "Hello", model: "stand-in", stopReason: "endTurn" });
    },
  });
  let wire: WireMessage[];
  try {
    await body(client);
  } finally {
    await client.close();
    if (proxy !== undefined) {
      await proxy.settled();
      await proxy[Symbol.asyncDispose]();
    }
  }
  if (proxy === undefined) {
    assertGroupGone(client.pid);
    wire = transcriptWire(lines);
  } else wire = httpWire(proxy.exchanges);
  assert.deepEqual(eraSlips(wire, version, "client"), [], lines.join("\n"));
  return wire;
}

/** The user's answer to a form: "Ada" for each field asked. */
function answerEach(params: JsonObject): ElicitResult {
  const schema = params.requestedSchema as { properties?: Record<string, unknown> } | undefined;
  const fields = Object.keys(schema?.properties ?? {});
  return { action: "accept", content: Object.fromEntries(fields.map((field) => [field, "Ada"])) };
}

/**
 * What the stdio server `command`, whose tool `order` asks a form (such as
 * `formPeer` in tests/_peers.ts), received from the course's client when the
 * user accepted, typing nothing: the defaults the client filled in.
 */
export async function formAnswered(command: readonly string[]): Promise<unknown> {
  const [said] = await formAnswers(command, [{ action: "accept", content: {} }]);
  if (said instanceof Error) throw said;
  return said;
}

/**
 * Calls `order` on the stdio server `command` (as {@linkcode formAnswered})
 * once for each of `answers`, in one session speaking `versions`, the user
 * giving that answer (an `ElicitResult`, or not quite one): what each call
 * gave, the server's text as JSON or the call's error.
 */
export async function formAnswers(
  command: readonly string[],
  answers: readonly JsonObject[],
  versions: readonly McpVersion[] = MCP_VERSIONS,
): Promise<unknown[]> {
  let answer: JsonObject = {};
  await using client = new Client(command, {
    versions,
    allowed: ["order"],
    elicit: () => Promise.resolve(answer as ElicitResult),
  });
  await client.initialize();
  await client.listTools();
  const said: unknown[] = [];
  for (answer of answers) {
    said.push(await client.callTool("order").then(JSON.parse, (error) => error));
  }
  return said;
}

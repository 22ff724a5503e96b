// Round 17 of the red team: a client of an older version answers the course's
// server's sampling request with what only 2025-11-25 defines. The server
// refuses to ask what a session's version does not define (round 16), but it
// took any answer: a 2025-06-18 client's model message whose content is a
// list of blocks, or a tool_result block, and a 2024-11-05 one's audio, all
// reached the tool as the model's answer, where those versions' message holds
// one text, image (or, from 2025-03-26, audio) block. The peer is raw (fetch
// and the wire's JSON, over Streamable HTTP in a session), since an SDK's
// client held to a version may never send such an answer at all.

import assert from "node:assert/strict";
import { serveHttp } from "../../lib/mcp/server/http_server.ts";
import type { SessionTool } from "../../lib/mcp/server/session_spec.ts";
import type { JsonObject } from "../../lib/mcp/shared/jsonrpc.ts";
import { readSseEvents } from "../../lib/mcp/shared/sse.ts";
import { GRAMMAR } from "../../servers/grammar.ts";

/** A tool that asks the client's model a question, and says what it said (its content, as JSON). */
const ASK: SessionTool = {
  name: "ask",
  description: "Asks the client's model, and says what it said.",
  inputSchema: { type: "object" },
  run: async (_args, context) => {
    const messages = [{ role: "user", content: { type: "text", text: "Weather in Paris?" } }];
    const answer = await context.request(
      "sampling/createMessage",
      { messages, maxTokens: 8 },
      "ask",
    );
    return { content: [{ type: "text", text: JSON.stringify(answer.content) }] };
  },
};

/**
 * What the tool `ask` of the server at `url` says to a raw client of
 * `version`, declaring sampling, whose model answers with `content`.
 */
async function askedWith(url: URL, version: string, content: unknown): Promise<string> {
  const post = (message: JsonObject, session?: string) =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(session === undefined
          ? {}
          : { "mcp-session-id": session, "mcp-protocol-version": version }),
      },
      body: JSON.stringify({ jsonrpc: "2.0", ...message }),
    });
  const initialized = await post({
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: version,
      capabilities: { sampling: {} },
      clientInfo: { name: "raw", version: "1" },
    },
  });
  const session = initialized.headers.get("mcp-session-id") ?? undefined;
  await initialized.body?.cancel();
  await (await post({ method: "notifications/initialized" }, session)).body?.cancel();
  const called = await post({
    id: 2,
    method: "tools/call",
    params: { name: "ask", arguments: {} },
  }, session);
  assert.equal(called.headers.get("content-type"), "text/event-stream");
  for await (const event of readSseEvents(called.body!)) {
    if (event.data === "") continue;
    const message = JSON.parse(event.data);
    if (message.method === "sampling/createMessage") {
      const answer = { role: "assistant", content, model: "m" };
      await (await post({ id: message.id, result: answer }, session)).body?.cancel();
    } else if (message.id === 2) {
      await called.body?.cancel().catch(() => {});
      return message.result?.content?.[0]?.text ?? JSON.stringify(message.error);
    }
  }
  throw new Error("The stream ended before the tool's result");
}

const TEXT = { type: "text", text: "Sunny" };
const AUDIO = { type: "audio", data: "", mimeType: "audio/wav" };
const RESULT = { type: "tool_result", toolUseId: "u1", content: [TEXT] };
const USE = { type: "tool_use", id: "u1", name: "weather", input: {} };

Deno.test("the course's server refuses a model's message holding what the session's version does not define", async (t) => {
  await using server = serveHttp({ ...GRAMMAR, sessionTools: [ASK] });
  const cases = [
    [
      "2025-06-18",
      [TEXT],
      /list of content blocks, which came with 2025-11-25; this session is 2025-06-18/,
    ],
    ["2025-06-18", RESULT, /tool_result content, which a 2025-06-18 model's message does not/],
    ["2025-06-18", USE, /tool_use content, which a 2025-06-18 model's message does not/],
    ["2024-11-05", AUDIO, /audio content, which a 2024-11-05 model's message does not/],
    ["2025-11-25", { type: "resource", resource: { uri: "a:b", text: "" } }, /resource content/],
    ["2025-11-25", [{ text: "Sunny" }], /a block with no type/],
    // What each version defines goes through.
    ["2025-06-18", TEXT, /^\{"type":"text","text":"Sunny"\}$/],
    ["2025-03-26", AUDIO, /^\{"type":"audio"/],
    ["2025-11-25", [TEXT, TEXT], /^\[\{"type":"text"/],
  ] as const;
  for (const [version, content, said] of cases) {
    await t.step(`${version}: ${JSON.stringify(content)}`, async () => {
      assert.match(await askedWith(server.url, version, content), said);
    });
  }
});

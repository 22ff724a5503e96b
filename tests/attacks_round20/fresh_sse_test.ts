// Round 20 of the red team, as a new learner who is a peer of the other era:
// the learners' release reads an event stream only with the learner's own
// sseData (Lab 04), so a wrong one is what stands between a reply and the
// Client. Against the SDK v1 server (1.32.2, a legacy session, every reply an
// event stream) and the course's own server at 2026-07-28 (a call that
// reports progress is answered with a stream), an sseData that gives nothing,
// gives what is not a message, or throws, each ended in a ProtocolError that
// blamed the server ("ended before its reply, and carried no event id to
// resume it from"; "A frame is not JSON") or said what happened but not
// what to do: now each says it was read with the learner's sseData, and to
// check it against Lab 04's cases. The worked one answers every call.

import assert from "node:assert/strict";
import { Client } from "../../lib/mcp/client/client.ts";
import { serveHttp } from "../../lib/mcp/server/http_server.ts";
import type { SessionSpec } from "../../lib/mcp/server/session_spec.ts";
import { MCP_VERSIONS } from "../../lib/mcp/shared/versions.ts";
import { pathToFileURL as toFileUrl } from "node:url";
import { parseNotebook, sourceOf } from "../../tools/editions/notebook.ts";
import { sdkV1HttpServer } from "../_listening.ts";

/** Lab 04's sseData as its worked edition writes it: each event's data. */
const worked: (text: string) => string[] = await (async () => {
  const notebook = new URL("../../solutions/lab-04.ipynb", import.meta.url);
  const cell = parseNotebook(await Deno.readTextFile(notebook), "worked").cells
    .find((cell) => cell.id === "sse-data")!;
  const folder = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${folder}/sse_data.ts`, `export ${sourceOf(cell)}`);
    return (await import(toFileUrl(`${folder}/sse_data.ts`).href)).sseData;
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
})();

/** Wrong sseData a learner writes, by what it does. */
const WRONG: Record<string, (text: string) => string[]> = {
  "gives nothing": () => [],
  "gives what is not a message": (text) => worked(text).map((data) => `data: ${data}`),
  "throws": () => {
    throw new TypeError("text.split is not a function");
  },
};

/** A tool that reports progress first, so its answer comes as an event stream. */
const SLOW: SessionSpec = {
  name: "slow-server",
  version: "1.0.0",
  tools: [],
  sessionTools: [{
    name: "slow",
    description: "Reports progress, then answers.",
    inputSchema: { type: "object", properties: {} },
    run: (_args, context) => {
      context.progress(1, 2);
      return { content: [{ type: "text", text: "done" }], isError: false };
    },
  }],
};

/** What one call of `tool` came to, read with `sseData`: its answer, or its error's name and message. */
async function called(
  url: URL,
  tool: string,
  args: Record<string, unknown>,
  sseData: typeof worked,
) {
  const client = new Client(url, { versions: MCP_VERSIONS, allowed: [tool], sseData });
  try {
    await client.initialize();
    await client.listTools();
    return await client.callTool(tool, args, { onProgress: () => {} });
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  } finally {
    await client.close();
  }
}

Deno.test("a stream your wrong sseData reads ends in a ProtocolError that says to check your sseData, with the SDK v1 server and at 2026-07-28", async () => {
  await using modern = serveHttp(SLOW);
  const outcomes: Record<string, string> = {};
  for (const [how, sseData] of [["worked", worked], ...Object.entries(WRONG)] as const) {
    // The SDK v1 server holds one session: one server for each client.
    await using v1 = await sdkV1HttpServer();
    outcomes[`v1, ${how}`] = await called(v1.url, "add", { a: 2, b: 3 }, sseData);
    outcomes[`2026-07-28, ${how}`] = await called(modern.url, "slow", {}, sseData);
  }
  assert.equal(outcomes["v1, worked"], "5");
  assert.equal(outcomes["2026-07-28, worked"], "done");
  for (const [what, outcome] of Object.entries(outcomes)) {
    if (what.endsWith("worked")) continue;
    assert.match(
      outcome,
      /^ProtocolError: [^\n]* \(read with your sseData: check it against Lab 04's sseData cases\)$/,
      what,
    );
  }
  assert.match(outcomes["v1, gives nothing"], /ended before its reply \(read with your sseData/);
  assert.match(outcomes["v1, gives what is not a message"], /A frame is not JSON: "data: /);
  assert.match(outcomes["v1, throws"], /sseData threw TypeError on the event stream/);
});

Deno.test("with the worked sseData, a call whose stream carries 2,000 progress notifications, some 200 KB, answers in both eras", async () => {
  // The stream was held whole, so the worked sseData refused it at 64 KiB ("An event stream of
  // 65638 bytes or more exceeds the 65536-byte limit", and told the learner to check it), where
  // the library's reader, which bounds each event, answers: so did the SDK v2 server's
  // count_slowly of 2,000 words at 2025-11-25.
  const chatty: SessionSpec = {
    ...SLOW,
    sessionTools: [{
      ...SLOW.sessionTools![0],
      run: (_args, context) => {
        for (let step = 1; step <= 2000; step++) context.progress(step, 2000);
        return { content: [{ type: "text", text: "done" }], isError: false };
      },
    }],
  };
  await using server = serveHttp(chatty);
  for (const versions of [MCP_VERSIONS, ["2025-11-25"] as const]) {
    await using client = new Client(server.url, { versions, allowed: ["slow"], sseData: worked });
    await client.initialize();
    await client.listTools();
    let progress = 0;
    assert.equal(await client.callTool("slow", {}, { onProgress: () => progress++ }), "done");
    assert.equal(progress, 2000, versions.join());
  }
});

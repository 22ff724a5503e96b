// The client Lab 02's learner builds (the worked edition's) against servers
// the course did not write, one of each era: the TypeScript SDK's v2 server
// (@modelcontextprotocol/server 2.4.0, which answers the probe with a
// DiscoverResult naming 2026-07-28 alone) and its 1.32 server (the handshake
// era: -32601 to the probe). The client speaks 2026-07-28 with the first and
// shakes hands with the second, as the probe's answer says, and calls a tool of
// each; neither server outlives the test.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { spawnServer } from "../lib/mcp/client/spawn_server.ts";
import { roundTrips } from "../lib/course/round_trips.ts";
import { Transcript } from "../lib/mcp/client/transcript.ts";
import type { Transport } from "../lib/mcp/shared/transport.ts";
import { referenceModule } from "../tools/grading/scratch.ts";
import { UNITS } from "../tools/grading/units/mod.ts";

const source = await referenceModule(UNITS.get("lab-02")!, new URL("../", import.meta.url));
const { McpClient } = (await import(`data:application/typescript,${encodeURIComponent(source!)}`))
  .graded as {
    McpClient: new (server: Transport, options: object) => {
      protocolVersion?: string;
      connect(): Promise<Record<string, unknown>>;
      listTools(): Promise<{ name: string }[]>;
      callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
      close(): Promise<{ code: number | null; signal: string | null }>;
    };
  };

/** The worked client on the fixture server `file`: the era it spoke, the echo, the exchanges. */
async function meet(file: string) {
  const transcript = new Transcript();
  const server = spawnServer([
    Deno.execPath(),
    "run",
    "--allow-all",
    "--quiet",
    fileURLToPath(new URL(`fixtures/${file}`, import.meta.url)),
  ]);
  const client = new McpClient(server, { transcript: transcript.record, log: () => {} });
  try {
    await client.connect();
    const tools = (await client.listTools()).map((tool) => tool.name);
    const echoed = await client.callTool("echo", { text: "hello" });
    return { version: client.protocolVersion, tools, echoed, transcript: transcript.text() };
  } finally {
    await client.close();
    assert.equal(server.exited, true);
  }
}

Deno.test("the Lab 02 client speaks 2026-07-28 with the SDK v2 server, and the handshake with the SDK 1.32 server", async () => {
  const modern = await meet("sdk_v2_server.ts");
  assert.equal(modern.version, "2026-07-28");
  assert.equal(modern.echoed, "hello");
  assert.deepEqual(roundTrips(modern.transcript).map(({ method, reply }) => [method, reply]), [
    ["server/discover", "result"],
    ["tools/list", "result"],
    ["tools/call", "result"],
  ]);
  const legacy = await meet("sdk_server.ts");
  assert.equal(legacy.version, "2025-06-18");
  assert.equal(legacy.echoed, "hello");
  assert.deepEqual(roundTrips(legacy.transcript).map(({ method, reply }) => [method, reply]), [
    ["server/discover", "error"],
    ["initialize", "result"],
    ["notifications/initialized", undefined],
    ["tools/list", "result"],
    ["tools/call", "result"],
  ]);
});

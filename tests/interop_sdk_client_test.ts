// The other way round: the official TypeScript SDK's own Client, over its own
// stdio transport, against the course's servers, started with the commands
// (and so the permission flags) the course uses. If the SDK can use them, they
// are real MCP servers, not servers that only the course's client understands.
//
// The SDK's package gives the types of `client/index.js` at a path that does not
// exist, so each import names its types with `@ts-types` (the path without `.js`).

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import assert from "node:assert/strict";
import {
  deliveryCommand,
  freshLog,
  grammarCommand,
  serverCalls,
  serverCommand,
} from "../lib/course/course.ts";
import { assertProcessGone } from "./_helpers.ts";
import { grammarCallsBySdk, sdkText as text } from "./_interop.ts";

/** Connect the SDK's client to `command`, run `body`, and always close; the server must be gone. */
async function withSdkClient(
  command: string[],
  body: (client: SdkClient) => Promise<void>,
): Promise<void> {
  const [program, ...args] = command;
  const transport = new StdioClientTransport({ command: program, args, stderr: "pipe" });
  const stderr: string[] = [];
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr.push(new TextDecoder().decode(chunk)));
  const client = new SdkClient({ name: "sdk-interop-test", version: "1.0.0" });
  let pid: number | null = null;
  try {
    await client.connect(transport);
    pid = transport.pid;
    await body(client);
  } catch (error) {
    throw new Error(`SDK client failed; the server's stderr: ${stderr.join("")}`, { cause: error });
  } finally {
    await client.close();
  }
  assert.ok(pid !== null);
  assertProcessGone(pid);
}

Deno.test("the SDK's client uses the teaching server in normal mode", async () => {
  const log = await freshLog("test-sdk-client-teaching");
  await withSdkClient(serverCommand("normal", log), async (client) => {
    assert.deepEqual(client.getServerVersion(), { name: "teaching", version: "1.0.0" });
    assert.ok(client.getServerCapabilities()?.tools);
    assert.deepEqual(await client.ping(), {});

    const { tools, nextCursor } = await client.listTools();
    assert.equal(nextCursor, undefined);
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ["place_purchase", "word_count"]);

    const counted = await client.callTool({
      name: "word_count",
      arguments: { text: "vanilla stock needs review" },
    });
    assert.equal(counted.isError, false);
    assert.equal(text(counted), "4");

    // A tool the server does not have is a JSON-RPC error, which the SDK throws.
    await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }), /Unknown tool/);
  });
  // The server's own log witnesses what reached it.
  assert.deepEqual(await serverCalls(log), [
    { name: "word_count", arguments: { text: "vanilla stock needs review" } },
    { name: "no_such_tool", arguments: {} },
  ]);
});

Deno.test("the SDK's client uses the delivery server", async () => {
  const log = await freshLog("test-sdk-client-delivery");
  await withSdkClient(deliveryCommand(log), async (client) => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), ["record_delivery"]);
    const recorded = await client.callTool({
      name: "record_delivery",
      arguments: { order_id: "A-1043", tubs: 20 },
    });
    assert.equal(text(recorded), "recorded 20 tubs for order A-1043");
  });
  assert.deepEqual(await serverCalls(log), [
    { name: "record_delivery", arguments: { order_id: "A-1043", tubs: 20 } },
  ]);
});

Deno.test("the SDK's client uses the grammar server of Lab 02", async () => {
  await withSdkClient(grammarCommand(), grammarCallsBySdk);
});

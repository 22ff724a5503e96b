// The course's careful client against MCP servers it did not write: a server
// built with the official TypeScript SDK, one of its low-level servers that
// lists its tools a page at a time, and the published "everything" server
// from the npm registry. Each: the handshake, every page of tools/list, calls
// whose results are checked, notifications and server requests on the way,
// and a close that leaves no process behind.

import assert from "node:assert/strict";
import { Client, type ClientOptions } from "../lib/mcp/client/client.ts";
import { ProtocolError, ToolError } from "../lib/mcp/shared/errors.ts";
import { assertGroupGone } from "./_helpers.ts";
import { cachePinnedPackages, everythingCommand, sdkFixtureCommand } from "./_interop.ts";

/** A client for `command` that records the wire; `body` runs, then the client always closes. */
async function session(
  command: string[],
  options: ClientOptions,
  body: (client: Client, wire: string[]) => Promise<void>,
): Promise<Deno.CommandStatus> {
  const wire: string[] = [];
  const client = new Client(command, {
    timeoutMs: 60_000,
    transcript: (direction, line) => wire.push(`${direction} ${line}`),
    ...options,
  });
  try {
    await body(client, wire);
  } finally {
    await client.close();
  }
  assertGroupGone(client.pid);
  return await client.close();
}

/** The messages on `wire` that went `direction` with `method`. */
const sent = (wire: string[], direction: ">" | "<", method: string) =>
  wire.filter((line) => line.startsWith(`${direction} `))
    .map((line) => JSON.parse(line.slice(2)))
    .filter((message) => message.method === method);

Deno.test("the client works with a server built on the SDK's McpServer", async () => {
  const allowed = ["echo", "add", "divide", "chatty", "ask_client"];
  const status = await session(
    sdkFixtureCommand("sdk_server.ts"),
    { allowed },
    async (client, wire) => {
      const init = await client.initialize();
      assert.equal(init.protocolVersion, "2025-11-25"); // the newest, which both speak
      assert.deepEqual(init.serverInfo, { name: "sdk-fixture", version: "1.0.0" });

      const tools = await client.listTools();
      assert.deepEqual(Object.keys(tools).sort(), [...allowed].sort());
      // The SDK advertises draft-07 schemas; the client's validator takes them as they are.
      assert.equal(tools.add.inputSchema.$schema, "http://json-schema.org/draft-07/schema#");

      assert.equal(
        await client.callTool("echo", { text: "vanilla stock needs review" }),
        "vanilla stock needs review",
      );
      assert.equal(await client.callTool("add", { a: 2, b: 3 }), "5");
      await assert.rejects(client.callTool("add", { a: 1.5, b: 3 }), /must be integer/);
      assert.ok(!wire.some((line) => line.includes("1.5")), "a refused call must not be sent");
      await assert.rejects(client.callTool("divide", { a: 1, b: 0 }), (error: Error) => {
        assert.ok(error instanceof ToolError, `${error}`);
        assert.match(error.message, /cannot divide by zero/);
        return true;
      });
      assert.equal(await client.callTool("divide", { a: 1, b: 4 }), "0.25");

      assert.equal(await client.callTool("chatty", { count: 3 }), "sent 3 notifications");
      assert.equal(sent(wire, "<", "notifications/message").length, 3);

      // Mid-call, the SDK server pings the client and asks it to sample.
      const asked = JSON.parse(await client.callTool("ask_client"));
      assert.deepEqual(asked, { ping: {}, sampling: "refused with -32601" });
      assert.equal(sent(wire, "<", "ping").length, 1);
      assert.equal(sent(wire, "<", "sampling/createMessage").length, 1);
    },
  );
  assert.equal(status.code, 0, "the SDK server exits by itself when its input ends");
});

Deno.test("the client follows every page of an SDK server that paginates tools/list", async () => {
  await session(
    sdkFixtureCommand("sdk_paged_server.ts", "7", "3"),
    { allowed: ["tool_7"] },
    async (client, wire) => {
      await client.initialize();
      const tools = await client.listTools();
      assert.deepEqual(Object.keys(tools), [1, 2, 3, 4, 5, 6, 7].map((n) => `tool_${n}`));
      const cursors = sent(wire, ">", "tools/list").map((request) => request.params.cursor);
      assert.equal(cursors.length, 3);
      assert.equal(cursors[0], undefined);
      assert.equal(new Set(cursors).size, 3);
      assert.equal(await client.callTool("tool_7"), "7");
    },
  );
});

Deno.test("the page bound holds against a real paginating server", async () => {
  await session(
    sdkFixtureCommand("sdk_paged_server.ts", "7", "3"),
    { maxPages: 2 },
    async (client) => {
      await client.initialize();
      await assert.rejects(client.listTools(), (error: Error) => {
        assert.ok(error instanceof ProtocolError, `${error}`);
        assert.match(error.message, /past 2 pages/);
        return true;
      });
    },
  );
});

Deno.test("the client works with the published everything server", async (t) => {
  await t.step("its pinned package is in the cache", cachePinnedPackages);
  await t.step("handshake, tools, calls, notifications, and a clean close", async () => {
    const allowed = ["echo", "get-sum", "toggle-simulated-logging"];
    await session(everythingCommand(), { allowed }, async (client, wire) => {
      const init = await client.initialize();
      assert.equal(init.protocolVersion, "2025-11-25"); // the newest, which both speak
      assert.equal((init.serverInfo as { name: string }).name, "mcp-servers/everything");

      const tools = await client.listTools();
      for (const name of [...allowed, "get-env", "gzip-file-as-resource"]) {
        assert.ok(Object.hasOwn(tools, name), `the everything server does not list ${name}`);
      }
      // Every tool on one page: the server gives no cursor.
      assert.equal(sent(wire, ">", "tools/list").length, 1);

      assert.equal(await client.callTool("echo", { message: "hi" }), "Echo: hi");
      assert.equal(await client.callTool("get-sum", { a: 2, b: 3 }), "The sum of 2 and 3 is 5.");
      await assert.rejects(client.callTool("get-sum", { a: "2", b: 3 }), /must be number/);

      // Logging on: a notification comes before (or around) the answer, and is skipped.
      assert.match(await client.callTool("toggle-simulated-logging"), /^Started simulated/);
      assert.equal(await client.callTool("echo", { message: "still here" }), "Echo: still here");
      assert.ok(sent(wire, "<", "notifications/message").length >= 1);
    });
  });
});

Deno.test("Deno's flags hold the everything server to what it needs", async (t) => {
  await t.step("its pinned package is in the cache", cachePinnedPackages);
  await t.step("reading the whole environment, or the network, fails as a tool error", async () => {
    const allowed = ["get-env", "gzip-file-as-resource"];
    await session(everythingCommand(), { allowed }, async (client) => {
      await client.initialize();
      await client.listTools();
      await assert.rejects(client.callTool("get-env"), (error: Error) => {
        assert.ok(error instanceof ToolError, `${error}`);
        assert.match(error.message, /Requires env access/);
        return true;
      });
      // A loopback address: even if the flags were wrong, nothing would leave this machine.
      const fetch = { name: "x.gz", data: "http://127.0.0.1:65000/x", outputType: "resource" };
      await assert.rejects(client.callTool("gzip-file-as-resource", fetch), (error: Error) => {
        assert.ok(error instanceof ToolError, `${error}`);
        assert.match(error.message, /Requires net access/);
        return true;
      });
    });
  });
});

Deno.test("the everything server's structured, image and link results", async (t) => {
  await t.step("its pinned package is in the cache", cachePinnedPackages);
  await t.step("structured content checked; more than text refused, by name", async () => {
    const allowed = ["get-structured-content", "get-tiny-image", "get-resource-links"];
    await session(everythingCommand(), { allowed }, async (client) => {
      await client.initialize();
      const tools = await client.listTools();
      assert.equal(tools["get-structured-content"].outputSchema?.type, "object");
      // Its text is the JSON of its structuredContent, which its outputSchema accepts.
      const weather = JSON.parse(
        await client.callTool("get-structured-content", { location: "Chicago" }),
      );
      assert.deepEqual(Object.keys(weather).sort(), ["conditions", "humidity", "temperature"]);
      // An image beside a text is not an answer a text can carry: refused, not cut down.
      await assert.rejects(client.callTool("get-tiny-image"), (error: Error) => {
        assert.ok(error instanceof ProtocolError, `${error}`);
        assert.match(
          error.message,
          /holds more than text: content\[1\] is an image \(image\/png\)/,
        );
        return true;
      });
      // Such a refusal is not the server's fault: the connection is still trusted.
      await assert.rejects(client.callTool("get-resource-links", { count: 2 }), /resource link/);
      assert.ok(await client.callTool("get-structured-content", { location: "New York" }));
    });
  });
});

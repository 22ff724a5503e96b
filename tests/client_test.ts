// The client against servers that misbehave in ways the teaching server does
// not: each ends in the right error class, and no process is left behind.

import assert from "node:assert/strict";
import { Client, type Direction } from "../lib/mcp/client/client.ts";
import { CLIENT_INFO } from "../lib/mcp/client/handshake.ts";
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
import { assertGroupGone, fixtureCommand } from "./_helpers.ts";
import { fileURLToPath } from "node:url";

/** Start `scenario`, initialize and list its tools, then run `body`; always close. */
async function withFixture(
  scenario: string,
  body: (client: Client) => Promise<void>,
  options: ConstructorParameters<typeof Client>[1] = {},
): Promise<Deno.CommandStatus> {
  const client = new Client(fixtureCommand(scenario), { allowed: ["echo"], ...options });
  try {
    await client.initialize({ timeoutMs: 60_000 }); // a deadline of its own: the server is starting
    await client.listTools();
    await body(client);
  } finally {
    await client.close();
  }
  assertGroupGone(client.pid);
  return await client.close();
}

Deno.test("a server that ignores SIGTERM is ended by SIGKILL", async () => {
  const status = await withFixture("ignore-sigterm", async () => {}, { graceMs: 200 });
  assert.equal(status.signal, "SIGKILL");
});

Deno.test("a server that exits mid-call fails that call at once, quoting its stderr", async () => {
  const status = await withFixture("exit-mid-call", async (client) => {
    await assert.rejects(client.callTool("echo", { text: "hi" }), (error: Error) => {
      // A TimeoutError here would mean the client waited for the deadline.
      assert.ok(error instanceof ProtocolError, `${error}`);
      assert.match(error.message, /exited with status 3/);
      assert.match(error.message, /fatal: the echo tool crashed/);
      return true;
    });
    await assert.rejects(client.callTool("echo", { text: "again" }), /exited with status 3/);
  }, { timeoutMs: 60_000 });
  assert.equal(status.code, 3);
});

Deno.test("a server that closes its stdout fails the waiting call at once", async () => {
  const script = fileURLToPath(new URL("./fixtures/close_stdout.sh", import.meta.url));
  await using client = new Client(["sh", script], { allowed: ["echo"], timeoutMs: 60_000 });
  await client.initialize();
  await client.listTools();
  await assert.rejects(
    client.callTool("echo", { text: "hi" }),
    (error: Error) =>
      error instanceof ProtocolError &&
      /closed its stdout but is still running/.test(error.message),
  );
  assert.equal((await client.close()).code, 0);
});

Deno.test("a late reply to a timed-out call is dropped, and the next call works", async () => {
  const lines: string[] = [];
  const transcript = (direction: Direction, line: string) => lines.push(`${direction} ${line}`);
  await withFixture("first-call-late", async (client) => {
    await assert.rejects(
      client.callTool("echo", { text: "first" }),
      /tools\/call \(id 3\) had no reply within 100 ms/,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(await client.callTool("echo", { text: "second" }), "second");
  }, { timeoutMs: 100, transcript });
  const cancelled = lines.filter((line) => line.includes("notifications/cancelled"));
  assert.equal(cancelled.length, 1);
  assert.match(cancelled[0], /^> .*"requestId":3/);
  assert.ok(lines.some((line) => line.startsWith("< ") && line.includes('"text":"first"')));
});

Deno.test("the client answers a server's ping with {} and other requests with -32601", async () => {
  await withFixture("server-requests", async (client) => {
    const replies = JSON.parse(await client.callTool("echo", { text: "hi" }));
    assert.deepEqual(replies, [
      { jsonrpc: "2.0", id: "server-1", result: {} },
      {
        jsonrpc: "2.0",
        id: "server-2",
        error: { code: -32601, message: "Method not found: sampling/createMessage" },
      },
    ]);
  });
});

Deno.test("a reply whose id is the string '3' does not answer request 3", async () => {
  await withFixture("string-id", async (client) => {
    await assert.rejects(
      client.callTool("echo", { text: "hi" }),
      /The reply's id "3" does not match the request's id 3/,
    );
    await assert.rejects(client.callTool("echo", { text: "again" }), ProtocolError);
  });
});

Deno.test("a flood without a newline is refused, and the connection with it", async () => {
  await withFixture("flood", async (client) => {
    await assert.rejects(client.callTool("echo", { text: "hi" }), /65536-byte limit/);
    await assert.rejects(client.callTool("echo", { text: "hi" }), /65536-byte limit/);
  }, { graceMs: 200 });
});

Deno.test("listTools follows every page", async () => {
  await withFixture("pages", async (client) => {
    assert.deepEqual(Object.keys(await client.listTools()), ["echo", "echo_2", "echo_3"]);
    assert.equal(await client.callTool("echo_3", { text: "third page" }), "third page");
  }, { allowed: ["echo_3"] });
});

Deno.test("listTools refuses a cursor it has seen before", async () => {
  const client = new Client(fixtureCommand("repeated-cursor"), { allowed: ["echo"] });
  try {
    await client.initialize();
    await assert.rejects(client.listTools(), /cursor it had given before/);
  } finally {
    await client.close();
  }
});

Deno.test("listTools stops after maxPages pages", async () => {
  const client = new Client(fixtureCommand("endless-pages"), { maxPages: 5 });
  try {
    await client.initialize();
    await assert.rejects(client.listTools(), /past 5 pages/);
  } finally {
    await client.close();
  }
});

Deno.test("callTool refuses a tool the server never advertised, sending nothing", async () => {
  const lines: string[] = [];
  await withFixture("first-call-late", async (client) => {
    await assert.rejects(client.callTool("not_a_tool"), (error: Error) => {
      assert.ok(error instanceof ProtocolError);
      assert.match(error.message, /has not advertised a tool named "not_a_tool"/);
      return true;
    });
  }, { allowed: ["not_a_tool"], transcript: (_, line) => lines.push(line) });
  assert.ok(!lines.some((line) => line.includes("not_a_tool")));
});

Deno.test("close() is safe to call twice, and a call after it fails", async () => {
  const client = new Client(fixtureCommand("first-call-late"), { allowed: ["echo"] });
  await client.initialize();
  const [first, second] = await Promise.all([client.close(), client.close()]);
  assert.equal(first, second);
  assert.equal(first.code, 0);
  await assert.rejects(client.listTools(), /The client is closed/);
  assertGroupGone(client.pid);
});

Deno.test("await using closes the server when its block throws", async () => {
  let pid = 0;
  await assert.rejects(async () => {
    await using client = new Client(fixtureCommand("first-call-late"));
    pid = client.pid;
    await client.initialize();
    throw new Error("the block failed");
  }, /the block failed/);
  assertGroupGone(pid);
});

Deno.test("a waiting call fails when the client is closed under it", async () => {
  const client = new Client(fixtureCommand("first-call-late"), { allowed: ["echo"] });
  await client.initialize();
  await client.listTools();
  const call = client.callTool("echo", { text: "hi" });
  const closing = client.close();
  await assert.rejects(call, /The client is closed/);
  await closing;
});

Deno.test("a command that does not exist fails on construction", () => {
  assert.throws(() => new Client(["/no/such/server"]), Deno.errors.NotFound);
});

Deno.test("calls wait for initialize()", async () => {
  await using client = new Client(fixtureCommand("first-call-late"));
  await assert.rejects(client.listTools(), /Call initialize\(\) before listTools\(\)/);
});

Deno.test("the client names itself with the course's version, which the MCP library does not import", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  assert.equal(CLIENT_INFO.version, config.version);
});

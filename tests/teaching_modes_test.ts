// Every mode of the teaching server, run through the careful client with a
// one-second deadline, with the outcome DESIGN.md expects; and the careless
// client, the allowlist and its negative control.

import assert from "node:assert/strict";
import { Client } from "../lib/mcp/client/client.ts";
import { freshLog, serverCalls, serverCommand } from "../lib/course/course.ts";
import { ProtocolError, TimeoutError } from "../lib/mcp/shared/errors.ts";
import type { JsonRpcResponse } from "../lib/mcp/shared/jsonrpc.ts";
import { assertGroupGone, assertProcessGone } from "./_helpers.ts";

const QUESTIONS = ["vanilla stock needs review", "one two three"];

/** Ask both questions through a careful client; return what happened. */
async function ask(mode: string) {
  const log = await freshLog(`test-${mode}`);
  const client = new Client(serverCommand(mode, log), { allowed: ["word_count"], timeoutMs: 1000 });
  let outcome: string;
  let error: unknown;
  try {
    await client.initialize({ timeoutMs: 60_000 }); // a deadline of its own: the server is starting
    await client.listTools();
    const answers: string[] = [];
    for (const text of QUESTIONS) answers.push(await client.callTool("word_count", { text }));
    outcome = `answered ${answers.join(" and ")}`;
  } catch (caught) {
    error = caught;
    outcome = (caught as Error).name;
  }
  const status = await client.close();
  assertGroupGone(client.pid);
  return { outcome, error, status, calls: await serverCalls(log) };
}

for (const mode of ["normal", "stderr-log", "notify"]) {
  Deno.test(`the ${mode} server answers 4 and 3`, async () => {
    const { outcome, status, calls } = await ask(mode);
    assert.equal(outcome, "answered 4 and 3");
    assert.equal(status.code, 0);
    assert.deepEqual(calls.map((call) => call.arguments.text), QUESTIONS);
  });
}

const REFUSED: [string, RegExp][] = [
  ["wrong-id", /id 4 does not match the request's id 3/],
  ["stale", /id 3 does not match the request's id 4/],
  ["oversized", /65536-byte limit/],
  ["stdout-log", /not JSON: "word_count: counting the words now"/],
];

for (const [mode, message] of REFUSED) {
  Deno.test(`the ${mode} server's reply is refused with a ProtocolError`, async () => {
    const { error, status } = await ask(mode);
    assert.ok(error instanceof ProtocolError, `expected a ProtocolError, got ${error}`);
    assert.match(error.message, message);
    assert.equal(status.code, 0, "the server should still exit cleanly once its input ends");
  });
}

Deno.test("the hung server times out, and close() ends it with SIGTERM", async () => {
  const { error, status, calls } = await ask("hang");
  assert.ok(error instanceof TimeoutError);
  assert.match(error.message, /tools\/call \(id 3\) had no reply within 1000 ms/);
  assert.deepEqual({ ...status }, { success: false, code: 143, signal: "SIGTERM" });
  assert.equal(calls.length, 1);
});

Deno.test("closeSteps records the hung server's ending, in order", async () => {
  const log = await freshLog("test-hang-steps");
  const client = new Client(serverCommand("hang", log), {
    allowed: ["word_count"],
    timeoutMs: 200,
  });
  try {
    await client.initialize({ timeoutMs: 60_000 });
    await client.listTools();
    await assert.rejects(client.callTool("word_count", { text: "one" }), TimeoutError);
  } finally {
    await client.close();
  }
  const steps = client.closeSteps();
  assert.deepEqual(steps.map((step) => step.what), [
    "stdin closed",
    "SIGTERM to the process group",
    "exited: 143 (SIGTERM)",
  ]);
  assert.ok(steps.every((step, i) => i === 0 || step.at >= steps[i - 1].at));
});

Deno.test("the old-version server is refused and receives no call", async () => {
  const { error, calls } = await ask("old-version");
  assert.ok(error instanceof ProtocolError);
  assert.match(error.message, /protocol version "2024-10-07"/);
  assert.deepEqual(calls, []);
});

Deno.test("the lingering server's grandchild is gone after close()", async () => {
  const log = await freshLog("test-lingering");
  const client = new Client(serverCommand("lingering", log), { allowed: ["word_count"] });
  try {
    await client.initialize();
    await client.listTools();
    assert.equal(await client.callTool("word_count", { text: "still here" }), "2");
  } finally {
    const status = await client.close();
    assert.equal(status.code, 0);
  }
  const grandchild = Number(await Deno.readTextFile(`${log}.grandchild`));
  assert.ok(grandchild > 0);
  assertProcessGone(grandchild);
  assertGroupGone(client.pid);
});

Deno.test("a careless client reports 4 for 'one two three' on the stale server", async () => {
  const log = await freshLog("test-careless");
  const careless = (_id: unknown, message: JsonRpcResponse) =>
    "result" in message ? message.result : undefined;
  await using client = new Client(serverCommand("stale", log), {
    allowed: ["word_count"],
    answer: careless,
    limit: Number.MAX_SAFE_INTEGER,
  });
  await client.initialize();
  await client.listTools();
  const first = await client.callTool("word_count", { text: QUESTIONS[0] });
  const second = await client.callTool("word_count", { text: QUESTIONS[1] });
  assert.deepEqual([first, second], ["4", "4"]);
  assert.deepEqual((await serverCalls(log)).map((call) => call.arguments.text), QUESTIONS);
});

Deno.test("the allowlist refuses place_purchase, and nothing reaches the server", async () => {
  const log = await freshLog("test-allowlist");
  await using client = new Client(serverCommand("normal", log), { allowed: ["word_count"] });
  await client.initialize();
  const tools = await client.listTools();
  assert.deepEqual(Object.keys(tools).sort(), ["place_purchase", "word_count"]);
  await assert.rejects(
    client.callTool("place_purchase", { flavor: "vanilla", tubs: 100 }),
    Deno.errors.PermissionDenied,
  );
  assert.deepEqual(await serverCalls(log), []);
  assert.equal(await client.callTool("word_count", { text: "still usable" }), "2");
});

Deno.test("without the allowlist (the negative control), the purchase reaches the server", async () => {
  const log = await freshLog("test-negative-control");
  await using client = new Client(serverCommand("normal", log), {
    allowed: ["word_count"],
    authorize: (name, catalog) => Object.hasOwn(catalog, name),
  });
  await client.initialize();
  await client.listTools();
  assert.equal(
    await client.callTool("place_purchase", { flavor: "vanilla", tubs: 100 }),
    "ordered 100 tubs of vanilla",
  );
  assert.deepEqual(await serverCalls(log), [
    { name: "place_purchase", arguments: { flavor: "vanilla", tubs: 100 } },
  ]);
});

Deno.test("arguments that break the advertised schema are refused before sending", async () => {
  const log = await freshLog("test-schema");
  await using client = new Client(serverCommand("stderr-log", log), { allowed: ["word_count"] });
  await client.initialize();
  await client.listTools();
  await assert.rejects(
    client.callTool("word_count", { text: 5 }),
    (error: Error) => error instanceof ProtocolError && /\/text must be string/.test(error.message),
  );
  await assert.rejects(client.callTool("word_count", {}), /required property 'text'/);
  assert.deepEqual(await serverCalls(log), []);
  assert.equal(await client.callTool("word_count", { text: QUESTIONS[0] }), "4");
});

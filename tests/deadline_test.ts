// Deadlines: one timer watches whichever request waits (a timer per request
// cost more CPU than the rest of a call), so these check that each request
// still gets its own full deadline, counted from when it was sent; and the
// handshake may have a deadline of its own, as a server just started needs.

import assert from "node:assert/strict";
import { Client } from "../lib/mcp/client/client.ts";
import { Connection } from "../lib/mcp/client/connection.ts";
import { freshLog, serverCommand } from "../lib/course/course.ts";
import { TimeoutError } from "../lib/mcp/shared/errors.ts";

Deno.test("a call's deadline counts from the call, not from an earlier request", async () => {
  const timeoutMs = 600;
  await using client = new Client(serverCommand("hang", await freshLog("test-deadline")), {
    allowed: ["word_count"],
    timeoutMs,
  });
  await client.initialize({ timeoutMs: 60_000 }); // a server just started may be slow to answer
  await client.listTools(); // the deadline timer starts here, for this request
  await new Promise((resolve) => setTimeout(resolve, timeoutMs / 2));
  const sent = performance.now();
  await assert.rejects(client.callTool("word_count", { text: "a b" }), TimeoutError);
  const waited = performance.now() - sent;
  assert.ok(waited >= timeoutMs, `the call timed out after ${waited} ms, before its deadline`);
});

Deno.test("after a timeout, the next call has a full deadline of its own", async () => {
  const timeoutMs = 300;
  await using client = new Client(serverCommand("hang", await freshLog("test-deadline-2")), {
    allowed: ["word_count"],
    timeoutMs,
  });
  await client.initialize({ timeoutMs: 60_000 });
  await client.listTools();
  for (const text of ["first", "second"]) {
    const sent = performance.now();
    await assert.rejects(client.callTool("word_count", { text }), TimeoutError);
    const waited = performance.now() - sent;
    assert.ok(waited >= timeoutMs, `${text} timed out after ${waited} ms`);
  }
});

Deno.test("the handshake's deadline is its own, and its TimeoutError names it", async () => {
  const command = () => serverCommand("normal", "/dev/null");
  // Calls with a deadline of a millisecond: the handshake, with a minute, still completes.
  await using quick = new Client(command(), { allowed: ["word_count"], timeoutMs: 1 });
  await quick.initialize({ timeoutMs: 60_000 });
  // A handshake of a millisecond, on a client whose calls have a minute: no server starts so fast.
  await using slow = new Client(command(), { allowed: ["word_count"], timeoutMs: 60_000 });
  await assert.rejects(
    slow.initialize({ timeoutMs: 1 }),
    (error: Error) =>
      error instanceof TimeoutError &&
      /initialize \(id \d+\) had no reply within 1 ms$/.test(error.message),
  );
});

Deno.test("a request whose deadline passed before its turn fails, and nothing is sent", async () => {
  const sent: string[] = [];
  await using connection = new Connection(serverCommand("normal", await freshLog("test-late")), {
    transcript: (direction, line) => direction === ">" && sent.push(line),
  });
  await assert.rejects(
    connection.request("ping", {}, { deadline: performance.now() - 1 }),
    (error: Error) => error instanceof TimeoutError && /ping was not sent/.test(error.message),
  );
  assert.deepEqual(sent, []);
});

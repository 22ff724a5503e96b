// Lab 04's link, against the inflight server, with plain decisions: a
// request may have a deadline of its own (a handshake with a server that is
// just starting needs more than the calls a step times), and the handshake is
// never cancelled, even when its deadline passes.

import assert from "node:assert/strict";
import { freshLog, inflightCommand } from "./course.ts";
import { inflightLog } from "./inflight_log.ts";
import { type MultiplexDecisions, MultiplexLink } from "./multiplex_link.ts";
import { spawnServer } from "../mcp/client/spawn_server.ts";
import { ProtocolError, TimeoutError } from "../mcp/shared/errors.ts";
import type { RequestId } from "../mcp/shared/jsonrpc.ts";

const decisions: MultiplexDecisions = {
  routeReply(reply, inFlight, cancelled) {
    const id = reply.id as RequestId;
    if (inFlight.includes(id)) return id;
    if (cancelled.includes(id)) return null;
    throw new ProtocolError(`reply id ${JSON.stringify(id)} answers no request`);
  },
  expiredIds: (inFlight, now) => inFlight.filter((r) => r.deadline <= now).map((r) => r.id),
  progressOf: () => null,
};

const HELLO = {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "t", version: "1" },
};

/** A link to the inflight server in normal mode whose requests have `timeoutMs` each; and its log. */
async function open(timeoutMs: number) {
  const log = await freshLog("test-multiplex-link");
  const link = new MultiplexLink(spawnServer(inflightCommand("normal", log)), decisions, {
    timeoutMs,
  });
  return { link, log };
}

Deno.test("a request's own deadline is its own: the handshake is not held to the calls'", async () => {
  const { link } = await open(1);
  await using _ = link;
  await link.request("initialize", HELLO, { timeoutMs: 60_000 });
  const call = (ms: number, options = {}) =>
    link.request("tools/call", { name: "slow_count", arguments: { text: "a", ms } }, options);
  await assert.rejects(call(60_000), /tools\/call \(id 1\) had no reply within 1 ms/);
  assert.deepEqual(await call(0, { timeoutMs: 60_000 }), {
    content: [{ type: "text", text: "1" }],
    isError: false,
  });
});

Deno.test("a handshake past its deadline fails with a TimeoutError, and is never cancelled", async () => {
  const { link, log } = await open(60_000);
  // No server starts within a millisecond.
  await assert.rejects(
    link.request("initialize", HELLO, { timeoutMs: 1 }),
    (error: Error) =>
      error instanceof TimeoutError && /initialize \(id 0\) .* 1 ms/.test(error.message),
  );
  await link.close(); // the server reads all it was sent before its input ends
  assert.deepEqual((await inflightLog(log)).filter((entry) => "cancelled" in entry), []);
});

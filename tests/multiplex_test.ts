// Many requests in flight on one connection (the library's Client with
// `maxInFlight`), against Lab 04's server in each of its modes: replies in
// any order each reach their own request; a reply that comes twice is
// refused; a request past its deadline is cancelled, and its late reply
// dropped; a server that dies with requests pending fails them all at once.
// Each handshake has a deadline of its own, and each deadline a test sets is
// for the calls it is about, long enough for a busy machine where it is not.

import assert from "node:assert/strict";
import { freshLog, inflightCommand } from "../lib/course/course.ts";
import { type InflightEntry, inflightLog } from "../lib/course/inflight_log.ts";
import { Client } from "../lib/mcp/client/client.ts";
import { ProtocolError, TimeoutError } from "../lib/mcp/shared/errors.ts";
import { assertProcessGone } from "./_helpers.ts";

/** A client of the inflight server in `mode`, after the handshake and the tool list; and its log. */
async function connect(
  mode: string,
  options: { timeoutMs?: number; maxInFlight?: number; graceMs?: number } = {},
) {
  const log = await freshLog(`test-inflight-${mode}`);
  const client = new Client(inflightCommand(mode, log), {
    allowed: ["slow_count"],
    maxInFlight: options.maxInFlight ?? 8,
    timeoutMs: options.timeoutMs ?? 5000,
    graceMs: options.graceMs,
  });
  await client.initialize({ timeoutMs: 60_000 });
  await client.listTools();
  return { client, entries: () => inflightLog(log) };
}

/** The calls a log received. */
const callsIn = (entries: InflightEntry[]) => entries.filter((entry) => "name" in entry);

const TEXTS = ["one", "one two", "one two three", "one two three four"];

Deno.test("replies that come in any order each reach the request they answer", async () => {
  for (const mode of ["normal", "reversed"]) {
    const { client, entries } = await connect(mode);
    try {
      // The first call takes longest: in normal mode its reply comes last.
      const finished: number[] = [];
      const counts = await Promise.all(
        TEXTS.map((text, i) =>
          client.callTool("slow_count", { text, ms: (TEXTS.length - i) * 100 })
            .finally(() => finished.push(i))
        ),
      );
      assert.deepEqual(counts, ["1", "2", "3", "4"], mode);
      if (mode === "normal") assert.deepEqual(finished, [3, 2, 1, 0], "all four were in flight");
      assert.equal(callsIn(await entries()).length, TEXTS.length, mode);
    } finally {
      assertProcessGone((await client.close(), client.pid));
    }
  }
});

Deno.test("more requests than the bound wait their turn, and all are answered", async () => {
  const { client, entries } = await connect("normal", { maxInFlight: 2 });
  try {
    const many = Array.from({ length: 6 }, (_, i) => "word ".repeat(i + 1));
    const counts = await Promise.all(
      many.map((text) => client.callTool("slow_count", { text, ms: 10 })),
    );
    assert.deepEqual(counts, ["1", "2", "3", "4", "5", "6"]);
    assert.equal(callsIn(await entries()).length, 6);
  } finally {
    await client.close();
  }
});

Deno.test("a reply that comes twice is refused, and the connection is trusted no more", async () => {
  const { client } = await connect("twice");
  try {
    const first = client.callTool("slow_count", { text: "one", ms: 0 });
    const second = client.callTool("slow_count", { text: "one two", ms: 300 });
    assert.equal(await first, "1");
    await assert.rejects(second, ProtocolError);
    await assert.rejects(client.callTool("slow_count", { text: "again" }), ProtocolError);
  } finally {
    await client.close();
  }
});

Deno.test("a request past its deadline is cancelled, its late reply dropped, and the next one answered", async () => {
  // A deadline of 2 s, for calls answered at once: long enough for a busy machine.
  const { client, entries } = await connect("late", { timeoutMs: 2000 });
  try {
    // Asked for a minute, the call cannot be answered in time; told of the cancellation, the
    // server answers it anyway, before it reads the next call: that late reply is not its answer.
    await assert.rejects(client.callTool("slow_count", { text: "slow", ms: 60_000 }), TimeoutError);
    assert.equal(await client.callTool("slow_count", { text: "a b c d", ms: 0 }), "4");
    assert.equal(await client.callTool("slow_count", { text: "a b", ms: 0 }), "2");
    const log = await entries();
    assert.ok(log.some((entry) => "cancelled" in entry), "the server was told");
    assert.equal(log.filter((entry) => "answered" in entry).length, 3, "and answered all three");
  } finally {
    await client.close();
  }
});

Deno.test("the inflight server stops a call it is told to cancel, and answers it no more", async () => {
  // Half a minute to exit once its input ends: a server still running the call exits after it.
  const { client, entries } = await connect("normal", { timeoutMs: 2000, graceMs: 30_000 });
  try {
    await assert.rejects(client.callTool("slow_count", { text: "slow", ms: 60_000 }), TimeoutError);
    assert.equal(await client.callTool("slow_count", { text: "a b", ms: 0 }), "2");
  } finally {
    assert.equal((await client.close()).code, 0, "the server exited by itself, the call stopped");
  }
  const log = await entries();
  assert.deepEqual(log.filter((entry) => "answered" in entry), [{ answered: 4 }]);
});

Deno.test("a server that dies with requests in flight fails every one of them at once", async () => {
  const { client } = await connect("die", { timeoutMs: 30_000 });
  try {
    const calls = TEXTS.slice(0, 3).map((text) =>
      client.callTool("slow_count", { text, ms: 10_000 })
    );
    const outcomes = await Promise.allSettled(calls);
    for (const outcome of outcomes) {
      assert.equal(outcome.status, "rejected");
      assert.ok(outcome.reason instanceof ProtocolError);
      assert.match(outcome.reason.message, /exited with status 3/);
    }
  } finally {
    await client.close();
  }
});

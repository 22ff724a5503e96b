// The acceptance bounds of issue 13, which the misbehaviour table cannot show:
// a pathological pattern ends within the call's deadline while the event loop
// (a notebook's kernel, in a lesson) keeps running, and a server that floods
// pings while never reading costs the client little memory and no more than
// its grace periods to close.

import assert from "node:assert/strict";
import { Client } from "../lib/mcp/client/client.ts";
import { ProtocolError, TimeoutError } from "../lib/mcp/shared/errors.ts";
import { assertGroupGone, fixtureCommand } from "./_helpers.ts";

/** Run `body` while a 10 ms timer ticks; resolve with its result and the longest gap between ticks. */
async function ticking<T>(body: () => Promise<T>): Promise<{ value: T; longestGapMs: number }> {
  let last = performance.now();
  let longestGapMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
  }, 10);
  try {
    const value = await body();
    longestGapMs = Math.max(longestGapMs, performance.now() - last);
    return { value, longestGapMs };
  } finally {
    clearInterval(timer);
  }
}

for (
  const [pattern, text] of [
    ["^(a+)+$", "a".repeat(40) + "!"],
    ["^([a-zA-Z]+ ?)*$", "vanilla stock needs review by the end of today! ".repeat(3)],
  ]
) {
  Deno.test(`a call against pattern ${pattern} ends within its deadline, and timers keep firing`, async () => {
    const timeoutMs = 2000;
    await using client = new Client([...fixtureCommand("pattern"), pattern], {
      allowed: ["echo"],
      timeoutMs,
    });
    await client.initialize({ timeoutMs: 60_000 }); // a deadline of its own: the server is starting
    await client.listTools();
    const started = performance.now();
    const { value: error, longestGapMs } = await ticking(() =>
      client.callTool("echo", { text }).then(
        (answer) => new Error(`answered ${answer}`),
        (error: Error) => error,
      )
    );
    const tookMs = performance.now() - started;
    assert.ok(
      error instanceof ProtocolError || error instanceof TimeoutError,
      `expected a ProtocolError or a TimeoutError, got ${error}`,
    );
    assert.ok(tookMs < timeoutMs + 500, `the call took ${tookMs} ms`);
    assert.ok(longestGapMs < 500, `the event loop stopped for ${longestGapMs} ms`);
  });
}

Deno.test("a server that floods pings and never reads is closed, and costs little memory", async () => {
  const graceMs = 1000;
  const client = new Client(fixtureCommand("ping-flood"), {
    allowed: ["echo"],
    timeoutMs: 10_000,
    graceMs,
  });
  try {
    await client.initialize();
    await client.listTools();
    // This isolate's heap and buffers, not the process's RSS: under `deno test --parallel` every
    // test file runs in the one process, and a neighbour's memory was charged to the client.
    const used = () => Deno.memoryUsage().heapUsed + Deno.memoryUsage().external;
    const before = used();
    let peak = before;
    const sampler = setInterval(() => peak = Math.max(peak, used()), 5);
    try {
      await assert.rejects(client.callTool("echo", { text: "hi" }), (error: Error) => {
        assert.ok(error instanceof ProtocolError, `${error}`);
        assert.match(error.message, /unread.*distrusts it, and closes it/);
        return true;
      });
    } finally {
      clearInterval(sampler);
    }
    const growthMb = (peak - before) / 2 ** 20;
    assert.ok(growthMb < 64, `the client grew by ${growthMb.toFixed(1)} MB`);
    const closing = performance.now();
    const status = await client.close();
    const closeMs = performance.now() - closing;
    assert.ok(closeMs < 2 * graceMs + 500, `close() took ${closeMs} ms`);
    assert.equal(status.signal, "SIGTERM");
  } finally {
    await client.close();
  }
  assertGroupGone(client.pid);
});

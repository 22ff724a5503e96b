// Round 17 of the red team, a hostile server's trickle: an event stream
// whose line comes a byte at a time. The SSE reader (`readSseEvents`, which
// the course's HTTP client reads every response stream with) joined the
// unfinished line to each new read and searched it again from its start, so
// that one 64,000-byte comment sent a byte at a time cost the client 2.9 s of
// CPU (108 ms for 8,000 bytes): quadratic in the line's length, memory
// bounded. It now keeps the line in a buffer that grows by doubling and
// searches only what it has not searched. The test compares two lengths'
// times within one run (a ratio, not a timing): eight times the bytes must
// cost about eight times as much, not sixty-four.

import assert from "node:assert/strict";
import { readSseEvents } from "../../lib/mcp/shared/sse.ts";

/** A comment line of `length` bytes, then an event, sent a byte a read; the milliseconds its reading took. */
async function trickled(length: number): Promise<number> {
  const bytes = new TextEncoder().encode(`:${"x".repeat(length - 2)}\ndata: done\n\n`);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === bytes.length) controller.close();
      else controller.enqueue(bytes.subarray(sent, ++sent));
    },
  });
  const start = performance.now();
  const events = await Array.fromAsync(readSseEvents(stream));
  const took = performance.now() - start;
  assert.deepEqual(events, [{ data: "done" }]);
  return took;
}

Deno.test("an event stream whose line comes a byte at a time costs the reader time in proportion to it", async () => {
  await trickled(4_000); // warm up
  const fastest = async (length: number) =>
    Math.min(await trickled(length), await trickled(length), await trickled(length));
  const short = await fastest(8_000);
  const long = await fastest(64_000);
  const ratio = long / short;
  console.log(`64,000 bytes took ${long.toFixed(0)} ms, 8,000 took ${short.toFixed(0)} ms`);
  assert.ok(ratio < 20, `${ratio.toFixed(1)} times as long for eight times the bytes`);
});

import assert from "node:assert/strict";
import { ProtocolError } from "./errors.ts";
import { readSseWith } from "./read_sse_with.ts";

const bytes = (...chunks: (string | Uint8Array)[]) =>
  ReadableStream.from(chunks.map((c) => typeof c === "string" ? new TextEncoder().encode(c) : c));

/** Each event's data, one `data:` line each, as a learner's sseData may read it. */
const sseData = (text: string) => [...text.matchAll(/^data: (.*)\n\n/gm)].map((match) => match[1]);

Deno.test("readSseWith yields each event once, as the text that completes it arrives", async () => {
  const stream = bytes("data: a\n\nda", "ta: b\n", "\ndata: c\n");
  assert.deepEqual(await Array.fromAsync(readSseWith(stream, sseData)), [
    { data: "a" },
    { data: "b" },
  ]);
});

Deno.test("readSseWith reads the text again only after a read that brings a line end", async () => {
  const text = "data: " + "x".repeat(1000) + "\n\n";
  let calls = 0;
  const counted = (all: string) => (calls++, sseData(all));
  const events = await Array.fromAsync(readSseWith(bytes(...text), counted));
  assert.equal(events.length, 1);
  assert.equal(calls, 2);
});

Deno.test("readSseWith decodes a character split across reads, and drops a leading byte order mark", async () => {
  const euro = new TextEncoder().encode("\uFEFFdata: €\n\n");
  const stream = bytes(euro.subarray(0, 11), euro.subarray(11));
  assert.deepEqual(await Array.fromAsync(readSseWith(stream, sseData)), [{ data: "€" }]);
});

Deno.test("readSseWith refuses what it cannot trust, naming why, as a ProtocolError", async () => {
  const refusals: [string, ReadableStream<Uint8Array>, (text: string) => string[], RegExp][] = [
    ["an event past its limit", bytes("data: a\n\n", "x".repeat(101)), sseData, /100-byte limit/],
    ["bytes that are not UTF-8", bytes(new Uint8Array([0xff, 0x0a])), sseData, /not valid UTF-8/],
    ["sseData that throws", bytes("data: a\n\n"), () => {
      throw new RangeError("not yet");
    }, /sseData threw RangeError on the event stream: not yet/],
    [
      "sseData that gives no list",
      bytes("data: a\n\n"),
      () => "a" as unknown as string[],
      /other than a list of strings/,
    ],
    [
      "sseData that takes back an event",
      bytes("data: a\n", "\ndata: b\n\n"),
      (text) => text.length > 9 ? ["b"] : ["a"],
      /other data for events it had read before/,
    ],
  ];
  for (const [what, stream, read, why] of refusals) {
    await assert.rejects(
      Array.fromAsync(readSseWith(stream, read, { limit: 100 })),
      (error) => error instanceof ProtocolError && why.test(error.message),
      what,
    );
  }
});

Deno.test("readSseWith reads a stream of many events past its limit, since the limit bounds the text held since the last whole event", async () => {
  // With the text held whole, the worked sseData refused a reply stream of 2,000 progress
  // notifications (each under 100 bytes) at 64 KiB, which the library's reader reads.
  const events = Array.from({ length: 2000 }, (_, i) => `data: ${i}\r\n\r\n`);
  const read = await Array.fromAsync(readSseWith(bytes(...events), sseDataOfLines, { limit: 100 }));
  assert.equal(read.length, 2000);
  assert.deepEqual(read.at(-1), { data: "1999" });
});

/** Each event's data, with any line end, as Lab 04's worked sseData reads it. */
function sseDataOfLines(text: string): string[] {
  return [...text.matchAll(/^data: (.*)(?:\r\n|\r|\n)(?:\r\n|\r|\n)/gm)].map((match) => match[1]);
}

import assert from "node:assert/strict";
import { ProtocolError } from "./errors.ts";
import { readFrames, type SplitFrames, splitFrames } from "./framing.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (frame: Uint8Array) => new TextDecoder().decode(frame);
const x = (count: number) => "x".repeat(count);

/** The outcome of a split as plain text, or the name of the error it threw. */
function outcome(split: SplitFrames, input: string, limit: number): [string[], string] | string {
  try {
    const [frames, rest] = split(bytes(input), limit);
    return [frames.map(text), text(rest)];
  } catch (error) {
    return (error as Error).name;
  }
}

// The six visible cases of Unit B.
const VISIBLE: [string, string, number, [string[], string] | string][] = [
  ["one frame", '{"a":1}\n', 64, [['{"a":1}'], ""]],
  ["half a frame waits", '{"a"', 64, [[], '{"a"']],
  ["two frames and a half", '{"a":1}\n{"b":2}\n{"c"', 64, [['{"a":1}', '{"b":2}'], '{"c"']],
  ["a frame exactly at the limit", x(15) + "\n", 16, [[x(15)], ""]],
  ["a complete frame beyond the limit", x(16) + "\n", 16, "RangeError"],
  ["an endless line is refused before it ends", x(16), 16, "RangeError"],
];

for (const [label, input, limit, expected] of VISIBLE) {
  Deno.test(`splitFrames: ${label}`, () => {
    assert.deepEqual(outcome(splitFrames, input, limit), expected);
  });
}

Deno.test("splitFrames passes Unit B's holdout asserts", () => {
  assert.deepEqual(outcome(splitFrames, "", 8), [[], ""]);
  assert.deepEqual(outcome(splitFrames, "\n\n", 8), [["", ""], ""]);
  assert.deepEqual(outcome(splitFrames, "1234567\n", 8), [["1234567"], ""]);
  assert.throws(() => splitFrames(bytes("12345678\n"), 8), RangeError);
  assert.throws(() => splitFrames(bytes("1234567812"), 8), RangeError);
});

Deno.test("splitFrames keeps empty lines between frames", () => {
  assert.deepEqual(outcome(splitFrames, "a\n\nb\n", 8), [["a", "", "b"], ""]);
});

Deno.test("splitFrames lets the rest wait up to one byte under the limit", () => {
  assert.deepEqual(outcome(splitFrames, "a\n" + x(7), 8), [["a"], x(7)]);
  assert.equal(outcome(splitFrames, "a\n" + x(8), 8), "RangeError");
});

Deno.test("splitFrames refuses a long frame even after short ones", () => {
  assert.equal(outcome(splitFrames, "ok\n" + x(20) + "\nok\n", 8), "RangeError");
});

Deno.test("splitFrames never mutates its input", () => {
  const input = bytes('{"a":1}\n{"b"');
  const copy = input.slice();
  splitFrames(input, 64);
  assert.deepEqual(input, copy);
  const over = bytes(x(20));
  assert.throws(() => splitFrames(over, 8));
  assert.deepEqual(over, bytes(x(20)));
});

Deno.test("splitFrames names the limit it enforces", () => {
  assert.throws(() => splitFrames(bytes(x(16) + "\n"), 16), /17 bytes .* 16-byte limit/);
  assert.throws(() => splitFrames(bytes(x(16)), 16), /16 bytes without a newline .* 16-byte limit/);
});

Deno.test("splitFrames refuses a limit that is not a positive whole number", () => {
  for (const limit of [0, -1, 1.5, NaN]) {
    assert.throws(() => splitFrames(bytes("a\n"), limit), RangeError);
  }
});

/** A stream that delivers `input` in chunks of the given sizes. */
function chunked(input: string, sizes: number[]): ReadableStream<Uint8Array> {
  const all = bytes(input);
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (let i = 0; at < all.length; i++) {
    const size = sizes[i % sizes.length];
    chunks.push(all.slice(at, at + size));
    at += size;
  }
  return ReadableStream.from(chunks);
}

/**
 * A byte stream, like a child's stdout, that delivers `input` in chunks of the
 * given sizes, each read into the reader's own buffer.
 */
function byteStream(input: string, sizes: number[]): ReadableStream<Uint8Array> {
  const all = bytes(input);
  let at = 0;
  let i = 0;
  return new ReadableStream({
    type: "bytes",
    pull(controller) {
      const request = controller.byobRequest!;
      if (at === all.length) {
        controller.close();
        return request.respond(0); // a read that waits learns of the end
      }
      const view = request.view!;
      const size = Math.min(sizes[i++ % sizes.length], view.byteLength, all.length - at);
      new Uint8Array(view.buffer, view.byteOffset, size).set(all.subarray(at, at + size));
      at += size;
      request.respond(size);
    },
    autoAllocateChunkSize: 64,
  });
}

async function collect(stream: ReadableStream<Uint8Array>, limit = 64, split?: SplitFrames) {
  const frames: string[] = [];
  for await (const batch of readFrames(stream, { limit, split })) frames.push(...batch.map(text));
  return frames;
}

Deno.test("readFrames gives the same frames wherever the chunks split", async () => {
  const input = '{"a":1}\n\n{"b":[2,3]}\n' + x(40) + "\n";
  const expected = ['{"a":1}', "", '{"b":[2,3]}', x(40)];
  for (let size = 1; size <= input.length; size++) {
    assert.deepEqual(await collect(chunked(input, [size])), expected, `chunks of ${size}`);
  }
  assert.deepEqual(await collect(chunked(input, [3, 1, 7, 2])), expected);
});

Deno.test("readFrames reads a byte stream wherever its chunks split", async () => {
  const input = '{"a":1}\n\n{"b":[2,3]}\n' + x(40) + "\n";
  const expected = ['{"a":1}', "", '{"b":[2,3]}', x(40)];
  for (let size = 1; size <= input.length; size++) {
    assert.deepEqual(await collect(byteStream(input, [size])), expected, `chunks of ${size}`);
  }
  await assert.rejects(collect(byteStream(x(100), [7]), 16), ProtocolError);
});

Deno.test("readFrames's frames stay whole after later reads reuse its buffer", async () => {
  const lines = Array.from({ length: 50 }, (_, i) => `line ${i} ` + x(i));
  const kept: Uint8Array[] = [];
  for await (const frames of readFrames(byteStream(lines.join("\n") + "\n", [5, 40, 13]))) {
    kept.push(...frames); // decoded only at the end, after every read
  }
  assert.deepEqual(kept.map(text), lines);
});

Deno.test("readFrames refuses a line that reaches the limit one byte at a time", async () => {
  await assert.rejects(collect(chunked(x(100), [1]), 16), ProtocolError);
});

Deno.test("readFrames refuses a frame over the limit split across chunks", async () => {
  await assert.rejects(
    collect(chunked("ok\n" + x(10) + "\n", [5]), 8),
    (error: Error) =>
      error instanceof ProtocolError && /exceeds the 8-byte limit/.test(error.message),
  );
});

Deno.test("readFrames refuses a stream that ends in the middle of a frame", async () => {
  await assert.rejects(collect(chunked('{"a":1}\n{"b"', [4])), /ended in the middle of a frame/);
});

Deno.test("readFrames reads with the split function it is given", async () => {
  const careless: SplitFrames = (buffer) => {
    const parts = text(buffer).split("\n");
    const rest = parts.pop()!;
    return [parts.map(bytes), bytes(rest)];
  };
  assert.deepEqual(await collect(chunked(x(20) + "\n", [4]), 8, careless), [x(20)]);
  await assert.rejects(collect(chunked(x(20) + "\n", [4]), 8), ProtocolError);
});

Deno.test("readFrames hands a split that checks no limit each waiting byte a bounded number of times", async () => {
  // The learners' release reads with Unit B's starter, which checks nothing: a 256 KiB line in
  // 1 KiB chunks was joined and handed over again at every chunk, 32 MiB in all.
  let handed = 0;
  const starter: SplitFrames = (buffer) => {
    handed += buffer.length;
    const at = buffer.lastIndexOf(10);
    const lines = at === -1 ? [] : text(buffer.subarray(0, at)).split("\n").map(bytes);
    return [lines, buffer.subarray(at + 1)];
  };
  const line = x(256 * 1024);
  assert.deepEqual(await collect(chunked(line + "\n", [1024]), 1024, starter), [line]);
  assert.ok(handed <= 4 * line.length, `${handed} bytes handed over for a line of ${line.length}`);
  // A split whose own limit is 8 KiB, though asked less often, still refuses before the line ends.
  const laxer: SplitFrames = (buffer, limit) => splitFrames(buffer, 8 * limit);
  await assert.rejects(collect(chunked(line, [1024]), 1024, laxer), /8192-byte limit/);
});

Deno.test("readFrames releases the stream, uncancelled, after a refusal", async () => {
  const stream = chunked(x(20) + "\nafter\n", [30]);
  await assert.rejects(collect(stream, 8), ProtocolError);
  assert.equal(stream.locked, false);
  await stream.cancel();
});

Deno.test("readFrames cancels the stream when aborted", async () => {
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(bytes("one\n")),
    cancel: () => void (cancelled = true),
  });
  const controller = new AbortController();
  const seen: string[] = [];
  for await (const frames of readFrames(stream, { signal: controller.signal })) {
    seen.push(...frames.map(text));
    controller.abort();
  }
  assert.deepEqual(seen, ["one"]);
  assert.equal(cancelled, true);
});

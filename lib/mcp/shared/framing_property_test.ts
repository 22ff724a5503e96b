// splitFrames and readFrames against a model a reader can check by eye: cut
// the bytes at every newline; the last piece is the rest; refuse when a line
// and its newline exceed the limit, or the rest has reached it. Random inputs
// from a fixed seed, so that CI runs the same cases every time; a failure
// prints the seed and the path that replays it.

import assert from "node:assert/strict";
import fc from "fast-check";
import { ProtocolError } from "./errors.ts";
import { readFrames, splitFrames } from "./framing.ts";

const SEED = 20260606;
const NEWLINE = 0x0a;

type Split = { frames: number[][]; rest: number[] } | "RangeError";

/** The model: what splitting `bytes` with `limit` should give. */
function modelSplit(bytes: readonly number[], limit: number): Split {
  const pieces: number[][] = [[]];
  for (const byte of bytes) {
    if (byte === NEWLINE) pieces.push([]);
    else pieces[pieces.length - 1].push(byte);
  }
  const rest = pieces.pop()!;
  if (pieces.some((line) => line.length + 1 > limit) || rest.length >= limit) return "RangeError";
  return { frames: pieces, rest };
}

function actualSplit(bytes: Uint8Array, limit: number): Split {
  try {
    const [frames, rest] = splitFrames(bytes, limit);
    return { frames: frames.map((frame) => [...frame]), rest: [...rest] };
  } catch (error) {
    if (error instanceof RangeError) return "RangeError";
    throw error;
  }
}

// Bytes in which newlines are common, so that lines of every length near the limit occur.
const someBytes = fc.array(
  fc.oneof({ weight: 1, arbitrary: fc.constant(NEWLINE) }, {
    weight: 4,
    arbitrary: fc.integer({ min: 0, max: 255 }),
  }),
  { maxLength: 120 },
);
const aLimit = fc.integer({ min: 1, max: 24 });

Deno.test("splitFrames agrees with the model on random bytes and limits", () => {
  fc.assert(
    fc.property(someBytes, aLimit, (bytes, limit) => {
      assert.deepEqual(actualSplit(Uint8Array.from(bytes), limit), modelSplit(bytes, limit));
    }),
    { seed: SEED, numRuns: 3000 },
  );
});

Deno.test("splitFrames never changes the bytes it is given", () => {
  fc.assert(
    fc.property(someBytes, aLimit, (bytes, limit) => {
      const input = Uint8Array.from(bytes);
      actualSplit(input, limit);
      assert.deepEqual([...input], bytes);
    }),
    { seed: SEED, numRuns: 500 },
  );
});

/** `bytes` cut into chunks at `cuts` (positions, in any order). */
function chunked(bytes: readonly number[], cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    if (point > start) chunks.push(Uint8Array.from(bytes.slice(start, point)));
    start = point;
  }
  return chunks;
}

Deno.test("readFrames gives the model's frames however the bytes are chunked", async () => {
  await fc.assert(
    fc.asyncProperty(someBytes, aLimit, fc.array(fc.nat()), async (bytes, limit, cuts) => {
      const stream = ReadableStream.from(chunked(bytes, cuts));
      const read: number[][] = [];
      let refused: unknown;
      try {
        for await (const frames of readFrames(stream, { limit })) {
          read.push(...frames.map((frame) => [...frame]));
        }
      } catch (error) {
        refused = error;
      }
      const model = modelSplit(bytes, limit);
      if (model !== "RangeError" && model.rest.length === 0) {
        assert.equal(refused, undefined);
        assert.deepEqual(read, model.frames);
        return;
      }
      // Refused, or ended in the middle of a line: a ProtocolError either way.
      assert.ok(refused instanceof ProtocolError, `expected a ProtocolError, got ${refused}`);
      if (model !== "RangeError") assert.deepEqual(read, model.frames);
      else assert.deepEqual(read, linesBeforeRefusal(bytes, limit).slice(0, read.length));
    }),
    { seed: SEED, numRuns: 1000 },
  );
});

/** The complete lines before the first one the limit refuses. */
function linesBeforeRefusal(bytes: readonly number[], limit: number): number[][] {
  const lines: number[][] = [];
  let line: number[] = [];
  for (const byte of bytes) {
    if (byte !== NEWLINE) {
      line.push(byte);
      continue;
    }
    if (line.length + 1 > limit) break;
    lines.push(line);
    line = [];
  }
  return lines;
}

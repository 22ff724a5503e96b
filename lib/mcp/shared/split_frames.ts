/**
 * Unit B's graded function: a buffer of bytes split into its complete lines
 * and the rest, with a byte limit that holds even before a line ends. A
 * module of its own so that the learners' release can hold it withheld (its
 * husk is Unit B's starter) while the rest of the framing ships readable.
 *
 * @module
 */

const NEWLINE = 0x0a;

/**
 * Split `buffer` into its complete lines and the rest after the last newline.
 *
 * Frames are returned in order without their `\n`; they are views into
 * `buffer`, which is never modified. Throws `RangeError` when a complete line
 * plus its newline is longer than `limit`, or when the rest, still waiting for
 * its newline, has already reached `limit` bytes: such a line can never fit.
 *
 * @example Two frames and half of a third
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode('{"a":1}\n{"b":2}\n{"c"');
 * const [frames, rest] = splitFrames(bytes, 64);
 * const text = (b: Uint8Array) => new TextDecoder().decode(b);
 * assert.deepEqual(frames.map(text), ['{"a":1}', '{"b":2}']);
 * assert.equal(text(rest), '{"c"');
 * assert.throws(() => splitFrames(new Uint8Array(16), 16), RangeError);
 * ```
 */
export function splitFrames(buffer: Uint8Array, limit: number): [Uint8Array[], Uint8Array] {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`The frame limit must be a positive whole number of bytes, not ${limit}`);
  }
  const frames: Uint8Array[] = [];
  let start = 0;
  let end = buffer.indexOf(NEWLINE, start);
  while (end !== -1) {
    if (end - start + 1 > limit) {
      throw new RangeError(
        `A frame of ${end - start + 1} bytes (newline included) exceeds the ${limit}-byte limit`,
      );
    }
    frames.push(buffer.subarray(start, end));
    start = end + 1;
    end = buffer.indexOf(NEWLINE, start);
  }
  if (buffer.length - start >= limit) {
    throw new RangeError(
      `${buffer.length - start} bytes without a newline have reached the ${limit}-byte limit`,
    );
  }
  return [frames, buffer.subarray(start)];
}

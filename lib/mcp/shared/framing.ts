/**
 * Newline-delimited framing for the MCP stdio transport: bytes in, complete
 * messages out, with a byte limit that holds even before a line ends. The
 * splitting itself is {@linkcode splitFrames} (`split_frames.ts`, Unit B's
 * graded function), which `readFrames` uses unless given another.
 *
 * @module
 */

import { ProtocolError } from "./errors.ts";
import { splitFrames } from "./split_frames.ts";

export { splitFrames };

const NEWLINE = 0x0a;

/** A function with the contract of {@linkcode splitFrames}. */
export type SplitFrames = (buffer: Uint8Array, limit: number) => [Uint8Array[], Uint8Array];

/** Options for {@linkcode readFrames}. */
export interface ReadFramesOptions {
  /** The most bytes one frame may take, newline included. @default {65536} */
  limit?: number;
  /**
   * How to split the bytes; a learner's own function can be passed. In the
   * learners' release the default is Unit B's starter, which checks no
   * limit: there, only a function passed here bounds a frame.
   *
   * @default {splitFrames}
   */
  split?: SplitFrames;
  /** Stops reading (and cancels the stream) when aborted. @default {undefined} */
  signal?: AbortSignal;
}

/**
 * Read `stream` and yield, for each read that completes at least one line,
 * the frames it completed.
 *
 * Each chunk is scanned once for a newline; the bytes are handed to `split`
 * only when a line is complete or the waiting bytes have reached the limit,
 * so reading is linear in the bytes received and never holds more than about
 * `limit` bytes plus one chunk. A `split` that lets the waiting bytes pass
 * the limit is asked again only as they double, so reading stays linear. A refusal from `split`, or a stream that ends
 * in the middle of a line, is thrown as a {@linkcode ProtocolError}. When
 * reading stops, the stream is released for others to read, and cancelled
 * only if `signal` aborted: the caller decides whether to drain or cancel it.
 *
 * A byte stream (a child's stdout is one) is read into a single buffer that
 * every read reuses, so the bytes that are kept are copied out of it: the
 * frames of one read share a buffer of their own, and stay valid.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const encoder = new TextEncoder();
 * const stream = ReadableStream.from(["{\"a\"", ":1}\n{\"b\":2}\n"].map((s) => encoder.encode(s)));
 * const lines: string[] = [];
 * for await (const frames of readFrames(stream, { limit: 64 })) {
 *   lines.push(...frames.map((frame) => new TextDecoder().decode(frame)));
 * }
 * assert.deepEqual(lines, ['{"a":1}', '{"b":2}']);
 * ```
 */
export async function* readFrames(
  stream: ReadableStream<Uint8Array>,
  options: ReadFramesOptions = {},
): AsyncGenerator<Uint8Array[], void, undefined> {
  const { limit = 65536, split = splitFrames, signal } = options;
  const chunks = new ChunkReader(stream);
  const stop = () => chunks.cancel(signal?.reason);
  signal?.addEventListener("abort", stop, { once: true });
  let waiting: Uint8Array[] = [];
  let waitingBytes = 0;
  // The waiting bytes go to `split` again only once a line ends or they reach this: the limit,
  // or twice what a split that refused nothing left waiting (Unit B's starter checks no limit).
  let asked = limit;
  try {
    while (!signal?.aborted) {
      // Valid only until the next read: whatever is kept from it is copied.
      const chunk = await chunks.read();
      if (chunk === undefined) break;
      if (chunk.indexOf(NEWLINE) === -1 && waitingBytes + chunk.length < asked) {
        waiting.push(chunk.slice());
        waitingBytes += chunk.length;
        continue;
      }
      const [frames, rest] = splitChecked(
        split,
        concat([...waiting, chunk], waitingBytes + chunk.length),
        limit,
      );
      waiting = rest.length > 0 ? [rest] : [];
      waitingBytes = rest.length;
      asked = Math.max(limit, 2 * waitingBytes);
      if (frames.length > 0) yield frames;
    }
    if (waitingBytes > 0 && !signal?.aborted) {
      throw new ProtocolError(
        `The stream ended in the middle of a frame: ${waitingBytes} bytes had no newline`,
      );
    }
  } finally {
    signal?.removeEventListener("abort", stop);
    if (signal?.aborted) await stop();
    chunks.releaseLock();
  }
}

/** How many bytes one read of a byte stream may bring. */
const READ_BYTES = 65536;

/**
 * Reads the chunks of a stream. A byte stream is read into one buffer, reused
 * by every read: otherwise Deno allocates 64 KiB for each read of a pipe, and
 * the garbage collection those set off was the largest cost left in a round
 * trip (see BENCHMARKS.md). Other streams are read as they come.
 */
class ChunkReader {
  readonly #reader: ReadableStreamBYOBReader | ReadableStreamDefaultReader<Uint8Array>;
  #buffer = new ArrayBuffer(READ_BYTES);

  constructor(stream: ReadableStream<Uint8Array>) {
    let reader;
    try {
      reader = stream.getReader({ mode: "byob" });
    } catch {
      reader = stream.getReader(); // not a byte stream
    }
    this.#reader = reader;
  }

  /** The next chunk, valid until the next read; `undefined` at the end of the stream. */
  async read(): Promise<Uint8Array | undefined> {
    if (this.#reader instanceof ReadableStreamDefaultReader) {
      return (await this.#reader.read()).value;
    }
    const { value, done } = await this.#reader.read(new Uint8Array(this.#buffer));
    if (done) return undefined;
    this.#buffer = value.buffer as ArrayBuffer; // the read took the buffer over
    return value;
  }

  cancel(reason: unknown): Promise<void> {
    return this.#reader.cancel(reason).catch(() => {});
  }

  releaseLock(): void {
    this.#reader.releaseLock();
  }
}

/** The chunks joined into a new buffer of `length` bytes. */
function concat(chunks: Uint8Array[], length: number): Uint8Array {
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return joined;
}

/** What a learner whose `split` went wrong is told to do. */
const CHECK_SPLIT = "check your splitFrames against Unit B's cases";

/**
 * What `split` makes of `buffer`: a `RangeError` it throws refuses a frame;
 * anything else it throws, or a result that is not `[frames, rest]`, is a
 * broken `split` (a learner's own), said so.
 */
function splitChecked(
  split: SplitFrames,
  buffer: Uint8Array,
  limit: number,
): [Uint8Array[], Uint8Array] {
  let result: unknown;
  try {
    result = split(buffer, limit);
  } catch (error) {
    if (error instanceof RangeError) {
      throw new ProtocolError(`Frame refused: ${error.message}`, { cause: error });
    }
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    throw new ProtocolError(
      `splitFrames threw ${name}, not the RangeError that refuses a frame: ${message}; ${CHECK_SPLIT}`,
      { cause: error },
    );
  }
  const [frames, rest] = Array.isArray(result) ? result : [];
  if (
    !Array.isArray(result) || result.length !== 2 || !(rest instanceof Uint8Array) ||
    !Array.isArray(frames) || !frames.every((frame) => frame instanceof Uint8Array)
  ) {
    throw new ProtocolError(
      `splitFrames gave something other than [frames, rest] (a list of Uint8Array, then a Uint8Array); ${CHECK_SPLIT}`,
    );
  }
  return [frames, rest];
}

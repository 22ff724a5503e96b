/**
 * An event stream read with a function of its text, such as the `sseData`
 * Lab 04 has the learner write, in place of the library's reader
 * (`read_sse_events.ts`), which the learners' release withholds.
 *
 * @module
 */

import { ProtocolError } from "./errors.ts";
import type { SseData, SseEvent } from "./sse.ts";

/** Options for {@linkcode readSseWith}. */
export interface ReadSseWithOptions {
  /** The most bytes the whole stream may take: it is held as text, to be read again. @default {65536} */
  limit?: number;
}

/**
 * Read the event stream `stream` with `sseData`, which gives the data of
 * each event the stream's text so far completes, and yield each event as it
 * completes, as `{ data }`: a function of the text tells no id, type or
 * `retry`, so a stream read so cannot be resumed. The text is decoded from
 * UTF-8 (a leading byte order mark dropped) and held whole, so `limit`
 * bounds the stream, not each event; `sseData` reads it all again after
 * each read that brings a line end, so a stream costs up to its length
 * times its reads. Throws {@linkcode ProtocolError} when
 * the stream passes `limit` bytes or is not UTF-8, or when `sseData` throws
 * or gives anything but a list of strings that begins with those it gave
 * before.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const sseData = (text: string) =>
 *   [...text.matchAll(/^data: (.*)\n\n/gm)].map((match) => match[1]);
 * const chunks = ["data: one\n", "\ndata: t", "wo\n\n"];
 * const stream = ReadableStream.from(chunks.map((c) => new TextEncoder().encode(c)));
 * assert.deepEqual(await Array.fromAsync(readSseWith(stream, sseData)), [{ data: "one" }, { data: "two" }]);
 * ```
 */
export async function* readSseWith(
  stream: ReadableStream<Uint8Array>,
  sseData: SseData,
  { limit = 65536 }: ReadSseWithOptions = {},
): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let text = "";
  let bytes = 0;
  const given: string[] = [];
  for await (const chunk of stream) {
    bytes += chunk.length;
    if (bytes > limit) {
      throw new ProtocolError(
        `An event stream of ${bytes} bytes or more exceeds the ${limit}-byte limit`,
      );
    }
    let read: string;
    try {
      read = decoder.decode(chunk, { stream: true });
    } catch {
      throw new ProtocolError("An event stream is not valid UTF-8");
    }
    text += read;
    if (!/[\r\n]/.test(read)) continue; // only a line end can complete an event
    const data = dataOf(sseData, text);
    if (given.some((item, i) => data[i] !== item)) {
      throw new ProtocolError("sseData gave other data for events it had read before");
    }
    for (const item of data.slice(given.length)) {
      given.push(item);
      yield { data: item };
    }
  }
}

/** What `sseData` gives for `text`, if it is a list of strings. */
function dataOf(sseData: SseData, text: string): string[] {
  let data: unknown;
  try {
    data = sseData(text);
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    throw new ProtocolError(`sseData threw ${name} on the event stream: ${message}`);
  }
  if (!Array.isArray(data) || !data.every((item) => typeof item === "string")) {
    throw new ProtocolError("sseData gave something other than a list of strings");
  }
  return data;
}

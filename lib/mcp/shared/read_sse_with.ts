/**
 * An event stream read with a function of its text, such as the `sseData`
 * Lab 04 has the learner write, in place of the library's reader
 * (`read_sse_events.ts`), which the learners' release withholds.
 *
 * @module
 */

import { ProtocolError } from "./errors.ts";
import type { SseData, SseEvent } from "./sse.ts";

/** What a message about a stream read with a learner's `sseData` ends with: what to do. */
export const SSE_DATA_HINT = " (read with your sseData: check it against Lab 04's sseData cases)";

/** Options for {@linkcode readSseWith}. */
export interface ReadSseWithOptions {
  /** The most bytes held since the last whole event: they are held as text, to be read again. @default {65536} */
  limit?: number;
}

/**
 * Read the event stream `stream` with `sseData`, which gives the data of
 * each event the stream's text so far completes, and yield each event as it
 * completes, as `{ data }`: a function of the text tells no id, type or
 * `retry`, so a stream read so cannot be resumed. The text is decoded from
 * UTF-8 (a leading byte order mark dropped) and held from the last blank
 * line `sseData` has read (what follows one is a stream of its own), so
 * `limit` bounds about one event, as the library's reader does, however
 * long the stream; `sseData` reads the held text again after each read that
 * brings a line end, so an event costs up to its length times its reads.
 * Throws {@linkcode ProtocolError} when the text held passes `limit` bytes
 * or is not UTF-8, or when `sseData` throws or gives anything but a list of
 * strings that begins with those it gave before for the text held.
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
  let given: string[] = [];
  for await (const chunk of stream) {
    bytes += chunk.length;
    if (bytes > limit) {
      throw new ProtocolError(`An event of ${bytes} bytes or more exceeds the ${limit}-byte limit`);
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
      throw new ProtocolError(
        `sseData gave other data for events it had read before${SSE_DATA_HINT}`,
      );
    }
    for (const item of data.slice(given.length)) {
      given.push(item);
      yield { data: item };
    }
    // Every event before the last blank line is whole, and read: what follows is held alone.
    const cut = afterLastBlankLine(text);
    if (cut > 0) {
      text = text.slice(cut);
      bytes = encoder.encode(text).length;
      given = [];
    }
  }
}

/** Two line ends in a row (a blank line); the first is never the CR of a CRLF. */
const BLANK_LINE = /(?:\r\n|\r(?!\n)|\n)(?:\r\n|\r|\n)/g;
const encoder = new TextEncoder();

/** Where the text after `text`'s last blank line begins; 0 if it has none. */
function afterLastBlankLine(text: string): number {
  let cut = 0;
  for (const match of text.matchAll(BLANK_LINE)) cut = match.index + match[0].length;
  return cut;
}

/** What `sseData` gives for `text`, if it is a list of strings. */
function dataOf(sseData: SseData, text: string): string[] {
  let data: unknown;
  try {
    data = sseData(text);
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    throw new ProtocolError(
      `sseData threw ${name} on the event stream: ${message}${SSE_DATA_HINT}`,
    );
  }
  if (!Array.isArray(data) || !data.every((item) => typeof item === "string")) {
    throw new ProtocolError(`sseData gave something other than a list of strings${SSE_DATA_HINT}`);
  }
  return data;
}

/**
 * The reader of Server-Sent Events (`sse.ts` writes them): a byte stream
 * turned back into events, with a byte limit on each. Lab 04 has the learner
 * write what it does (`sseData`), so it is a module of its own, which the
 * learners' release withholds.
 *
 * @module
 */

import { ProtocolError } from "./errors.ts";
import type { ReadSseOptions, SseEvent } from "./sse.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const LF = 0x0a;
const CR = 0x0d;

/**
 * Read the event stream `stream` and yield each event as it is dispatched
 * (by a blank line). Comments dispatch nothing; an event with an `id` or a
 * `retry` and no `data` (a "priming" event, sent so that a client can
 * resume the stream after it) is yielded with `data` empty, which holds no
 * message. An `id` is kept for the events after it. Throws
 * {@linkcode ProtocolError} when an event passes `limit` bytes (before its
 * end if need be, so memory stays bounded) or is not UTF-8. An event cut off
 * by the end of the stream is dropped, as the format says.
 *
 * @example An event split across reads, then one with an id
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const chunks = ['data: {"a"', ':1}\n\n', ": a comment\nid: 7\ndata: two\n\n", "id: 8\nretry: 500\ndata: \n\n"];
 * const stream = ReadableStream.from(chunks.map((c) => new TextEncoder().encode(c)));
 * const events = await Array.fromAsync(readSseEvents(stream));
 * assert.deepEqual(events, [{ data: '{"a":1}' }, { data: "two", id: "7" }, { data: "", id: "8", retry: 500 }]);
 * ```
 */
export async function* readSseEvents(
  stream: ReadableStream<Uint8Array>,
  { limit = 65536 }: ReadSseOptions = {},
): AsyncGenerator<SseEvent> {
  // The unfinished line so far (`pending[0, held)`), grown by doubling, and how much of it
  // was searched for a line end: a line that comes a byte at a time is copied and searched
  // once, not once a read.
  let pending = new Uint8Array(256);
  let held = 0;
  let searched = 0;
  let eventBytes = 0;
  let data: string[] = [];
  let type: string | undefined;
  let id: string | undefined;
  let retry: number | undefined;
  let primed = false;
  let skipLf = false;
  const tooLong = (bytes: number) =>
    new ProtocolError(`An event of ${bytes} bytes or more exceeds the ${limit}-byte limit`);
  for await (const chunk of stream) {
    if (held + chunk.length > pending.length) {
      const grown = new Uint8Array(Math.max(pending.length * 2, held + chunk.length));
      grown.set(pending.subarray(0, held));
      pending = grown;
    }
    pending.set(chunk, held);
    held += chunk.length;
    const bytes = pending.subarray(0, held);
    let start = 0;
    if (skipLf && bytes.length > 0) {
      if (bytes[0] === LF) start = 1;
      skipLf = false;
    }
    for (
      let end = lineEnd(bytes, Math.max(start, searched));
      end !== -1;
      end = lineEnd(bytes, start)
    ) {
      eventBytes += end - start + 1;
      if (eventBytes > limit) throw tooLong(eventBytes);
      const line = decode(bytes.subarray(start, end));
      if (bytes[end] === CR) {
        if (end + 1 < bytes.length) {
          start = bytes[end + 1] === LF ? end + 2 : end + 1;
        } else {
          start = end + 1;
          skipLf = true;
        }
      } else {
        start = end + 1;
      }
      if (line === "") {
        // An event with data, or one that only primes a reconnection (an id, a retry).
        if (data.length > 0 || retry !== undefined || primed) {
          yield {
            data: data.join("\n"),
            ...(type === undefined ? {} : { event: type }),
            ...(id === undefined ? {} : { id }),
            ...(retry === undefined ? {} : { retry }),
          };
        }
        data = [];
        type = undefined;
        retry = undefined;
        primed = false;
        eventBytes = 0;
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "data") data.push(value);
      else if (field === "event") type = value;
      else if (field === "id" && !value.includes("\0")) [id, primed] = [value, true];
      else if (field === "retry" && /^\d+$/.test(value)) retry = Number(value);
    }
    const rest = held - start;
    if (eventBytes + rest >= limit) throw tooLong(eventBytes + rest);
    if (start > 0) pending.copyWithin(0, start, held);
    held = searched = rest;
  }
}

/** The index of the next CR or LF at or after `from`, or -1. */
function lineEnd(bytes: Uint8Array, from: number): number {
  for (let i = from; i < bytes.length; i++) {
    if (bytes[i] === LF || bytes[i] === CR) return i;
  }
  return -1;
}

function decode(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ProtocolError("An event stream line is not valid UTF-8");
  }
}

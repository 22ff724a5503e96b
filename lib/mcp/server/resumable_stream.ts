/**
 * One event stream of a Streamable HTTP session, resumable: each message
 * written as an event with an id of the stream's, the latest events kept,
 * and a response that replays those after the client's `Last-Event-ID`.
 *
 * @module
 */

import type { JsonObject } from "../shared/jsonrpc.ts";
import { sseEvent } from "../shared/sse.ts";

const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
};
const encoder = new TextEncoder();

/** Told of each event a resumable stream writes: its id, and the message it carries. */
export type EventWatcher = (id: string, message: JsonObject) => void;

/**
 * An event stream named `id`, keeping its last `keep` events. Its events'
 * ids are `ID:N`, N counting from 0; at most one response is written to at a
 * time, and a client that went away finds what it missed when it resumes.
 *
 * @example A stream resumed after its first event
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const stream = new ResumableStream("p0", 64);
 * stream.write({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } });
 * stream.write({ jsonrpc: "2.0", id: 1, result: {} });
 * stream.finish();
 * const text = await stream.respond(0).text();
 * assert.ok(text.includes("id: p0:1") && !text.includes("id: p0:0"));
 * ```
 */
export class ResumableStream {
  readonly #events: { n: number; text: string }[] = [];
  #writer?: ReadableStreamDefaultController<Uint8Array>;
  #finished = false;
  #next = 0;

  readonly #onEvent?: EventWatcher;

  /**
   * A stream named `id` (the prefix of its events' ids), keeping its last
   * `keep` events; `onEvent` is told of each event as it is written.
   */
  constructor(
    readonly id: string,
    readonly keep: number,
    options: { onEvent?: EventWatcher } = {},
  ) {
    this.#onEvent = options.onEvent;
  }

  /** Whether a response is being written to now. */
  get open(): boolean {
    return this.#writer !== undefined;
  }

  /** Whether its last event has been written. */
  get finished(): boolean {
    return this.#finished;
  }

  /** Write `message` as the next event, and keep it. */
  write(message: JsonObject): void {
    const n = this.#next++;
    const id = `${this.id}:${n}`;
    this.#onEvent?.(id, message);
    const text = sseEvent({ id, data: JSON.stringify(message) });
    this.#events.push({ n, text });
    if (this.#events.length > this.keep) this.#events.shift();
    try {
      this.#writer?.enqueue(encoder.encode(text));
    } catch {
      this.#writer = undefined; // the client went away: the event waits to be replayed
    }
  }

  /** The stream's last event has been written: end the response. */
  finish(): void {
    this.#finished = true;
    this.#detach();
  }

  /**
   * A 200 response whose event stream replays every event after the `after`th,
   * then goes on (the response written to before ends).
   */
  respond(after: number): Response {
    return new Response(this.#attach(after), { status: 200, headers: SSE_HEADERS });
  }

  #attach(after: number): ReadableStream<Uint8Array> {
    this.#detach();
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        // A comment first: the response starts at once, whatever comes later.
        controller.enqueue(encoder.encode(": stream " + this.id + "\n\n"));
        for (const event of this.#events) {
          if (event.n > after) controller.enqueue(encoder.encode(event.text));
        }
        if (this.#finished) controller.close();
        else this.#writer = controller;
      },
      cancel: () => void (this.#writer = undefined),
    });
  }

  #detach(): void {
    const writer = this.#writer;
    this.#writer = undefined;
    try {
      writer?.close();
    } catch {
      // Already closed by the client.
    }
  }
}

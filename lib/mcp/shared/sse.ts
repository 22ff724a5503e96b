/**
 * Server-Sent Events, the stream format of MCP's Streamable HTTP transport:
 * one event written as text (`sseEvent`), and the reader that turns a byte
 * stream back into events with a byte limit on each, so that memory stays
 * bounded whatever a peer sends (`readSseEvents`, in a module of its own:
 * Lab 04 has the learner write what it does, as `sseData`).
 *
 * @module
 */

export { readSseEvents } from "./read_sse_events.ts";

/** One event of an event stream. */
export interface SseEvent {
  /** Its `data` lines, joined by newlines. */
  data: string;
  /** Its type; `message` when the stream named none. @default {"message"} */
  event?: string;
  /** Its id, which a client sends back as `Last-Event-ID` to resume the stream after it. */
  id?: string;
  /** How long, in milliseconds, the server asks a client to wait before it reconnects. */
  retry?: number;
}

/**
 * The text of one event, ending with the blank line that dispatches it. A
 * `data` holding newlines is sent as several `data` lines, as the format asks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(sseEvent({ id: "s1:0", data: '{"jsonrpc":"2.0"}' }), 'id: s1:0\ndata: {"jsonrpc":"2.0"}\n\n');
 * assert.equal(sseEvent({ data: "a\nb", retry: 500 }), "retry: 500\ndata: a\ndata: b\n\n");
 * ```
 */
export function sseEvent(event: SseEvent): string {
  let text = "";
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.retry !== undefined) text += `retry: ${event.retry}\n`;
  for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return text + "\n";
}

/** Options for {@linkcode readSseEvents}. */
export interface ReadSseOptions {
  /** The most bytes one event may take, its field names and line ends included. @default {65536} */
  limit?: number;
}

/** A function that reads the data of each event a stream's text so far completes, as Lab 04's `sseData`. */
export type SseData = (text: string) => string[];

/**
 * Lab 04's dropped stream: a request POSTed, its event stream read for a few
 * messages, the connection dropped (as a network drop would), then the
 * stream resumed with a GET that sends `Last-Event-ID`, the id of the last
 * event read, and read until the reply. The server goes on with the request
 * while no one listens: a disconnection is not a cancellation.
 *
 * @module
 */

import { readSseEvents, type SseEvent } from "../mcp/shared/sse.ts";
import type { JsonObject } from "../mcp/shared/jsonrpc.ts";

/** What the two connections carried. */
export interface DroppedStream {
  /** The messages read before the drop. */
  before: JsonObject[];
  /** The id sent back as `Last-Event-ID`. */
  lastEventId: string;
  /** The status of the GET that resumed the stream. */
  resumedStatus: number;
  /** The messages the resumed stream carried, up to and including the reply. */
  after: JsonObject[];
}

/**
 * POST `request` to the MCP endpoint `url` with `headers` (the session's),
 * read `keep` messages of its event stream, drop the connection, and resume
 * with a GET. Throws an `Error` when the POST is not answered with an event
 * stream, or ends before `keep` messages.
 *
 * @example
 * ```ts ignore
 * const dropped = await dropAndResume(url, headers, call, 1);
 * dropped.after.at(-1); // the reply
 * ```
 */
export async function dropAndResume(
  url: URL,
  headers: Record<string, string>,
  request: JsonObject,
  keep: number,
): Promise<DroppedStream> {
  const posted = await fetch(url, { method: "POST", headers, body: JSON.stringify(request) });
  if (!posted.headers.get("content-type")?.startsWith("text/event-stream") || !posted.body) {
    await posted.body?.cancel();
    throw new Error(
      `The POST was answered ${posted.status} ${
        posted.headers.get("content-type")
      }, not an event stream`,
    );
  }
  const before: JsonObject[] = [];
  let lastEventId: string | undefined;
  const events = readSseEvents(posted.body);
  for await (const event of events) {
    if (event.id !== undefined) lastEventId = event.id;
    if (event.data !== "") before.push(JSON.parse(event.data));
    if (before.length === keep) break; // leaving the loop cancels the body: the connection drops
  }
  if (before.length < keep || lastEventId === undefined) {
    throw new Error(`The stream ended after ${before.length} messages, or named no event id`);
  }
  const resumed = await fetch(url, {
    headers: { ...headers, accept: "text/event-stream", "last-event-id": lastEventId },
  });
  const after: JsonObject[] = [];
  if (resumed.ok && resumed.body) {
    for await (const event of readSseEvents(resumed.body) as AsyncIterable<SseEvent>) {
      if (event.data === "") continue;
      const message = JSON.parse(event.data) as JsonObject;
      after.push(message);
      if (message.id === request.id && !("method" in message)) break;
    }
  } else await resumed.body?.cancel();
  return { before, lastEventId, resumedStatus: resumed.status, after };
}

/**
 * Lab 04's subscription: a `subscriptions/listen` of today's protocol
 * (2026-07-28) POSTed with the learner's headers, and its response stream
 * read with the learner's `sseData` one message at a time, as it comes,
 * until it ends: the stream that replaced the handshake era's GET stream.
 *
 * @module
 */

import type { JsonObject } from "../mcp/shared/jsonrpc.ts";
import { withRequestMeta } from "../mcp/shared/meta.ts";
import { readSseWith } from "../mcp/shared/read_sse_with.ts";
import type { SseData } from "../mcp/shared/sse.ts";

/** An open subscription's stream. */
export interface ListenStream {
  /** The HTTP status the POST was answered with. */
  status: number;
  /** The next message the stream carries, `undefined` once it has ended. */
  next(): Promise<JsonObject | undefined>;
  /** Close the stream (which cancels the subscription). */
  close(): Promise<void>;
}

/** The learner's decisions a subscription needs: its POST's headers, and the data of its events. */
export interface ListenDecisions {
  postHeaders(message: JsonObject, session: Record<string, never>): Record<string, string>;
  sseData: SseData;
}

/** The most bytes a subscription's stream may take here. */
const LIMIT = 1 << 20;

/**
 * POST the `subscriptions/listen` request `id` for `filter` (the kinds of
 * change to be told of) to the MCP endpoint `url`, with the headers the
 * learner's `postHeaders` gives it, and open its stream, read with the
 * learner's `sseData`. A response that is not an event stream is a stream
 * of nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ChangeFeed } from "../mcp/server/change_feed.ts";
 * import { serveHttp } from "../mcp/server/http_server.ts";
 * import { standardHeaders } from "../mcp/shared/mcp_headers.ts";
 *
 * const changes = new ChangeFeed();
 * const server = serveHttp({ name: "s", version: "1.0.0", tools: [], changes });
 * const postHeaders = (message: Record<string, unknown>) => ({
 *   "content-type": "application/json",
 *   accept: "application/json, text/event-stream",
 *   ...standardHeaders(String(message.method), message.params),
 * });
 * const sseData = (text: string) => [...text.matchAll(/^data: (.*)\n\n/gm)].map((m) => m[1]);
 * const listening = await openListen(server.url, { toolsListChanged: true }, { postHeaders, sseData }, 7);
 * assert.equal((await listening.next())?.method, "notifications/subscriptions/acknowledged");
 * changes.toolsChanged();
 * assert.equal((await listening.next())?.method, "notifications/tools/list_changed");
 * const closing = server.close(); // the server ends the subscription with its result
 * assert.equal((await listening.next())?.id, 7);
 * assert.equal(await listening.next(), undefined);
 * await closing;
 * ```
 */
export async function openListen(
  url: URL,
  filter: JsonObject,
  decisions: ListenDecisions,
  id = 1,
): Promise<ListenStream> {
  const params = withRequestMeta({ notifications: filter }, {
    protocolVersion: "2026-07-28",
    clientCapabilities: {},
    clientInfo: { name: "lab-04", version: "1.0.0" },
  });
  const request = { jsonrpc: "2.0", id, method: "subscriptions/listen", params };
  const response = await fetch(url, {
    method: "POST",
    headers: decisions.postHeaders(request, {}),
    body: JSON.stringify(request),
  });
  const streamed = response.headers.get("content-type")?.startsWith("text/event-stream");
  if (!streamed || response.body === null) await response.body?.cancel();
  const events = streamed && response.body !== null
    ? readSseWith(response.body, decisions.sseData, { limit: LIMIT })[Symbol.asyncIterator]()
    : undefined;
  return {
    status: response.status,
    async next() {
      const read = await events?.next();
      return read === undefined || read.done
        ? undefined
        : JSON.parse(read.value.data) as JsonObject;
    },
    async close() {
      await events?.return?.(undefined);
    },
  };
}

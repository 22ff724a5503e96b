/**
 * `subscriptions/listen` (2026-07-28) as a server serves it: the client opts
 * in to kinds of change, the server acknowledges the kinds it agrees to
 * ("The server MUST send `notifications/subscriptions/acknowledged` as the
 * first message"), then sends each change the client asked for and nothing
 * else ("The server MUST NOT send notification types the client has not
 * explicitly requested"), every notification tagged with the subscription's
 * id (the request's id), until the client cancels it or the server ends it
 * (then with a result, "to signal a graceful end").
 *
 * @module
 */

import { isObject, type JsonObject, type RequestId } from "../shared/jsonrpc.ts";
import { META } from "../shared/meta.ts";
import type { Change, ChangeFeed } from "./change_feed.ts";
import { ERROR_CODES } from "./replies.ts";
import { RpcError } from "./session_spec.ts";

/** What a server can tell a listening client of. */
export interface Listenable {
  /** The server's changes, if it tells of any. */
  feed?: ChangeFeed;
  /** Whether it offers tools, prompts and resources. */
  offers: { tools: boolean; prompts: boolean; resources: boolean };
}

/** The notification each kind of change is told with. */
const NOTIFICATIONS = {
  toolsListChanged: "notifications/tools/list_changed",
  promptsListChanged: "notifications/prompts/list_changed",
  resourcesListChanged: "notifications/resources/list_changed",
  resourceUpdated: "notifications/resources/updated",
} as const;

/**
 * The subset of the client's filter `requested` that `server` honours: each
 * list whose kind it offers and tells of, and the resources it could tell of.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ChangeFeed } from "./change_feed.ts";
 *
 * const server = { feed: new ChangeFeed(), offers: { tools: true, prompts: false, resources: false } };
 * assert.deepEqual(agreedFilter({ toolsListChanged: true, promptsListChanged: true }, server), { toolsListChanged: true });
 * ```
 */
export function agreedFilter(requested: JsonObject, server: Listenable): JsonObject {
  if (server.feed === undefined) return {};
  const { tools, prompts, resources } = server.offers;
  const subscriptions = Array.isArray(requested.resourceSubscriptions)
    ? requested.resourceSubscriptions.filter((uri) => typeof uri === "string")
    : [];
  return {
    ...(tools && requested.toolsListChanged === true ? { toolsListChanged: true } : {}),
    ...(prompts && requested.promptsListChanged === true ? { promptsListChanged: true } : {}),
    ...(resources && requested.resourcesListChanged === true ? { resourcesListChanged: true } : {}),
    ...(resources && subscriptions.length > 0 ? { resourceSubscriptions: subscriptions } : {}),
  };
}

/**
 * Serve the `subscriptions/listen` request `id` with `params`: acknowledge,
 * then `send` each change the client opted in to, until `cancelled` aborts
 * (the promise then rejects with its reason, and nothing more is sent) or
 * `ended` does (it resolves with the graceful end's result).
 *
 * @example The acknowledgment first, then only what was asked for
 * ```ts
 * import assert from "node:assert/strict";
 * import { ChangeFeed } from "./change_feed.ts";
 *
 * const feed = new ChangeFeed();
 * const sent: Record<string, unknown>[] = [];
 * const ended = new AbortController();
 * const listening = listen(7, { notifications: { toolsListChanged: true } }, {
 *   server: { feed, offers: { tools: true, prompts: true, resources: false } },
 *   send: (message) => void sent.push(message),
 *   cancelled: new AbortController().signal,
 *   ended: ended.signal,
 * });
 * feed.promptsChanged();
 * feed.toolsChanged();
 * ended.abort();
 * assert.deepEqual(await listening, { _meta: { "io.modelcontextprotocol/subscriptionId": 7 } });
 * assert.deepEqual(sent.map((message) => message.method), [
 *   "notifications/subscriptions/acknowledged",
 *   "notifications/tools/list_changed",
 * ]);
 * ```
 */
export function listen(
  id: RequestId,
  params: JsonObject,
  options: {
    server: Listenable;
    send: (message: JsonObject) => void;
    cancelled: AbortSignal;
    ended: AbortSignal;
  },
): Promise<JsonObject> {
  const { server, send, cancelled, ended } = options;
  if (!isObject(params.notifications)) {
    return Promise.reject(
      new RpcError(ERROR_CODES.invalidParams, "Invalid params: notifications must be an object"),
    );
  }
  const agreed = agreedFilter(params.notifications, server);
  const tag = { [META.subscriptionId]: id };
  send({
    jsonrpc: "2.0",
    method: "notifications/subscriptions/acknowledged",
    params: { _meta: tag, notifications: agreed },
  });
  const wanted = (change: Change) =>
    change.kind === "resourceUpdated"
      ? (agreed.resourceSubscriptions as string[] | undefined)?.includes(change.uri) === true
      : agreed[change.kind] === true;
  const stop = server.feed?.listen((change) => {
    if (!wanted(change) || cancelled.aborted) return;
    const uri = change.kind === "resourceUpdated" ? { uri: change.uri } : {};
    send({ jsonrpc: "2.0", method: NOTIFICATIONS[change.kind], params: { _meta: tag, ...uri } });
  });
  const { promise, resolve, reject } = Promise.withResolvers<JsonObject>();
  const end = () => resolve({ _meta: tag });
  const cancel = () => reject(cancelled.reason);
  if (ended.aborted) end();
  ended.addEventListener("abort", end, { once: true });
  cancelled.addEventListener("abort", cancel, { once: true });
  return promise.finally(() => {
    stop?.();
    ended.removeEventListener("abort", end);
    cancelled.removeEventListener("abort", cancel);
  });
}

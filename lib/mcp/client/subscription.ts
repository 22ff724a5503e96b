/**
 * A client's side of `subscriptions/listen` (2026-07-28): a long-lived
 * request whose notifications carry its id (`io.modelcontextprotocol/
 * subscriptionId`), "the acknowledged filter" checked against what was
 * asked (it "reflects the subset the server agreed to honor"), each later notification checked against what was acknowledged
 * (the server "MUST NOT send notification types the client has not
 * explicitly requested"), read as an async iterator, and ended by the
 * client (cancelled) or by the server (its result: "the subscription
 * closed cleanly"). One lost abruptly (a stdio server that exited, an HTTP
 * stream that broke) is opened again, and its new acknowledgment is read
 * like any notification: what changed meanwhile was not told, so the
 * caller reads its lists again.
 *
 * @module
 */

import { ProtocolError, TimeoutError } from "../shared/errors.ts";
import { isObject, type JsonObject, type JsonRpcNotification } from "../shared/jsonrpc.ts";
import { META } from "../shared/meta.ts";
import type { Connection, OpenRequest } from "./connection.ts";

/** What a client opts in to hear of. */
export interface SubscriptionFilter extends JsonObject {
  /** `notifications/tools/list_changed`. */
  toolsListChanged?: boolean;
  /** `notifications/prompts/list_changed`. */
  promptsListChanged?: boolean;
  /** `notifications/resources/list_changed`. */
  resourcesListChanged?: boolean;
  /** `notifications/resources/updated`, for these URIs. */
  resourceSubscriptions?: string[];
}

const LISTS: Record<string, keyof SubscriptionFilter> = {
  "notifications/tools/list_changed": "toolsListChanged",
  "notifications/prompts/list_changed": "promptsListChanged",
  "notifications/resources/list_changed": "resourcesListChanged",
};

/**
 * Why the notification `message` may not come on a subscription whose
 * acknowledged filter is `agreed`, if it may not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const agreed = { toolsListChanged: true, resourceSubscriptions: ["file:///a"] };
 * assert.equal(notAgreed({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }, agreed), undefined);
 * assert.match(notAgreed({ jsonrpc: "2.0", method: "notifications/prompts/list_changed" }, agreed)!, /not acknowledged/);
 * assert.match(notAgreed({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///b" } }, agreed)!, /file:\/\/\/b/);
 * ```
 */
export function notAgreed(
  message: JsonRpcNotification,
  agreed: SubscriptionFilter,
): string | undefined {
  const kind = LISTS[message.method];
  if (kind !== undefined) {
    return agreed[kind] === true ? undefined : `${message.method}, which was not acknowledged`;
  }
  if (message.method === "notifications/resources/updated") {
    const uri = isObject(message.params) ? message.params.uri : undefined;
    return typeof uri === "string" && agreed.resourceSubscriptions?.includes(uri) === true
      ? undefined
      : `notifications/resources/updated for ${JSON.stringify(uri)}, a resource not subscribed to`;
  }
  return `${message.method}, which a subscription does not carry`;
}

/**
 * What the acknowledged filter `acknowledged` holds that the filter `asked`
 * did not ask, each named; none, an empty list. A kind of change is
 * acknowledged with `true` or `false`; `resourceSubscriptions` lists URIs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const asked = { toolsListChanged: true, resourceSubscriptions: ["file:///a", "file:///b"] };
 * assert.deepEqual(notAsked({ toolsListChanged: true, resourceSubscriptions: ["file:///a"] }, asked), []);
 * assert.deepEqual(notAsked({ promptsListChanged: true, resourceSubscriptions: ["file:///c"] }, asked), [
 *   "promptsListChanged",
 *   "resourceSubscriptions file:///c",
 * ]);
 * ```
 */
export function notAsked(acknowledged: JsonObject, asked: SubscriptionFilter): string[] {
  return Object.entries(acknowledged).flatMap(([key, value]) => {
    if (key !== "resourceSubscriptions") {
      return typeof value === "boolean" && (!value || asked[key] === true) ? [] : [key];
    }
    if (!Array.isArray(value)) return [key];
    const subscribed = new Set(asked.resourceSubscriptions);
    return value.filter((uri) => typeof uri !== "string" || !subscribed.has(uri))
      .map((uri) => `${key} ${typeof uri === "string" ? uri : JSON.stringify(uri)}`);
  });
}

/**
 * How a subscription is opened again once it was lost abruptly: the
 * `subscriptions/listen` sent again, to the server started again in place of
 * one that exited (stdio) or to the same one (HTTP), with the connection it
 * went over, unless `wanted()` says no more by then (the subscription was
 * closed meanwhile); `undefined` when none was sent (that, or the client closed).
 */
export type Reopen = (wanted: () => boolean) => Promise<
  { connection: Connection<unknown>; request: OpenRequest } | undefined
>;

/**
 * How many times in a row a subscription is opened again, at most: one that
 * then stays open for the client's deadline starts a new row.
 */
export const MAX_REOPENS = 3;

/**
 * An open subscription: the notifications it carries, in order, until it
 * ends. Made by `Client.listen`. Lost abruptly after it was acknowledged, it
 * is opened again, at most `MAX_REOPENS` times in a row (a subscription that
 * stays open for the client's deadline after it was opened again starts a
 * new row, so that a long one outlives a drop now and then), then ends with
 * a `ProtocolError` that says so: on stdio, when the server exits of its own
 * accord and the client starts it again (2026-07-28: the client "MUST
 * re-send `subscriptions/listen` to re-establish its subscriptions — the
 * server holds no subscription state across reconnections"); over
 * Streamable HTTP, when its stream breaks with no result ("an unexpected
 * disconnect, which the client MAY treat as a trigger to reconnect").
 * Nothing tells what changed while it was lost: once opened again, it
 * carries the new `notifications/subscriptions/acknowledged` (its
 * `params.notifications`, the filter agreed now), after which the caller
 * reads again the lists it keeps (`listTools`, ...), as a client that
 * subscribes for the first time would.
 *
 * @example
 * ```ts ignore
 * await using subscription = await client.listen({ toolsListChanged: true });
 * for await (const notification of subscription) {
 *   // A list changed, or the subscription was opened again and changes may have been missed.
 *   if (notification.method !== "notifications/resources/updated") await client.listTools();
 * }
 * ```
 */
export class Subscription implements AsyncIterable<JsonRpcNotification>, AsyncDisposable {
  #request: OpenRequest;
  readonly #asked: SubscriptionFilter;
  #stop: () => void = () => {};
  readonly #queue: JsonRpcNotification[] = [];
  readonly #timeoutMs: number;
  readonly #reopen: Reopen;
  #reopens = 0;
  /** When the subscription was last acknowledged (`performance.now()`). */
  #agreedAt = 0;
  #wake?: () => void;
  #acked?: () => void;
  #ended = false;
  #error?: unknown;
  #agreed?: SubscriptionFilter;

  /**
   * Subscribe through `request` (a `subscriptions/listen` of the filter
   * `asked` sent over `connection`), and wait, at most `timeoutMs`, for the
   * server's acknowledgment; a server that acknowledges nothing, or more than
   * was asked, or sends what was not acknowledged, is distrusted. Lost
   * abruptly, it is opened again with `reopen` (and acknowledged within
   * `timeoutMs` as well).
   */
  static async open(
    connection: Connection<unknown>,
    request: OpenRequest,
    asked: SubscriptionFilter,
    timeoutMs: number,
    reopen: Reopen,
  ): Promise<Subscription> {
    const subscription = new Subscription(request, asked, timeoutMs, reopen);
    await subscription.#attach(connection, request);
    return subscription;
  }

  private constructor(
    request: OpenRequest,
    asked: SubscriptionFilter,
    timeoutMs: number,
    reopen: Reopen,
  ) {
    this.#request = request;
    this.#asked = asked;
    this.#timeoutMs = timeoutMs;
    this.#reopen = reopen;
  }

  /** The kinds of change the server agreed to tell of: a subset of those asked for (none while it is opened again). */
  get acknowledged(): SubscriptionFilter {
    return { ...this.#agreed };
  }

  /** The notifications, in order; it ends when the subscription does, and throws if it ended in error. */
  async *[Symbol.asyncIterator](): AsyncGenerator<JsonRpcNotification> {
    while (true) {
      const next = this.#queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#ended) {
        if (this.#error !== undefined) throw this.#error;
        return;
      }
      await new Promise<void>((resolve) => this.#wake = resolve);
    }
  }

  /** End the subscription (the server is told); what was received and not read yet is still read. */
  close(): void {
    this.#end();
    this.#request.cancel();
  }

  /** Close the subscription at the end of an `await using` block. */
  [Symbol.asyncDispose](): Promise<void> {
    this.close();
    return Promise.resolve();
  }

  /**
   * Hear the subscription `request` opened over `connection`, and wait for
   * its acknowledgment: throws `TimeoutError` (the request cancelled) when
   * none comes within the deadline, and what ended it when it ended first.
   */
  async #attach(connection: Connection<unknown>, request: OpenRequest): Promise<void> {
    if (this.#ended) { // closed as it was sent again: its end is no one's to hear
      request.reply.catch(() => {});
      request.cancel();
      return;
    }
    this.#request = request;
    this.#agreed = undefined;
    const acknowledged = new Promise<void>((resolve) => this.#acked = resolve);
    this.#stop = connection.listen((message) => {
      const meta = isObject(message.params) && isObject(message.params._meta)
        ? message.params._meta
        : {};
      if (meta[META.subscriptionId] !== request.id || this.#ended) return;
      const problem = this.#agreed === undefined
        ? message.method === "notifications/subscriptions/acknowledged" &&
            isObject(message.params?.notifications)
          ? beyondAsked(message.params.notifications, this.#asked)
          : `${message.method}, before the acknowledgment`
        : notAgreed(message, this.#agreed);
      if (problem !== undefined) {
        this.#end(connection.distrust(`The subscription ${request.id} carried ${problem}`));
        return;
      }
      if (this.#agreed === undefined) {
        this.#agreed = (message.params as JsonObject).notifications as SubscriptionFilter;
        this.#agreedAt = performance.now();
        this.#acked?.();
        if (this.#reopens > 0) this.#tell(message); // opened again: changes may have been missed
      } else this.#tell(message);
    });
    request.reply.then(() => this.#end(), (error) => this.#lost(connection, request, error));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => timer = setTimeout(resolve, this.#timeoutMs));
    await Promise.race([acknowledged, late]);
    clearTimeout(timer);
    if (this.#agreed !== undefined && !this.#ended) return;
    const error = this.#ended
      ? this.#error ?? new ProtocolError("The subscription ended before it was acknowledged")
      : new TimeoutError(`subscriptions/listen was not acknowledged within ${this.#timeoutMs} ms`);
    // Ended first, so that the request's end, cancelled, is not taken for the server's.
    this.#end(error);
    request.cancel();
    throw error;
  }

  /** Hand `message` to the caller. */
  #tell(message: JsonRpcNotification): void {
    this.#queue.push(message);
    this.#wake?.();
  }

  /**
   * The subscription's `request` over `connection` failed with `error`: when
   * it was lost abruptly after it was acknowledged (the server exited, or
   * its stream broke), open it again; otherwise it ends with `error`.
   */
  #lost(connection: Connection<unknown>, request: OpenRequest, error: unknown): void {
    if (this.#ended) return;
    const abrupt = connection.exited || request.broke();
    if (!abrupt || this.#agreed === undefined) {
      this.#end(error);
      return;
    }
    // Open for the client's deadline since it was opened again: a new row begins.
    if (performance.now() - this.#agreedAt >= this.#timeoutMs) this.#reopens = 0;
    if (this.#reopens === MAX_REOPENS) {
      this.#end(
        new ProtocolError(
          `The subscription ended: ${(error as Error).message}, and it was opened again ` +
            `${MAX_REOPENS} times in a row already, ${
              connection.exited ? "on servers that each exited" : "its stream broken each time"
            }`,
        ),
      );
      return;
    }
    this.#reopens++;
    this.#stop();
    this.#agreed = undefined;
    this.#reopen(() => !this.#ended).then(
      (next) => next === undefined ? this.#end(error) : this.#attach(next.connection, next.request),
    ).catch((failed) => this.#end(failed));
  }

  #end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error instanceof ProtocolError && /was cancelled$/.test(error.message)
      ? undefined
      : error;
    this.#stop();
    this.#wake?.();
    this.#acked?.();
  }
}

/** Why the acknowledged filter `acknowledged` is more than `asked`, if it is. */
function beyondAsked(acknowledged: JsonObject, asked: SubscriptionFilter): string | undefined {
  const beyond = notAsked(acknowledged, asked);
  return beyond.length === 0
    ? undefined
    : `an acknowledgment that acknowledged ${beyond.join(", ")}, which were not asked`;
}

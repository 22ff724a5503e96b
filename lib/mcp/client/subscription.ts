/**
 * A client's side of `subscriptions/listen` (2026-07-28): a long-lived
 * request whose notifications carry its id (`io.modelcontextprotocol/
 * subscriptionId`), "the acknowledged filter" checked against what was
 * asked, each later notification checked against what was acknowledged
 * (the server "MUST NOT send notification types the client has not
 * explicitly requested"), read as an async iterator, and ended by the
 * client (cancelled) or by the server (its result: "the subscription
 * closed cleanly").
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
 * An open subscription: the notifications it carries, in order, until it
 * ends. Made by `Client.listen`.
 *
 * @example
 * ```ts ignore
 * await using subscription = await client.listen({ toolsListChanged: true });
 * for await (const notification of subscription) console.log(notification.method);
 * ```
 */
export class Subscription implements AsyncIterable<JsonRpcNotification>, AsyncDisposable {
  readonly #request: OpenRequest;
  readonly #stop: () => void;
  readonly #queue: JsonRpcNotification[] = [];
  #wake?: () => void;
  #ended = false;
  #error?: unknown;
  #agreed?: SubscriptionFilter;

  /**
   * Subscribe through `request` (a `subscriptions/listen` sent over
   * `connection`), and wait, at most `timeoutMs`, for the server's
   * acknowledgment; a server that acknowledges nothing, or sends what was
   * not acknowledged, is distrusted.
   */
  static async open(
    connection: Connection<unknown>,
    request: OpenRequest,
    timeoutMs: number,
  ): Promise<Subscription> {
    const subscription = new Subscription(connection, request);
    const acknowledged = await subscription.#acknowledged(timeoutMs);
    if (!acknowledged) {
      request.cancel();
      subscription.#stop();
      throw new TimeoutError(`subscriptions/listen was not acknowledged within ${timeoutMs} ms`);
    }
    return subscription;
  }

  private constructor(connection: Connection<unknown>, request: OpenRequest) {
    this.#request = request;
    this.#stop = connection.listen((message) => {
      const meta = isObject(message.params) && isObject(message.params._meta)
        ? message.params._meta
        : {};
      if (meta[META.subscriptionId] !== request.id || this.#ended) return;
      const problem = this.#agreed === undefined
        ? message.method === "notifications/subscriptions/acknowledged" &&
            isObject(message.params?.notifications)
          ? undefined
          : `${message.method}, before the acknowledgment`
        : notAgreed(message, this.#agreed);
      if (problem !== undefined) {
        this.#end(connection.distrust(`The subscription ${request.id} carried ${problem}`));
        return;
      }
      if (this.#agreed === undefined) {
        this.#agreed = (message.params as JsonObject).notifications as SubscriptionFilter;
      } else this.#queue.push(message);
      this.#wake?.();
    });
    request.reply.then(() => this.#end(), (error) => this.#end(error));
  }

  /** The kinds of change the server agreed to tell of: a subset of those asked for. */
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

  async #acknowledged(timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (this.#agreed === undefined && !this.#ended) {
      const left = deadline - performance.now();
      if (left <= 0) return false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        timer = setTimeout(resolve, left);
      });
      clearTimeout(timer);
    }
    if (this.#agreed === undefined && this.#error !== undefined) throw this.#error;
    if (this.#agreed === undefined) {
      throw new ProtocolError("The subscription ended before it was acknowledged");
    }
    return true;
  }

  #end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error instanceof ProtocolError && /was cancelled$/.test(error.message)
      ? undefined
      : error;
    this.#stop();
    this.#wake?.();
  }
}

/**
 * The requests a connection keeps open with no deadline (2026-07-28's
 * `subscriptions/listen`): outside the in-flight limit, and outside the rule
 * that gives a reply to the one request waiting whatever its id. What ends one
 * names it: an error with its id, a result tagged as a subscription's end
 * ("the response carries `io.modelcontextprotocol/subscriptionId`"), or the
 * server's `notifications/cancelled` for it ("tears down that subscription
 * stream"); any other reply with its id is not its to take.
 *
 * @module
 */

import { ProtocolError } from "../shared/errors.ts";
import {
  isObject,
  type JsonObject,
  type JsonRpcResponse,
  type RequestId,
} from "../shared/jsonrpc.ts";
import { META } from "../shared/meta.ts";

/** A request with no deadline, whose reply may never come (a `subscriptions/listen`). */
export interface OpenRequest {
  /** Its id. */
  readonly id: RequestId;
  /**
   * Settles with its end: the result, `undefined` when the server ended it
   * with its `notifications/cancelled` (no result came), or a `ProtocolError`.
   */
  readonly reply: Promise<JsonObject | undefined>;
  /** Cancel it: the server is told, and its reply, if one comes, is dropped. */
  cancel(): void;
  /**
   * Whether it ended because its stream broke before its result (Streamable
   * HTTP, 2026-07-28): "a transport that closes without it indicates an
   * unexpected disconnect, which the client MAY treat as a trigger to reconnect".
   */
  broke(): boolean;
}

/**
 * The open requests of one connection, by id.
 *
 * @example A subscription ends with the result that names it
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const open = new OpenRequests();
 * const reply = open.add(4);
 * assert.equal(open.settle({ jsonrpc: "2.0", id: 4, result: { content: [] } }), false);
 * const tagged = { _meta: { "io.modelcontextprotocol/subscriptionId": 4 } };
 * assert.equal(open.settle({ jsonrpc: "2.0", id: 4, result: tagged }), true);
 * assert.deepEqual(await reply, tagged);
 * ```
 *
 * @example One whose stream broke is told apart from one that failed
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const open = new OpenRequests();
 * const [broken, failed] = [open.add(1), open.add(2)];
 * open.drop(1, new Error("the stream ended"), true);
 * open.drop(2, new Error("the client is closed"));
 * await Promise.allSettled([broken, failed]);
 * assert.deepEqual([open.broke(broken), open.broke(failed)], [true, false]);
 * ```
 */
export class OpenRequests {
  readonly #open = new Map<RequestId, PromiseWithResolvers<JsonObject | undefined>>();
  readonly #broke = new WeakSet<Promise<JsonObject | undefined>>();

  /** Keep the request `id` open; the promise settles with its end. */
  add(id: RequestId): Promise<JsonObject | undefined> {
    const waiting = Promise.withResolvers<JsonObject | undefined>();
    this.#open.set(id, waiting);
    return waiting.promise;
  }

  /** Stop waiting for `id`, failing it with `error` (`broke`: its stream broke); whether it was open. */
  drop(id: RequestId, error: unknown, broke = false): boolean {
    const waiting = this.#open.get(id);
    this.#open.delete(id);
    if (waiting !== undefined && broke) this.#broke.add(waiting.promise);
    waiting?.reject(error);
    return waiting !== undefined;
  }

  /** Whether the request whose end `reply` settles with was dropped because its stream broke. */
  broke(reply: Promise<JsonObject | undefined>): boolean {
    return this.#broke.has(reply);
  }

  /** The server ended `id` of its own accord (its `notifications/cancelled`): it ends, with no error and no result. */
  ended(id: RequestId): void {
    this.#open.get(id)?.resolve(undefined);
    this.#open.delete(id);
  }

  /** Take `response` if it ends an open request, and say whether it did. */
  settle(response: JsonRpcResponse): boolean {
    const waiting = response.id === null ? undefined : this.#open.get(response.id);
    if (waiting === undefined) return false;
    if ("error" in response) {
      const { code, message, data } = response.error;
      waiting.reject(
        new ProtocolError(`The server answered with error ${code}: ${message}`, { code, data }),
      );
    } else {
      const meta = response.result._meta;
      if (!isObject(meta) || meta[META.subscriptionId] !== response.id) return false;
      waiting.resolve(response.result);
    }
    this.#open.delete(response.id!);
    return true;
  }

  /** Fail every open request with `error`. */
  failAll(error: unknown): void {
    for (const waiting of this.#open.values()) waiting.reject(error);
    this.#open.clear();
  }
}

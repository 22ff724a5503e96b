/**
 * The requests a connection has sent and not yet had answered: each found by
 * the reply that answers it, each ended by its deadline on one timer, and a
 * late reply to one that timed out and was cancelled dropped, as the
 * specification says.
 *
 * @module
 */

import { ProtocolError, TimeoutError } from "../shared/errors.ts";
import type { JsonObject, RequestId } from "../shared/jsonrpc.ts";
import { DeadlineTimer } from "./deadline_timer.ts";

/** A request sent and not yet answered. */
export interface Waiting {
  id: RequestId;
  method: string;
  /** Whether its timeout tells the server (`notifications/cancelled`). */
  cancellable: boolean;
  /** Whether a JSON-RPC error answering it fails it alone (see `RequestOptions.errorIsAnswer`). */
  errorIsAnswer?: boolean;
  /** When the request times out, on the `performance.now()` clock. */
  deadline: number;
  /** The deadline's length, which its `TimeoutError` names. @default {the `timeoutMs` of the requests} */
  timeoutMs?: number;
  resolve: (result: JsonObject) => void;
  reject: (error: unknown) => void;
}

/**
 * The requests in flight. When one's deadline passes it fails with a
 * `TimeoutError` naming `timeoutMs`; if it is cancellable, `cancel` is told
 * its id first (to send `notifications/cancelled`), and its late reply is
 * dropped.
 *
 * @example A request that times out, and its late reply dropped
 * ```ts
 * import assert from "node:assert/strict";
 * import { TimeoutError } from "../shared/errors.ts";
 *
 * const cancelled: unknown[] = [];
 * const pending = new PendingRequests(10, (id) => void cancelled.push(id));
 * const { promise, resolve, reject } = Promise.withResolvers<Record<string, unknown>>();
 * pending.add({ id: 1, method: "tools/call", cancellable: true, deadline: performance.now() + 10, resolve, reject });
 * await assert.rejects(promise, TimeoutError);
 * assert.deepEqual(cancelled, [1]);
 * assert.equal(pending.take(1), undefined);
 * ```
 */
export class PendingRequests {
  readonly #waiting = new Map<RequestId, Waiting>();
  readonly #cancelled = new Set<RequestId>();
  readonly #timer = new DeadlineTimer(() => this.#earliest(), () => this.#expire());
  readonly #timeoutMs: number;
  readonly #cancel: (id: RequestId) => void;

  /** Requests whose deadline is `timeoutMs` after sending; `cancel` is told of each cancellable one that times out. */
  constructor(timeoutMs: number, cancel: (id: RequestId) => void) {
    this.#timeoutMs = timeoutMs;
    this.#cancel = cancel;
  }

  /** How many requests are in flight. */
  get size(): number {
    return this.#waiting.size;
  }

  /** `waiting` is sent: watch its deadline. */
  add(waiting: Waiting): void {
    this.#waiting.set(waiting.id, waiting);
    this.#timer.watch(waiting.deadline);
  }

  /**
   * Take the request a reply with `id` is for: the one in flight, when only
   * one is (the answer function judges its id); otherwise the one with
   * exactly its id. `undefined` for a late reply to a request cancelled,
   * which is dropped; a `ProtocolError` for a reply that answers none.
   */
  take(id: RequestId | null): Waiting | undefined {
    if (id !== null && this.#cancelled.delete(id)) return undefined;
    const waiting = this.#waiting.size === 1
      ? this.#waiting.values().next().value
      : id === null
      ? undefined
      : this.#waiting.get(id);
    if (waiting === undefined) {
      throw new ProtocolError(
        this.#waiting.size === 0
          ? `A reply with id ${JSON.stringify(id)} arrived while no request was waiting`
          : `A reply with id ${
            JSON.stringify(id)
          } answers none of the ${this.#waiting.size} requests in flight`,
      );
    }
    this.#waiting.delete(waiting.id);
    return waiting;
  }

  /** Fail the request `id` alone with `error`: its reply was lost, and the others may still come. */
  lose(id: RequestId, error: unknown): void {
    const waiting = this.#waiting.get(id);
    if (waiting === undefined) return;
    this.#waiting.delete(id);
    waiting.reject(error);
  }

  /**
   * Fail every request in flight with `error`, its late reply dropped where
   * it may be cancelled: the ids returned, for the caller to cancel.
   */
  abandon(error: unknown): RequestId[] {
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    const cancelled = waiting.filter(({ cancellable }) => cancellable).map(({ id }) => id);
    for (const id of cancelled) this.#cancelled.add(id);
    for (const request of waiting) request.reject(error);
    return cancelled;
  }

  /** Fail every request in flight with `error`, at once. */
  rejectAll(error: unknown): void {
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const request of waiting) request.reject(error);
  }

  /** Stop watching deadlines (the connection is closed). */
  stop(): void {
    this.#timer.stop();
  }

  /** The earliest deadline of the requests in flight, if any are. */
  #earliest(): number | undefined {
    let earliest: number | undefined;
    for (const { deadline } of this.#waiting.values()) {
      if (earliest === undefined || deadline < earliest) earliest = deadline;
    }
    return earliest;
  }

  /**
   * End each request whose deadline has passed with a `TimeoutError`, and
   * tell `cancel` of each that may be cancelled; watch the next deadline.
   */
  #expire(): void {
    const now = performance.now();
    for (const waiting of [...this.#waiting.values()]) {
      if (waiting.deadline > now) continue;
      this.#waiting.delete(waiting.id);
      const { id, method, cancellable, timeoutMs = this.#timeoutMs } = waiting;
      if (cancellable) {
        this.#cancelled.add(id);
        this.#cancel(id);
      }
      waiting.reject(
        new TimeoutError(`${method} (id ${id}) had no reply within ${timeoutMs} ms`),
      );
    }
    const next = this.#earliest();
    if (next !== undefined) this.#timer.watch(next);
  }
}

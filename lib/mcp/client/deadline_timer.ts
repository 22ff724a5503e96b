/**
 * One timer for a sequence of deadlines, one at a time: the requests of a
 * connection, each waiting in turn.
 *
 * @module
 */

/**
 * A timer that is not set and cleared for each deadline: in Deno 2.9 that
 * added about 20 µs of CPU to every call, more than the rest of the client's
 * own work (see BENCHMARKS.md). It is set again only for a deadline earlier
 * than the one it is set for. When it fires, it asks `waitingUntil` for the
 * deadline of whatever waits now: none, and it rests; a later one, and it
 * waits again for the time left; one that has passed, and it calls
 * `expire`. So every deadline is kept, neither early nor late.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const deadline = performance.now() + 20;
 * const expired = Promise.withResolvers<number>();
 * const timer = new DeadlineTimer(() => deadline, () => expired.resolve(performance.now()));
 * timer.watch(deadline);
 * assert.ok(await expired.promise >= deadline);
 * ```
 */
export class DeadlineTimer {
  readonly #waitingUntil: () => number | undefined;
  readonly #expire: () => void;
  #timer?: ReturnType<typeof setTimeout>;
  /** When the timer fires, on the `performance.now()` clock. */
  #firesAt = 0;

  /** A timer for the deadlines `waitingUntil` gives, which calls `expire` when one passes. */
  constructor(waitingUntil: () => number | undefined, expire: () => void) {
    this.#waitingUntil = waitingUntil;
    this.#expire = expire;
  }

  /** Make sure the timer fires by `deadline` (a `performance.now()` time). */
  watch(deadline: number): void {
    if (this.#timer === undefined || this.#firesAt > deadline) this.#set(deadline);
  }

  /** Stop the timer for good, or until the next `watch`. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #set(deadline: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(this.#fire, Math.max(0, deadline - performance.now()));
    this.#firesAt = deadline;
  }

  #fire = (): void => {
    this.#timer = undefined;
    const deadline = this.#waitingUntil();
    if (deadline === undefined) return;
    if (deadline > performance.now()) this.#set(deadline);
    else this.#expire();
  };
}

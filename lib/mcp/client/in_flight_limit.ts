/**
 * A bound on how many requests a connection has in flight at once: the rest
 * wait their turn, first come first served.
 *
 * @module
 */

/**
 * At most `max` tasks run at once; each further one starts when one before
 * it finishes, in the order they came. With one, requests go one at a time,
 * as Lab 02's rule has them.
 *
 * @example The second task waits for the first
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const limit = new InFlightLimit(1);
 * const order: string[] = [];
 * const first = limit.run(async () => {
 *   await new Promise((resolve) => setTimeout(resolve, 10));
 *   order.push("first");
 * });
 * const second = limit.run(async () => void order.push("second"));
 * await Promise.all([first, second]);
 * assert.deepEqual(order, ["first", "second"]);
 * assert.throws(() => new InFlightLimit(0), RangeError);
 * ```
 */
export class InFlightLimit {
  readonly #max: number;
  /** The tasks waiting for one in flight to finish, first come first served. */
  readonly #turns: (() => void)[] = [];
  #inFlight = 0;

  /** A limit of `max` at once: a whole number, at least 1 (a `RangeError` otherwise). */
  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`maxInFlight must be a whole number of requests, at least 1`);
    }
    this.#max = max;
  }

  /** Run `task` once fewer than `max` are in flight, and resolve with what it gives. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#inFlight < this.#max) this.#inFlight++;
    else await new Promise<void>((resolve) => this.#turns.push(resolve));
    try {
      return await task();
    } finally {
      // The turn passes straight to the next task waiting, if one is.
      const next = this.#turns.shift();
      if (next === undefined) this.#inFlight--;
      else next();
    }
  }
}

/**
 * Work on many items at once, at most `jobs` at a time, with the results
 * handed back in the items' order.
 *
 * @module
 */

/**
 * Yield `work(item)` for each of `items`, in their order, while running up
 * to `jobs` of them at once (a new one starts as soon as any finishes). A
 * rejection is yielded as a settled result, so one failure never stops the
 * others.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
 * const seen = [];
 * for await (const result of inOrder([30, 10, 20], 2, async (ms) => (await wait(ms), ms))) {
 *   seen.push(result.status === "fulfilled" ? result.value : "failed");
 * }
 * assert.deepEqual(seen, [30, 10, 20]);
 * ```
 */
export async function* inOrder<T, R>(
  items: readonly T[],
  jobs: number,
  work: (item: T) => Promise<R>,
): AsyncGenerator<PromiseSettledResult<R>> {
  if (!Number.isInteger(jobs) || jobs < 1) {
    throw new RangeError(`The number of jobs must be a positive whole number, not ${jobs}`);
  }
  const settled = items.map(() => Promise.withResolvers<PromiseSettledResult<R>>());
  let next = 0;
  const launch = (): void => {
    if (next >= items.length) return;
    const index = next++;
    Promise.resolve(items[index]).then(work).then(
      (value) => settled[index].resolve({ status: "fulfilled", value }),
      (reason) => settled[index].resolve({ status: "rejected", reason }),
    ).finally(launch);
  };
  for (let running = 0; running < jobs; running++) launch();
  for (const { promise } of settled) yield await promise;
}

/**
 * How much work a value a learner's realm sent back is to the grader, which
 * compares it, writes it as JSON and walks it in its own event loop. A
 * structured clone keeps shared objects shared: forty levels of `[x, x]` are
 * a few hundred bytes on the wire and 2^40 leaves to `JSON.stringify`, and an
 * array of holes is a length with nothing behind it.
 *
 * @module
 */

/**
 * About how many characters `value` takes written out in full: each string
 * (a key, a value, a `String` object) its length, each array its length
 * (holes included), each object, number and other leaf at least one, each
 * `ArrayBuffer` or view its bytes, each BigInt its digits in hex (one of more
 * than {@linkcode BIGINT_BITS} bits, whose decimal digits cost far more to
 * work out than its bytes, as past `limit`); an object reached twice counts twice, a
 * cycle's way back once. Counting stops once it passes `limit`, so that it
 * costs at most about `limit` steps (and one object's keys) whatever the
 * value is: compare the result with `limit`. Never recurses (a value nested a
 * million deep is counted like any other), and never throws: a value that
 * cannot be read (a getter that throws, a revoked Proxy) counts as past `limit`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * // One for the object, and one for each string, with its length.
 * assert.equal(writtenSize({ ab: "cde" }, 100), 1 + 3 + 4);
 * let shared: unknown = 1;
 * for (let i = 0; i < 40; i++) shared = [shared, shared];
 * assert.ok(writtenSize(shared, 1000) > 1000);
 * assert.ok(writtenSize(new Array(1e9), 1000) > 1000);
 * assert.ok(writtenSize([1n << 6_000_000n], 1e9) > 1e9);
 * const cycle: Record<string, unknown> = {};
 * cycle.self = cycle;
 * assert.equal(writtenSize(cycle, 1000), 1 + 5 + 1);
 * ```
 */
export function writtenSize(value: unknown, limit: number): number {
  try {
    return counted(value, limit);
  } catch {
    return limit + 1;
  }
}

/**
 * The most bits a BigInt may have and count as its digits: the time its
 * decimal digits take grows with the square of its bits (about 35 µs here), so
 * that a reply's bytes of such BigInts cost the grader tens of milliseconds,
 * where one BigInt of those bytes (6 million bits) cost it half a second.
 */
const BIGINT_BITS = 1 << 12;

/** What `value` counts for in {@linkcode writtenSize}: past `limit` when it has more than {@linkcode BIGINT_BITS} bits. */
function bigIntSize(value: bigint, limit: number): number {
  const hex = (value < 0n ? -value : value).toString(16).length;
  return hex * 4 > BIGINT_BITS ? limit + 1 : hex;
}

/** {@linkcode writtenSize}, which may throw where reading `value` throws. */
function counted(value: unknown, limit: number): number {
  let size = 0;
  /**
   * Whether each object met is on the way from `value` to the one being
   * counted: reaching one that is again is a cycle. An object leaving the way
   * is marked, never deleted: a Set that objects enter and leave over and
   * over, a few thousand deep, costs that depth a step.
   */
  const onPath = new Map<object, boolean>();
  /** What is left to count; `leave` ends an object's place on the path. */
  const stack: ({ visit: unknown } | { leave: object })[] = [{ visit: value }];
  while (stack.length > 0 && size <= limit) {
    const next = stack.pop()!;
    if ("leave" in next) {
      onPath.set(next.leave, false);
      continue;
    }
    const item = next.visit;
    size += 1;
    if (typeof item === "string") size += item.length;
    if (typeof item === "bigint") size += bigIntSize(item, limit);
    if (typeof item !== "object" || item === null || onPath.get(item)) continue;
    if (ArrayBuffer.isView(item) || item instanceof ArrayBuffer) {
      size += item.byteLength;
      continue;
    }
    if (item instanceof String) size += item.length;
    if (Array.isArray(item)) size += item.length;
    if (size > limit) break;
    onPath.set(item, true);
    stack.push({ leave: item });
    const inner = item instanceof Map
      ? [...item].flat()
      : item instanceof Set
      ? [...item]
      : Array.isArray(item)
      ? Object.values(item)
      : Object.entries(item).flat();
    for (const part of inner) stack.push({ visit: part });
  }
  return size;
}

// The one way a learner's realm's first modules set what its code may use:
// for good, so that no code that runs after them can change or remove it.

/**
 * Define `name` of `target` as `value`, neither writable nor configurable
 * (a new property is not enumerable either). Throws `TypeError` when it
 * cannot be defined so.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const target = fixed({}, "a", 1);
 * assert.throws(() => Object.defineProperty(target, "a", { value: 2 }), TypeError);
 * ```
 */
export function fixed<T extends object>(target: T, name: PropertyKey, value: unknown): T {
  return Object.defineProperty(target, name, { value, writable: false, configurable: false });
}

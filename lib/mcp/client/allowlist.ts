/**
 * The allowlist: a tool is called only when the server advertised it and the
 * operator allowed it. Everything else is refused.
 *
 * @module
 */

/**
 * True only when `name` is both in `catalog` (the tools the server
 * advertised) and in `allowed` (the tools the operator permits). Default deny:
 * an advertised tool that is not allowed, or an allowed name the server never
 * offered, is refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const catalog = { word_count: {}, place_purchase: {} };
 * assert.equal(authorize("word_count", catalog, new Set(["word_count"])), true);
 * assert.equal(authorize("place_purchase", catalog, new Set(["word_count"])), false);
 * assert.equal(authorize("word_count", {}, new Set(["word_count"])), false);
 * ```
 */
export function authorize(
  name: string,
  catalog: Readonly<Record<string, unknown>>,
  allowed: ReadonlySet<string>,
): boolean {
  return Object.hasOwn(catalog, name) && allowed.has(name);
}

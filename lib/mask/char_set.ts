/**
 * Sets of code points, as the mask's string grammars read them.
 *
 * @module
 */

/** A set of code points as sorted, disjoint, inclusive ranges. */
export type CharSet = [number, number][];

/** Every code point. */
export const ANY_CHAR: CharSet = [[0, 0x10ffff]];

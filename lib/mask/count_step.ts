/**
 * Reading bytes with counts: the automaton's moves, each tick counted at its
 * region's level and refused past the region's `max`, each region left only
 * at its `min` or more, each one entered starting from 0 (`regions.ts`).
 *
 * @module
 */

import type { RegionInfo } from "./regions.ts";

/**
 * Read `bytes` from `state` with the counters `counts` (one per level, changed
 * in place): the state reached, or -1 when a byte is not allowed or a count
 * would pass its bound. The last state is also refused when its counts could
 * no longer be brought within bounds.
 *
 * @example maxLength 2, as a region over a string's characters
 * ```ts
 * import assert from "node:assert/strict";
 * import { stringDfa } from "./string_grammar.ts";
 *
 * const dfa = stringDfa({ maxLength: 2 });
 * const info = dfa.regionInfo!;
 * const run = (text: string) => stepCounted(info, 0, new Float64Array(info.levels), new TextEncoder().encode(text));
 * assert.ok(run('"ab"') >= 0);
 * assert.equal(run('"abc'), -1);
 * ```
 */
export function stepCounted(
  info: RegionInfo,
  state: number,
  counts: Float64Array,
  bytes: Uint8Array,
): number {
  const { table } = info;
  const { regionOf, ticks } = info.counting;
  for (let index = 0; index < bytes.length; index++) {
    const move = state * 256 + bytes[index];
    const next = table[move];
    if (next < 0) return -1;
    const tick = ticks[move];
    if (tick >= 0) {
      const level = info.level[tick];
      if (++counts[level] > info.max[tick]) return -1;
    }
    // leave the regions `next` is not in, checking their minimum; enter the new ones at 0
    let from = regionOf[state];
    const to = regionOf[next];
    if (from !== to) {
      while (from >= 0 && !(to >= 0 && sameOrAbove(info, from, to))) {
        if (counts[info.level[from]] < info.min[from]) return -1;
        from = info.parent[from];
      }
      for (let entered = to; entered >= 0 && entered !== from; entered = info.parent[entered]) {
        counts[info.level[entered]] = 0;
      }
    }
    state = next;
  }
  for (let region = regionOf[state]; region >= 0; region = info.parent[region]) {
    const level = info.level[region];
    if (counts[level] + info.needed(state, level) > info.max[region]) return -1;
  }
  return state;
}

/** True when `region` is `inner` or one of the regions around it. */
function sameOrAbove(info: RegionInfo, region: number, inner: number): boolean {
  for (let at = inner; at >= 0; at = info.parent[at]) if (at === region) return true;
  return false;
}

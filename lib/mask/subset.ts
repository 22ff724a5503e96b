/**
 * The subset construction: a deterministic automaton that reads what an
 * NFA fragment reads, a state per set of NFA states reached (closed under
 * empty moves), the runs of bytes every member reads alike read once.
 * Counted regions and ticks carry over; two members that read on in
 * different regions are a `CounterConflict`.
 *
 * @module
 */

import type { ByteNfa, Fragment } from "./byte_nfa.ts";
import type { Combined } from "./dfa_product.ts";
import { SchemaTooLargeError } from "./errors.ts";
import { CounterConflict } from "./regions.ts";

/**
 * The table and marks of the automaton that reads what `fragment` of `nfa`
 * reads (not yet trimmed or minimised).
 *
 * @example "ab" or "ac": one state after "a", not yet minimised
 * ```ts
 * import assert from "node:assert/strict";
 * import { ByteNfa } from "./byte_nfa.ts";
 *
 * const nfa = new ByteNfa();
 * const utf8 = new TextEncoder();
 * const fragment = nfa.alternatives([nfa.literal(utf8.encode("ab")), nfa.literal(utf8.encode("ac"))]);
 * const { table, accepting } = subsetConstruction(nfa, fragment, 100);
 * assert.equal(accepting.length, 4);
 * assert.deepEqual([...accepting], [0, 0, 1, 1]);
 * assert.equal(table[0x61], 1);
 * ```
 */
export function subsetConstruction(nfa: ByteNfa, fragment: Fragment, limit: number): Combined {
  const counted = nfa.regions.length > 0;
  const stamp = new Int32Array(nfa.stateCount);
  let round = 0;
  const closure = (seeds: number[]): number[] => {
    round++;
    const found: number[] = [];
    const stack: number[] = [];
    for (const seed of seeds) {
      if (stamp[seed] !== round) {
        stamp[seed] = round;
        stack.push(seed);
      }
    }
    while (stack.length > 0) {
      const state = stack.pop()!;
      found.push(state);
      for (const next of nfa.empty[state]) {
        if (stamp[next] !== round) {
          stamp[next] = round;
          stack.push(next);
        }
      }
    }
    return found.sort((a, b) => a - b);
  };
  const sets: number[][] = [];
  const ids = new Map<string, number>();
  const idOf = (set: number[]): number => {
    const key = set.join(",");
    let id = ids.get(key);
    if (id === undefined) {
      id = sets.length;
      if (id >= limit) throw new SchemaTooLargeError(id + 1, limit);
      ids.set(key, id);
      sets.push(set);
    }
    return id;
  };
  idOf(closure([fragment.start]));
  const rows: Int32Array[] = [];
  const tickRows: Int32Array[] = [];
  const accepting: number[] = [];
  const regionOf: number[] = [];
  const originOf: number[] = [];
  const cuts = new Uint8Array(257);
  for (let id = 0; id < sets.length; id++) {
    const members = sets[id];
    // the bytes where some member's moves begin or end cut 0..255 into runs read alike
    cuts.fill(0);
    cuts[0] = cuts[256] = 1;
    let region = -2;
    let origin = -2;
    for (const state of members) {
      const moves = nfa.moves[state];
      for (let index = 0; index < moves.length; index += 4) {
        cuts[moves[index]] = cuts[moves[index + 1] + 1] = 1;
      }
      if (moves.length > 0 || state === fragment.end) {
        // members that read on all read as one state of another automaton, or the set as none
        origin = origin === -2 || origin === nfa.originOf[state] ? nfa.originOf[state] : -1;
      }
      if (counted && (moves.length > 0 || state === fragment.end)) {
        // every member that reads on (or ends) must be in the same region
        if (region !== -2 && region !== nfa.regionOf[state]) throw new CounterConflict();
        region = nfa.regionOf[state];
      }
    }
    const row = new Int32Array(256).fill(-1);
    const ticks = counted ? new Int32Array(256).fill(-1) : undefined;
    for (let low = 0; low < 256;) {
      let high = low + 1;
      while (cuts[high] === 0) high++;
      const targets: number[] = [];
      let tick = -2;
      for (const state of members) {
        const moves = nfa.moves[state];
        for (let index = 0; index < moves.length; index += 4) {
          if (moves[index] > low || moves[index + 1] < low) continue;
          targets.push(moves[index + 2]);
          if (tick !== -2 && tick !== moves[index + 3]) throw new CounterConflict();
          tick = moves[index + 3];
        }
      }
      if (targets.length > 0) {
        const next = idOf(closure(targets));
        row.fill(next, low, high);
        ticks?.fill(tick, low, high);
      }
      low = high;
    }
    rows.push(row);
    if (ticks !== undefined) tickRows.push(ticks);
    accepting.push(members.includes(fragment.end) ? 1 : 0);
    regionOf.push(region < 0 ? -1 : region);
    originOf.push(origin < 0 ? -1 : origin);
  }
  const marks: Combined["marks"] = {};
  if (counted) {
    marks.counting = {
      regions: [...nfa.regions],
      regionOf: Int32Array.from(regionOf),
      ticks: joinRows(tickRows),
    };
  }
  if (originOf.some((origin) => origin >= 0)) {
    marks.origins = { sources: [...nfa.origins], of: Int32Array.from(originOf) };
  }
  return { table: joinRows(rows), accepting: Uint8Array.from(accepting), marks };
}

/** Rows of 256 joined into one table. */
function joinRows(rows: Int32Array[]): Int32Array {
  const table = new Int32Array(rows.length * 256);
  rows.forEach((row, id) => table.set(row, id * 256));
  return table;
}

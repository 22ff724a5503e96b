/**
 * The equivalent states of a deterministic automaton, by Hopcroft's
 * algorithm over its byte classes: blocks of states split until no byte
 * class leads two states of one block into different blocks. O(k n log n)
 * for n states and k classes, where Moore's round-by-round refinement takes
 * a round per byte of the longest suffix that tells two states apart.
 *
 * @module
 */

import type { ByteDfa } from "./byte_dfa.ts";
import type { Combined } from "./dfa_product.ts";
import type { Counting, Region } from "./regions.ts";
import { Partition } from "./_partition.ts";

/**
 * The block of each state: two states share one exactly when they read
 * alike (same `initial` class, and every byte class leading them, with the
 * same tick, to states that share one). Dead states (`live` false) get -1.
 *
 * @example Two states that read "a" to acceptance are one
 * ```ts
 * import assert from "node:assert/strict";
 *
 * // 0 -a-> 1, 0 -b-> 2, 1 -a-> 3, 2 -a-> 3; 3 accepts
 * const table = new Int32Array(4 * 256).fill(-1);
 * table[0 * 256 + 97] = 1;
 * table[0 * 256 + 98] = 2;
 * table[1 * 256 + 97] = 3;
 * table[2 * 256 + 97] = 3;
 * const blocks = equivalentStates(table, [true, true, true, true], Int32Array.from([0, 0, 0, 1]), [0, 97, 98]);
 * assert.equal(blocks[1], blocks[2]);
 * assert.notEqual(blocks[0], blocks[1]);
 * ```
 */
export function equivalentStates(
  table: Int32Array,
  live: boolean[],
  initial: Int32Array,
  representatives: number[],
  ticks?: Int32Array,
): Int32Array {
  const count = live.length;
  const sink = count;
  const classes = representatives.length;
  // each state's move on each byte class, dead moves into the sink
  const moves = new Int32Array((count + 1) * classes).fill(sink);
  for (let state = 0; state < count; state++) {
    if (!live[state]) continue;
    representatives.forEach((byte, at) => {
      const target = table[state * 256 + byte];
      if (target >= 0 && live[target]) moves[state * classes + at] = target;
    });
  }
  // the first blocks: the initial class, and the ticks on each byte class
  const keys = new Map<string, number>();
  const firstBlock = new Int32Array(count + 1);
  for (let state = 0; state <= count; state++) {
    let key = "sink";
    if (state < count) {
      if (!live[state]) {
        firstBlock[state] = -1;
        continue;
      }
      key = `${initial[state]}`;
      if (ticks !== undefined) {
        for (const byte of representatives) key += ` ${ticks[state * 256 + byte]}`;
      }
    }
    let block = keys.get(key);
    if (block === undefined) keys.set(key, block = keys.size);
    firstBlock[state] = block;
  }
  const partition = new Partition(firstBlock, keys.size);
  // who moves into each state on each class
  const width = count + 2;
  const starts = new Int32Array(classes * width);
  const present = (state: number) => state === count || live[state];
  for (let state = 0; state <= count; state++) {
    if (!present(state)) continue;
    for (let at = 0; at < classes; at++) starts[at * width + moves[state * classes + at] + 1]++;
  }
  for (let at = 1; at < starts.length; at++) starts[at] += starts[at - 1];
  const fill = starts.slice();
  const sources = new Int32Array(starts[starts.length - 1]);
  for (let state = 0; state <= count; state++) {
    if (!present(state)) continue;
    for (let at = 0; at < classes; at++) {
      sources[fill[at * width + moves[state * classes + at]]++] = state;
    }
  }
  // Hopcroft's worklist of (block, class) splitters
  const waiting: number[] = [];
  let queued = new Uint8Array(partition.count * classes * 2);
  const enqueue = (block: number, at: number) => {
    const code = block * classes + at;
    if (code >= queued.length) {
      const grown = new Uint8Array(Math.max(queued.length * 2, code + 1));
      grown.set(queued);
      queued = grown;
    }
    if (queued[code] === 1) return;
    queued[code] = 1;
    waiting.push(code);
  };
  for (let block = 0; block < partition.count; block++) {
    for (let at = 0; at < classes; at++) enqueue(block, at);
  }
  const found: number[] = [];
  while (waiting.length > 0) {
    const code = waiting.pop()!;
    queued[code] = 0;
    const splitter = Math.floor(code / classes);
    const at = code % classes;
    // the states that move into the splitter on this class
    found.length = 0;
    for (let index = partition.first[splitter]; index < partition.end[splitter]; index++) {
      const base = at * width + partition.elements[index];
      for (let from = starts[base]; from < starts[base + 1]; from++) found.push(sources[from]);
    }
    for (const state of found) partition.mark(state);
    partition.split((block, split) => {
      for (let other = 0; other < classes; other++) {
        const waitingAlready = block * classes + other < queued.length &&
          queued[block * classes + other] === 1;
        if (waitingAlready || partition.size(split) <= partition.size(block)) enqueue(split, other);
        else enqueue(block, other);
      }
    });
  }
  const blockOf = partition.blockOf;
  const result = new Int32Array(count).fill(-1);
  for (let state = 0; state < count; state++) if (live[state]) result[state] = blockOf[state];
  return result;
}

/**
 * The same language with the fewest states: states from which nothing can
 * be accepted become dead, unreachable ones go, equivalent ones merge
 * (`equivalentStates`), numbered breadth-first from the start. Labels,
 * regions and ticks tell states apart as acceptance does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { literalDfa } from "./_schema_parts.ts";
 *
 * // after "a" and after "c" the same must follow: one state
 * const { accepting } = minimal(literalDfa(["ab", "cb"]));
 * assert.equal(accepting.length, 3);
 * ```
 */
export function minimal(dfa: ByteDfa): Combined {
  const live = liveStates(dfa);
  const count = dfa.stateCount;
  if (count === 0 || !live[0]) {
    return { table: new Int32Array(0), accepting: new Uint8Array(0), marks: {} };
  }
  const ticks = dfa.counting?.ticks;
  const tickAt = (state: number, byte: number) => ticks?.[state * 256 + byte] ?? -1;
  const next = (state: number, byte: number) => {
    const target = dfa.table[state * 256 + byte];
    return target >= 0 && live[target] ? target : -1;
  };
  const classOf = dfa.byteClasses;
  const representatives: number[] = [];
  const seen = new Set<number>();
  for (let byte = 0; byte < 256; byte++) {
    if (!seen.has(classOf[byte])) {
      seen.add(classOf[byte]);
      representatives.push(byte);
    }
  }
  const initialKeys = new Map<string, number>();
  const initial = Int32Array.from({ length: count }, (_, state) => {
    const key = `${dfa.labels?.[state] ?? dfa.accepting[state]} ${
      dfa.counting?.regionOf[state] ?? -1
    } ${dfa.origins?.of[state] ?? -1}`;
    let id = initialKeys.get(key);
    if (id === undefined) initialKeys.set(key, id = initialKeys.size);
    return id;
  });
  const classes = equivalentStates(dfa.table, live, initial, representatives, ticks);
  // number the classes in breadth-first order from the start
  const order = new Map<number, number>([[classes[0], 0]]);
  const firstOf = [0];
  for (let index = 0; index < firstOf.length; index++) {
    for (const byte of representatives) {
      const target = next(firstOf[index], byte);
      if (target >= 0 && !order.has(classes[target])) {
        order.set(classes[target], firstOf.length);
        firstOf.push(target);
      }
    }
  }
  const size = firstOf.length;
  const table = new Int32Array(size * 256);
  const accepting = new Uint8Array(size);
  const labels = dfa.labels === undefined ? undefined : new Int32Array(size);
  const newTicks = ticks === undefined ? undefined : new Int32Array(size * 256);
  const regionOf = ticks === undefined ? undefined : new Int32Array(size);
  const originOf = dfa.origins === undefined ? undefined : new Int32Array(size);
  // each old state's move per byte class, then spread over the bytes of each class
  const targets = new Int32Array(representatives.length);
  const marks = new Int32Array(representatives.length);
  const classIndex = new Int32Array(256);
  representatives.forEach((byte, at) => classIndex[byte] = at);
  const indexOf = Int32Array.from(
    classOf,
    (value) => classIndex[representatives.find((byte) => classOf[byte] === value)!],
  );
  firstOf.forEach((state, id) => {
    accepting[id] = dfa.accepting[state];
    if (labels !== undefined) labels[id] = dfa.labels![state];
    if (regionOf !== undefined) regionOf[id] = dfa.counting!.regionOf[state];
    if (originOf !== undefined) originOf[id] = dfa.origins!.of[state];
    representatives.forEach((byte, at) => {
      const target = next(state, byte);
      targets[at] = target < 0 ? -1 : order.get(classes[target])!;
      marks[at] = target < 0 ? -1 : tickAt(state, byte);
    });
    const row = id * 256;
    for (let byte = 0; byte < 256; byte++) table[row + byte] = targets[indexOf[byte]];
    if (newTicks !== undefined) {
      for (let byte = 0; byte < 256; byte++) newTicks[row + byte] = marks[indexOf[byte]];
    }
  });
  const counting = regionOf === undefined
    ? undefined
    : compact(dfa.counting!.regions, regionOf, newTicks!);
  const origins = originOf === undefined
    ? undefined
    : { sources: dfa.origins!.sources, of: originOf };
  return { table, accepting, marks: { labels, counting, origins } };
}

/** The states from which some accepting state can be reached. */
function liveStates(dfa: ByteDfa): boolean[] {
  const count = dfa.stateCount;
  const classOf = dfa.byteClasses;
  const representatives = [...new Set(classOf)].map((value) => classOf.indexOf(value));
  const incoming: number[][] = Array.from({ length: count }, () => []);
  for (let state = 0; state < count; state++) {
    for (const byte of representatives) {
      const next = dfa.table[state * 256 + byte];
      if (next >= 0) incoming[next].push(state);
    }
  }
  const live = Array.from({ length: count }, (_, state) => dfa.accepting[state] === 1);
  const stack = live.flatMap((isLive, state) => isLive ? [state] : []);
  while (stack.length > 0) {
    for (const previous of incoming[stack.pop()!]) {
      if (!live[previous]) {
        live[previous] = true;
        stack.push(previous);
      }
    }
  }
  return live;
}

/** Counting marks renumbered to the regions still used; `undefined` when none is. */
function compact(
  regions: readonly Region[],
  regionOf: Int32Array,
  ticks: Int32Array,
): Counting | undefined {
  const used = new Map<number, number>();
  const keep: Region[] = [];
  const renumber = (region: number) => {
    if (region < 0) return -1;
    let id = used.get(region);
    if (id === undefined) {
      used.set(region, id = keep.length);
      keep.push(regions[region]);
    }
    return id;
  };
  const newRegionOf = regionOf.map(renumber);
  const newTicks = ticks.map(renumber);
  // a region's parents are counted too, even where no state is directly in them
  for (let at = 0; at < keep.length; at++) {
    const parent = keep[at].parent;
    if (parent !== undefined && !keep.includes(parent)) keep.push(parent);
  }
  if (keep.length === 0) return undefined;
  return { regions: keep, regionOf: newRegionOf, ticks: newTicks };
}

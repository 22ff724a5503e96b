/**
 * Counted regions: a part of an automaton whose repetitions are counted by a
 * counter beside it rather than unrolled into states, as XGrammar's and
 * llguidance's lexers count: a string's characters under `maxLength` and
 * `minLength`, an array's items under `maxItems` and `minItems`. The
 * automaton reads the part as a loop; a region marks its states, and a tick
 * marks each move that starts one more character or item. A tick past the
 * region's `max` is refused, and so is leaving the region below its `min`.
 * Regions nest (the strings of a counted array), one counter per level.
 *
 * @module
 */

/** A counted part of an automaton: its bounds, the keyword that set them, the region around it. */
export interface Region {
  /** The fewest ticks before leaving the region. */
  readonly min: number;
  /** The most ticks (Infinity: no bound). */
  readonly max: number;
  /** The keyword a refusal names (`maxLength`, `maxItems`...). */
  readonly keyword: string;
  /** The region this one sits in, if any. */
  readonly parent?: Region;
}

/**
 * Thrown while composing automata when a count cannot be kept beside the
 * automaton (two alternatives read the same bytes, one counted and one not):
 * the compiler then unrolls the count into states, or refuses its keyword.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(new CounterConflict().name, "CounterConflict");
 * ```
 */
export class CounterConflict extends Error {
  constructor() {
    super("A counted region meets another reading of the same bytes");
    this.name = "CounterConflict";
  }
}

const derived = new WeakMap<Region, Map<Region, Region>>();

/**
 * `region` placed inside `parent` (nested below it, as the strings of a counted array are),
 * the same object each time for the same pair.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const items: Region = { min: 0, max: 500, keyword: "maxItems" };
 * const chars: Region = { min: 0, max: 5000, keyword: "maxLength" };
 * const inner = within(chars, items);
 * assert.equal(inner.parent, items);
 * assert.equal(within(chars, items), inner);
 * assert.equal(within(chars, undefined), chars);
 * ```
 */
export function within(region: Region, parent: Region | undefined): Region {
  if (parent === undefined) return region;
  let byParent = derived.get(region);
  if (byParent === undefined) derived.set(region, byParent = new Map());
  let placed = byParent.get(parent);
  if (placed === undefined) {
    placed = { ...region, parent: region.parent ? within(region.parent, parent) : parent };
    byParent.set(parent, placed);
  }
  return placed;
}

/** What an automaton's regions are marked with: `regions[regionOf[state]]`, and each move's tick. */
export interface Counting {
  /** The regions, indexed by the marks below. */
  readonly regions: readonly Region[];
  /** Per state, the innermost region it is in, or -1. */
  readonly regionOf: Int32Array;
  /** Per move (`state * 256 + byte`), the region it ticks, or -1. */
  readonly ticks: Int32Array;
}

/**
 * A finished automaton's regions read for matching: each region's level
 * (its depth among regions) and bounds, each state's chain of regions, and
 * for each state and level the fewest ticks still needed to leave that level's
 * region (so that a count is never let into a dead end).
 *
 * @example A string of 2 to 3 characters
 * ```ts
 * import assert from "node:assert/strict";
 * import { stringDfa } from "./string_grammar.ts";
 *
 * const dfa = stringDfa({ minLength: 2, maxLength: 3 });
 * const info = dfa.regionInfo!;
 * assert.equal(info.levels, 1);
 * assert.deepEqual([info.min[0], info.max[0]], [2, 3]);
 * const inside = dfa.table[0x22]; // after the opening quote
 * assert.equal(info.regionAt(inside, 0), 0);
 * assert.equal(info.needed(inside, 0), 0);
 * assert.ok(info.sound());
 * ```
 */
export class RegionInfo {
  /** The deepest level plus one: the number of counters a matcher keeps. */
  readonly levels: number;
  /** Per region: its level, parent region (-1 none), bounds. */
  readonly level: Int32Array;
  readonly parent: Int32Array;
  readonly min: Float64Array;
  readonly max: Float64Array;
  /** `need[level * states + state]`: the fewest ticks of that level's region to leave it. */
  readonly need: Float64Array;

  constructor(
    readonly table: Int32Array,
    readonly counting: Counting,
    private readonly accepting?: Uint8Array,
  ) {
    const { regions, regionOf } = counting;
    const index = new Map(regions.map((region, at) => [region, at]));
    this.level = Int32Array.from(regions, (region) => depth(region));
    this.parent = Int32Array.from(regions, (region) => index.get(region.parent!) ?? -1);
    this.min = Float64Array.from(regions, (region) => region.min);
    this.max = Float64Array.from(regions, (region) => region.max);
    this.levels = regions.length === 0 ? 0 : Math.max(...this.level) + 1;
    const states = regionOf.length;
    this.need = new Float64Array(this.levels * states).fill(Infinity);
    for (let region = 0; region < regions.length; region++) this.measure(region);
  }

  /** The region of `state` at `level` (its chain's member there), or -1. */
  regionAt(state: number, level: number): number {
    let region = this.counting.regionOf[state];
    while (region >= 0 && this.level[region] > level) region = this.parent[region];
    return region >= 0 && this.level[region] === level ? region : -1;
  }

  /** The fewest ticks of `level`'s region, from `state`, before it can be left. */
  needed(state: number, level: number): number {
    return this.need[level * this.counting.regionOf.length + state];
  }

  /**
   * True when counting beside the automaton is exact for every region: it
   * can be entered within its `max` (the ticks needed to leave it from where
   * it is entered fit), and, where it has a `min`, every count from the
   * fewest up can be left at. Otherwise the counts must be unrolled.
   */
  sound(): boolean {
    const { regionOf } = this.counting;
    for (let region = 0; region < this.level.length; region++) {
      if (this.min[region] > this.max[region]) return false;
      if (this.min[region] > 0 && !this.flexible(region)) return false;
    }
    for (let state = 0; state < regionOf.length; state++) {
      for (let byte = 0; byte < 256; byte++) {
        const next = this.table[state * 256 + byte];
        if (next < 0 || regionOf[next] === regionOf[state]) continue;
        // entering regions: from 0, what must be ticked to leave each must fit
        for (let entered = regionOf[next]; entered >= 0; entered = this.parent[entered]) {
          if (this.contains(regionOf[state], entered)) break;
          if (this.needed(next, this.level[entered]) > this.max[entered]) return false;
        }
      }
    }
    return true;
  }

  /** Fill `need` for one region: a 0-1 breadth-first search back from the moves that leave it. */
  private measure(region: number): void {
    const { table } = this;
    const { regionOf, ticks } = this.counting;
    const states = regionOf.length;
    const base = this.level[region] * states;
    const inside = (state: number) => state >= 0 && this.contains(regionOf[state], region);
    const incoming: number[][] = Array.from({ length: states }, () => []);
    const deque: number[] = [];
    for (let state = 0; state < states; state++) {
      if (!inside(state)) continue;
      if (this.accepting?.[state] === 1 && this.need[base + state] > 0) {
        this.need[base + state] = 0;
        deque.push(state);
      }
      for (let byte = 0; byte < 256; byte++) {
        const next = table[state * 256 + byte];
        if (next < 0) continue;
        const weight = ticks[state * 256 + byte] === region ? 1 : 0;
        if (inside(next)) incoming[next].push(state * 2 + weight);
        else if (this.need[base + state] > weight) {
          this.need[base + state] = weight;
          deque.push(state);
        }
      }
    }
    // a plain queue suffices when re-examined in order: weights are 0 or 1
    for (let at = 0; at < deque.length; at++) {
      const state = deque[at];
      for (const edge of incoming[state]) {
        const from = edge >> 1;
        const cost = this.need[base + state] + (edge & 1);
        if (cost < this.need[base + from]) {
          this.need[base + from] = cost;
          deque.push(from);
        }
      }
    }
  }

  /** True when `inner` is `region` or lies within it. */
  private contains(inner: number, region: number): boolean {
    while (inner >= 0 && inner !== region) inner = this.parent[inner];
    return inner === region;
  }

  /**
   * True when, from every state inside `region`, it can be left after any
   * number of ticks from the fewest up (so any `min` can be met by counting
   * on): some state on a cycle of one tick is reachable on the way out, for
   * at most one tick more than the fewest.
   */
  flexible(region: number): boolean {
    const { table } = this;
    const { regionOf, ticks } = this.counting;
    const states = regionOf.length;
    const inside = (state: number) => state >= 0 && this.contains(regionOf[state], region);
    // moves within the region, split by whether they tick it
    const free: number[][] = Array.from({ length: states }, () => []);
    const back: number[][] = Array.from({ length: states }, () => []);
    const edges: number[][] = Array.from({ length: states }, () => []);
    const tickEdges = new Set<number>();
    for (let state = 0; state < states; state++) {
      if (!inside(state)) continue;
      for (let byte = 0; byte < 256; byte++) {
        const next = table[state * 256 + byte];
        if (!inside(next)) continue;
        const ticked = ticks[state * 256 + byte] === region;
        edges[state].push(next * 2 + (ticked ? 1 : 0));
        if (ticked) tickEdges.add(state * states + next);
        else {
          free[state].push(next);
          back[next].push(state);
        }
      }
    }
    const reach = (from: number, moves: number[][]) => {
      const seen = new Uint8Array(states);
      const stack = [from];
      seen[from] = 1;
      while (stack.length > 0) {
        for (const next of moves[stack.pop()!]) {
          if (seen[next] === 0) {
            seen[next] = 1;
            stack.push(next);
          }
        }
      }
      return seen;
    };
    // on a cycle of one tick: reached from the tick's target and reaching its source, untick'd
    const best = new Float64Array(states).fill(Infinity);
    const level = this.level[region];
    const queue: number[] = [];
    for (const edge of tickEdges) {
      const [source, target] = [Math.floor(edge / states), edge % states];
      const after = reach(target, free);
      const before = reach(source, back);
      for (let state = 0; state < states; state++) {
        if (after[state] === 1 && before[state] === 1 && best[state] === Infinity) {
          best[state] = this.needed(state, level);
          queue.push(state);
        }
      }
    }
    // the fewest ticks to such a state and out through it, for every state (moves read backwards)
    const incoming: number[][] = Array.from({ length: states }, () => []);
    edges.forEach((targets, state) =>
      targets.forEach((code) => incoming[code >> 1].push(state * 2 + (code & 1)))
    );
    for (let at = 0; at < queue.length; at++) {
      const state = queue[at];
      for (const code of incoming[state]) {
        const from = code >> 1;
        const cost = best[state] + (code & 1);
        if (cost < best[from]) {
          best[from] = cost;
          queue.push(from);
        }
      }
    }
    for (let state = 0; state < states; state++) {
      if (!inside(state) || this.needed(state, level) === Infinity) continue;
      if (best[state] > this.needed(state, level) + 1) return false;
    }
    return true;
  }
}

function depth(region: Region): number {
  let level = 0;
  for (let at = region.parent; at !== undefined; at = at.parent) level++;
  return level;
}

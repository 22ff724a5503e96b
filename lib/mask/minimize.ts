/**
 * The equivalent states of a deterministic automaton, by Hopcroft's
 * algorithm over its byte classes: blocks of states split until no byte
 * class leads two states of one block into different blocks. O(k n log n)
 * for n states and k classes, where Moore's round-by-round refinement takes
 * a round per byte of the longest suffix that tells two states apart.
 *
 * @module
 */

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
 * A partition of states as one array, each block a range of it: marking a
 * state moves it to the front of its block, and splitting takes the marked
 * front off as a new block, at a cost of the marked states only.
 */
class Partition {
  readonly elements: Int32Array;
  readonly blockOf: Int32Array;
  private readonly at: Int32Array;
  first: number[] = [];
  end: number[] = [];
  private readonly middle: number[] = [];
  private readonly touched: number[] = [];

  /** Blocks from `blockOf` (-1: not in any). */
  constructor(blockOf: Int32Array, blocks: number) {
    this.blockOf = blockOf.slice();
    const sizes = new Array(blocks).fill(0);
    for (const block of blockOf) if (block >= 0) sizes[block]++;
    let offset = 0;
    for (let block = 0; block < blocks; block++) {
      this.first.push(offset);
      this.middle.push(offset);
      offset += sizes[block];
      this.end.push(offset);
    }
    this.elements = new Int32Array(offset);
    this.at = new Int32Array(blockOf.length);
    const next = [...this.first];
    blockOf.forEach((block, state) => {
      if (block < 0) return;
      this.at[state] = next[block];
      this.elements[next[block]++] = state;
    });
  }

  get count(): number {
    return this.first.length;
  }

  size(block: number): number {
    return this.end[block] - this.first[block];
  }

  /** Mark `state` (once per round). */
  mark(state: number): void {
    const block = this.blockOf[state];
    const place = this.at[state];
    const middle = this.middle[block];
    if (place < middle) return;
    const other = this.elements[middle];
    this.elements[middle] = state;
    this.at[state] = middle;
    this.elements[place] = other;
    this.at[other] = place;
    if (this.middle[block]++ === this.first[block]) this.touched.push(block);
  }

  /** Split each block that has marked and unmarked states, telling `split` (block, new block). */
  split(split: (block: number, added: number) => void): void {
    for (const block of this.touched) {
      const middle = this.middle[block];
      if (middle === this.end[block]) {
        this.middle[block] = this.first[block];
        continue;
      }
      const added = this.first.length;
      this.first.push(this.first[block]);
      this.end.push(middle);
      this.middle.push(this.first[block]);
      for (let index = this.first[block]; index < middle; index++) {
        this.blockOf[this.elements[index]] = added;
      }
      this.first[block] = middle;
      this.middle[block] = middle;
      split(block, added);
    }
    this.touched.length = 0;
  }
}

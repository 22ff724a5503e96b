/**
 * The refinable partition Hopcroft's algorithm splits (`minimize.ts`).
 *
 * @module
 */

/**
 * A partition of states as one array, each block a range of it: marking a
 * state moves it to the front of its block, and splitting takes the marked
 * front off as a new block, at a cost of the marked states only (Valmari and
 * Lehtinen's refinable partition).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const partition = new Partition(Int32Array.from([0, 0, 0, 1]), 2);
 * partition.mark(2);
 * const splits: number[][] = [];
 * partition.split((block, added) => splits.push([block, added]));
 * assert.deepEqual(splits, [[0, 2]]);
 * assert.deepEqual([partition.blockOf[0], partition.blockOf[2]], [0, 2]);
 * assert.equal(partition.size(0), 2);
 * ```
 */
export class Partition {
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

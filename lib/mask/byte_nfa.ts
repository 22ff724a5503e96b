/**
 * A nondeterministic automaton over bytes, built from fragments as Thompson
 * built them: every fragment has one start and one end state, and the
 * builders join fragments with empty moves. States may be marked with a
 * counted region and moves with a tick (see `regions.ts`).
 *
 * @module
 */

import { SchemaTooLargeError } from "./errors.ts";
import type { ByteDfa } from "./byte_dfa.ts";
import type { Region } from "./regions.ts";

/** A piece of an automaton: reading from `start` to `end` reads what it stands for. */
export interface Fragment {
  start: number;
  end: number;
}

/** The states an automaton may have before the compiler gives up. */
export const MAX_NFA_STATES = 400_000;

/**
 * An automaton under construction: states, moves on byte ranges, empty moves.
 *
 * @example "ab" or "b", as one fragment
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const nfa = new ByteNfa();
 * const either = nfa.alternatives([nfa.literal(new TextEncoder().encode("ab")), nfa.byteRange(98, 98)]);
 * assert.ok(nfa.stateCount >= 4);
 * assert.notEqual(either.start, either.end);
 * ```
 */
export class ByteNfa {
  /** For each state, its moves: quadruples of lowest byte, highest byte, target, ticked region (-1 none). */
  readonly moves: number[][] = [];
  /** For each state, the states an empty move reaches. */
  readonly empty: number[][] = [];
  /** For each state, the counted region it is in (an index into `regions`), or -1. */
  readonly regionOf: number[] = [];
  /** The regions states and moves are marked with. */
  readonly regions: Region[] = [];
  /** The region new states are put in (an embedded automaton's states go in it too). */
  current: Region | undefined;
  /** For each state, the state of another automaton it reads as (`origins` index × 65536 + its state), or -1. */
  readonly originOf: number[] = [];
  /** The automata states may read as (`ByteDfa.origins`). */
  readonly origins: ByteDfa[] = [];
  private readonly regionIds = new Map<Region, number>();
  private readonly originIds = new Map<ByteDfa, number>();

  /** The number of states so far. */
  get stateCount(): number {
    return this.moves.length;
  }

  /** A new state with no moves. */
  state(): number {
    if (this.moves.length >= MAX_NFA_STATES) {
      throw new SchemaTooLargeError(this.moves.length + 1, MAX_NFA_STATES);
    }
    this.moves.push([]);
    this.empty.push([]);
    this.regionOf.push(this.current === undefined ? -1 : this.regionId(this.current));
    this.originOf.push(-1);
    return this.moves.length - 1;
  }

  /** The index of `dfa` in `origins`, added when new. */
  originId(dfa: ByteDfa): number {
    let id = this.originIds.get(dfa);
    if (id === undefined) {
      id = this.origins.length;
      this.origins.push(dfa);
      this.originIds.set(dfa, id);
    }
    return id;
  }

  /** The index of `region` in `regions`, added when new. */
  regionId(region: Region): number {
    let id = this.regionIds.get(region);
    if (id === undefined) {
      id = this.regions.length;
      this.regions.push(region);
      this.regionIds.set(region, id);
    }
    return id;
  }

  /** A move from `from` to `to` on any byte in `low..high`, ticking region `tick` (an index) if given. */
  move(from: number, low: number, high: number, to: number, tick = -1): void {
    this.moves[from].push(low, high, to, tick);
  }

  /** An empty move from `from` to `to`. */
  link(from: number, to: number): void {
    this.empty[from].push(to);
  }

  /** The fragment that reads nothing. */
  nothing(): Fragment {
    const start = this.state();
    return { start, end: start };
  }

  /** The fragment that reads exactly these bytes. */
  literal(bytes: Uint8Array): Fragment {
    const start = this.state();
    let end = start;
    for (const byte of bytes) {
      const next = this.state();
      this.move(end, byte, byte, next);
      end = next;
    }
    return { start, end };
  }

  /** The fragment that reads one byte in `low..high`. */
  byteRange(low: number, high: number): Fragment {
    const start = this.state();
    const end = this.state();
    this.move(start, low, high, end);
    return { start, end };
  }

  /** One fragment after another. */
  sequence(parts: Fragment[]): Fragment {
    if (parts.length === 0) return this.nothing();
    for (let index = 1; index < parts.length; index++) {
      this.link(parts[index - 1].end, parts[index].start);
    }
    return { start: parts[0].start, end: parts[parts.length - 1].end };
  }

  /** Any one of these fragments (none: a fragment that reads nothing at all, not even ""). */
  alternatives(parts: Fragment[]): Fragment {
    const start = this.state();
    const end = this.state();
    for (const part of parts) {
      this.link(start, part.start);
      this.link(part.end, end);
    }
    return { start, end };
  }

  /** The fragment, or nothing. */
  optional(part: Fragment): Fragment {
    const start = this.state();
    const end = this.state();
    this.link(start, part.start);
    this.link(part.end, end);
    this.link(start, end);
    return { start, end };
  }

  /** The fragment any number of times, given a way to build a fresh copy of it. */
  star(build: () => Fragment): Fragment {
    const part = build();
    const start = this.state();
    const end = this.state();
    this.link(start, part.start);
    this.link(part.end, part.start);
    this.link(part.end, end);
    this.link(start, end);
    return { start, end };
  }

  /** Between `min` and `max` copies (`max` Infinity: no bound), each built afresh. */
  repeat(build: () => Fragment, min: number, max: number): Fragment {
    if (max === Infinity) {
      const parts: Fragment[] = [];
      for (let index = 0; index < min; index++) parts.push(build());
      parts.push(this.star(build));
      return this.sequence(parts);
    }
    // copies in a chain, each from the min-th on free to end there: every set of states the
    // subset construction meets stays small (nested optionals held one end per copy read)
    const start = this.state();
    const end = this.state();
    if (min === 0) this.link(start, end);
    let last = start;
    for (let index = 1; index <= max; index++) {
      const copy = build();
      this.link(last, copy.start);
      if (index >= min) this.link(copy.end, end);
      last = copy.end;
    }
    return { start, end };
  }
}

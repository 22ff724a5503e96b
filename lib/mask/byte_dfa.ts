/**
 * A deterministic automaton over bytes: one table row of 256 next states per
 * state (-1 is dead), and which states accept. Made from a {@linkcode ByteNfa}
 * by the subset construction, combined with others by products, trimmed of
 * states from which nothing can be accepted, and minimised.
 *
 * @module
 */

import { ByteNfa, type Fragment } from "./byte_nfa.ts";
import { SchemaTooLargeError } from "./errors.ts";

/** The states a deterministic automaton may have before the compiler gives up. */
export const MAX_DFA_STATES = 60_000;

/** Above this many states, an automaton is trimmed but its equivalent states are not merged. */
const MAX_REFINED = 2000;

/**
 * A deterministic automaton over bytes; state 0 is the start.
 *
 * @example "ab" or "ac"
 * ```ts
 * import assert from "node:assert/strict";
 * import { ByteNfa } from "./byte_nfa.ts";
 *
 * const nfa = new ByteNfa();
 * const utf8 = new TextEncoder();
 * const both = nfa.alternatives([nfa.literal(utf8.encode("ab")), nfa.literal(utf8.encode("ac"))]);
 * const dfa = ByteDfa.fromNfa(nfa, both);
 * assert.equal(dfa.accepts(utf8.encode("ac")), true);
 * assert.equal(dfa.accepts(utf8.encode("a")), false);
 * assert.equal(dfa.stateCount, 3);
 * ```
 */
export class ByteDfa {
  /** `table[state * 256 + byte]`: the next state, or -1. */
  readonly table: Int32Array;
  /** 1 where a state accepts. */
  readonly accepting: Uint8Array;

  constructor(table: Int32Array, accepting: Uint8Array) {
    this.table = table;
    this.accepting = accepting;
  }

  /** The number of states. */
  get stateCount(): number {
    return this.accepting.length;
  }

  /** True when the automaton accepts nothing at all. */
  get isEmpty(): boolean {
    return this.stateCount === 0;
  }

  /** The state after reading `bytes` from `state`, or -1. */
  run(bytes: Uint8Array, state = 0): number {
    for (let index = 0; index < bytes.length && state >= 0; index++) {
      state = this.table[state * 256 + bytes[index]];
    }
    return state;
  }

  /** True when reading `bytes` from the start ends in an accepting state. */
  accepts(bytes: Uint8Array): boolean {
    if (this.isEmpty) return false;
    const state = this.run(bytes);
    return state >= 0 && this.accepting[state] === 1;
  }

  /** The subset construction: the automaton that reads what `fragment` reads, trimmed and minimal. */
  static fromNfa(nfa: ByteNfa, fragment: Fragment, limit = MAX_DFA_STATES): ByteDfa {
    const closure = (seeds: number[]): number[] => {
      const seen = new Set(seeds);
      const stack = [...seeds];
      while (stack.length > 0) {
        for (const next of nfa.empty[stack.pop()!]) {
          if (!seen.has(next)) {
            seen.add(next);
            stack.push(next);
          }
        }
      }
      return [...seen].sort((a, b) => a - b);
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
    const accepting: number[] = [];
    for (let id = 0; id < sets.length; id++) {
      const targets: number[][] = Array.from({ length: 256 }, () => []);
      for (const state of sets[id]) {
        const moves = nfa.moves[state];
        for (let index = 0; index < moves.length; index += 3) {
          for (let byte = moves[index]; byte <= moves[index + 1]; byte++) {
            targets[byte].push(moves[index + 2]);
          }
        }
      }
      const row = new Int32Array(256).fill(-1);
      const memo = new Map<string, number>();
      for (let byte = 0; byte < 256; byte++) {
        if (targets[byte].length === 0) continue;
        const raw = targets[byte].join(",");
        let next = memo.get(raw);
        if (next === undefined) {
          next = idOf(closure(targets[byte]));
          memo.set(raw, next);
        }
        row[byte] = next;
      }
      rows.push(row);
      accepting.push(sets[id].includes(fragment.end) ? 1 : 0);
    }
    const table = new Int32Array(rows.length * 256);
    rows.forEach((row, id) => table.set(row, id * 256));
    return new ByteDfa(table, Uint8Array.from(accepting)).minimized();
  }

  /**
   * The product of several automata: a state per tuple of their states (a
   * dead one stays dead), accepting where `combine` says so of which accept.
   */
  static product(
    parts: ByteDfa[],
    combine: (accepts: boolean[]) => boolean,
    limit = MAX_DFA_STATES,
  ): ByteDfa {
    const tuples: number[][] = [];
    const ids = new Map<string, number>();
    const idOf = (tuple: number[]): number => {
      if (tuple.every((state) => state < 0)) return -1;
      const key = tuple.join(",");
      let id = ids.get(key);
      if (id === undefined) {
        id = tuples.length;
        if (id >= limit) throw new SchemaTooLargeError(id + 1, limit);
        ids.set(key, id);
        tuples.push(tuple);
      }
      return id;
    };
    idOf(parts.map((part) => part.isEmpty ? -1 : 0));
    const rows: Int32Array[] = [];
    const accepting: number[] = [];
    for (let id = 0; id < tuples.length; id++) {
      const tuple = tuples[id];
      const row = new Int32Array(256);
      for (let byte = 0; byte < 256; byte++) {
        row[byte] = idOf(
          tuple.map((state, index) => state < 0 ? -1 : parts[index].table[state * 256 + byte]),
        );
      }
      rows.push(row);
      accepting.push(
        combine(tuple.map((state, index) => state >= 0 && parts[index].accepting[state] === 1))
          ? 1
          : 0,
      );
    }
    if (tuples.length === 0) return new ByteDfa(new Int32Array(0), new Uint8Array(0));
    const table = new Int32Array(rows.length * 256);
    rows.forEach((row, id) => table.set(row, id * 256));
    return new ByteDfa(table, Uint8Array.from(accepting)).minimized();
  }

  /** This automaton as a fragment of `nfa`, to be joined with others. */
  embed(nfa: ByteNfa): Fragment {
    const end = nfa.state();
    if (this.isEmpty) return { start: nfa.state(), end };
    const first = nfa.stateCount;
    for (let state = 0; state < this.stateCount; state++) nfa.state();
    for (let state = 0; state < this.stateCount; state++) {
      const row = state * 256;
      for (let byte = 0; byte < 256;) {
        const next = this.table[row + byte];
        let last = byte;
        while (last < 255 && this.table[row + last + 1] === next) last++;
        if (next >= 0) nfa.move(first + state, byte, last, first + next);
        byte = last + 1;
      }
      if (this.accepting[state] === 1) nfa.link(first + state, end);
    }
    return { start: first, end };
  }

  /**
   * The same language with the fewest states: states from which nothing can
   * be accepted become dead, unreachable ones go, equivalent ones merge
   * (up to MAX_REFINED states; a larger automaton is only trimmed).
   */
  minimized(): ByteDfa {
    const live = this.liveStates();
    const count = this.stateCount;
    if (count === 0 || !live[0]) return new ByteDfa(new Int32Array(0), new Uint8Array(0));
    // byte classes: bytes every state treats alike are refined once
    const columns = new Map<string, number>();
    const representatives: number[] = [];
    for (let byte = 0; byte < 256 && count <= MAX_REFINED; byte++) {
      const column: number[] = [];
      for (let state = 0; state < count; state++) column.push(this.next(state, byte, live));
      const key = column.join(",");
      if (!columns.has(key)) {
        columns.set(key, byte);
        representatives.push(byte);
      }
    }
    let classes = Int32Array.from({ length: count }, (_, state) => this.accepting[state]);
    let classCount = -1;
    // Moore's refinement takes a round per byte of the longest suffix that tells two states
    // apart: a large automaton (a long maxLength counts characters) is only trimmed
    if (count > MAX_REFINED) classes = classes.map((_, state) => live[state] ? state : -1);
    while (count <= MAX_REFINED) {
      const signatures = new Map<string, number>();
      const refined = new Int32Array(count);
      for (let state = 0; state < count; state++) {
        if (!live[state]) {
          refined[state] = -1;
          continue;
        }
        const parts = [classes[state]];
        for (const byte of representatives) {
          const next = this.next(state, byte, live);
          parts.push(next < 0 ? -1 : classes[next]);
        }
        const key = parts.join(",");
        let id = signatures.get(key);
        if (id === undefined) signatures.set(key, id = signatures.size);
        refined[state] = id;
      }
      classes = refined;
      if (signatures.size === classCount) break;
      classCount = signatures.size;
    }
    // number the classes in breadth-first order from the start
    const order = new Map<number, number>([[classes[0], 0]]);
    const firstOf = [0];
    for (let index = 0; index < firstOf.length; index++) {
      for (let byte = 0; byte < 256; byte++) {
        const next = this.next(firstOf[index], byte, live);
        if (next >= 0 && !order.has(classes[next])) {
          order.set(classes[next], firstOf.length);
          firstOf.push(next);
        }
      }
    }
    const table = new Int32Array(firstOf.length * 256);
    const accepting = new Uint8Array(firstOf.length);
    firstOf.forEach((state, id) => {
      accepting[id] = this.accepting[state];
      for (let byte = 0; byte < 256; byte++) {
        const next = this.next(state, byte, live);
        table[id * 256 + byte] = next < 0 ? -1 : order.get(classes[next])!;
      }
    });
    return new ByteDfa(table, accepting);
  }

  private next(state: number, byte: number, live: boolean[]): number {
    const next = this.table[state * 256 + byte];
    return next >= 0 && live[next] ? next : -1;
  }

  /** The states from which some accepting state can be reached. */
  private liveStates(): boolean[] {
    const count = this.stateCount;
    const incoming: number[][] = Array.from({ length: count }, () => []);
    for (let state = 0; state < count; state++) {
      for (let byte = 0; byte < 256; byte++) {
        const next = this.table[state * 256 + byte];
        if (next >= 0) incoming[next].push(state);
      }
    }
    const live = Array.from({ length: count }, (_, state) => this.accepting[state] === 1);
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
}

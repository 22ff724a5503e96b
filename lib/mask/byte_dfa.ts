/**
 * A deterministic automaton over bytes: one table row of 256 next states per
 * state (-1 is dead), and which states accept. Made from a {@linkcode ByteNfa}
 * by the subset construction, combined with others by products, trimmed of
 * states from which nothing can be accepted, and minimised. Counted regions
 * (`regions.ts`) and labels (which tests an accepting state passed) are kept
 * through all four.
 *
 * @module
 */

import { ByteNfa, type Fragment } from "./byte_nfa.ts";
import { minimal } from "./minimize.ts";
import { byteClasses, combineParts, type PartRole } from "./dfa_product.ts";
import { subsetConstruction } from "./subset.ts";
import { stepCounted } from "./count_step.ts";
import { type Counting, type Region, RegionInfo, within } from "./regions.ts";

/** The states a deterministic automaton may have before the compiler gives up. */
export const MAX_DFA_STATES = 60_000;

/** `combine` for a product that accepts where every part accepts (counted regions survive it). */
export const ALL = (accepts: boolean[]): boolean => accepts.every(Boolean);

/**
 * Where states read as the states of another automaton do, until they leave
 * it: inside a string, as its content automaton (`ByteDfa.origins`).
 */
export interface Origins {
  /** The automata read as. */
  readonly sources: readonly ByteDfa[];
  /** Per state: `sources` index × 65536 + the state it reads as, or -1. */
  readonly of: Int32Array;
}

/** What a deterministic automaton may carry besides its table. */
export interface DfaMarks {
  /** Per state, which tests it passed (a bit set), -1 where it does not accept. */
  labels?: Int32Array;
  /** Its counted regions. */
  counting?: Counting;
  /** Where its states read as another automaton's. */
  origins?: Origins;
}

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
  /** Per state, the tests an accepting state passed (a bit set), -1 elsewhere; only for labelled automata. */
  readonly labels: Int32Array | undefined;
  /** The counted regions, if any. */
  readonly counting: Counting | undefined;
  /**
   * States that read as the states of another automaton (a string's content)
   * until they leave it, so that what tokens they allow within it can be
   * shared by every automaton that holds it.
   */
  readonly origins: Origins | undefined;
  private info: RegionInfo | undefined;
  private classes: Uint8Array | undefined;
  private startReentered: boolean | undefined;
  private runList: Int32Array[] | undefined;

  constructor(table: Int32Array, accepting: Uint8Array, marks: DfaMarks = {}) {
    this.table = table;
    this.accepting = accepting;
    this.labels = marks.labels;
    this.counting = marks.counting;
    this.origins = marks.origins;
  }

  /** The number of states. */
  get stateCount(): number {
    return this.accepting.length;
  }

  /** True when the automaton accepts nothing at all. */
  get isEmpty(): boolean {
    return this.stateCount === 0;
  }

  /** Its regions read for matching (levels, bounds, ticks still needed), or `undefined` without regions. */
  get regionInfo(): RegionInfo | undefined {
    if (this.counting === undefined || this.counting.regions.length === 0) return undefined;
    return this.info ??= new RegionInfo(this.table, this.counting, this.accepting);
  }

  /** Each byte's class: bytes in one class lead every state to the same place with the same tick. */
  get byteClasses(): Uint8Array {
    return this.classes ??= byteClasses(this);
  }

  /** The state after reading `bytes` from `state`, or -1; counts are not kept (see `accepts`). */
  run(bytes: Uint8Array, state = 0): number {
    for (let index = 0; index < bytes.length && state >= 0; index++) {
      state = this.table[state * 256 + bytes[index]];
    }
    return state;
  }

  /** True when reading `bytes` from the start ends in an accepting state, counts kept within their bounds. */
  accepts(bytes: Uint8Array): boolean {
    if (this.isEmpty) return false;
    const info = this.regionInfo;
    const state = info === undefined
      ? this.run(bytes)
      : stepCounted(info, 0, new Float64Array(info.levels), bytes);
    return state >= 0 && this.accepting[state] === 1;
  }

  /** The subset construction: the automaton that reads what `fragment` reads, trimmed and minimal. */
  static fromNfa(nfa: ByteNfa, fragment: Fragment, limit = MAX_DFA_STATES): ByteDfa {
    const { table, accepting, marks } = subsetConstruction(nfa, fragment, limit);
    return new ByteDfa(table, accepting, marks).minimized();
  }

  /**
   * The product of several automata: a state per tuple of their states (a
   * dead one stays dead), accepting where `combine` says so of which accept.
   * A part marked in `bounding` (by default, every part when `combine` is
   * `ALL`) keeps its counted regions: the product accepts only where it does.
   * Any other counted part must read alone.
   */
  static product(
    parts: ByteDfa[],
    combine: (accepts: boolean[]) => boolean,
    bounding: boolean[] = parts.map(() => combine === ALL),
  ): ByteDfa {
    const { table, accepting, marks } = combineParts(
      parts,
      parts.map((_, index): PartRole => bounding[index] === true ? "all" : "alone"),
      (accepts) => combine(accepts) ? 0 : -1,
      MAX_DFA_STATES,
      false,
    );
    return new ByteDfa(table, accepting, marks).minimized();
  }

  /**
   * `base` labelled by `tests`: it accepts what `base` accepts, and each
   * accepting state's label has bit `i` set when `tests[i]` accepts too.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { stringDfa } from "./string_grammar.ts";
   *
   * const labelled = ByteDfa.labelled(stringDfa({}), [stringDfa({ pattern: "^.$" })]);
   * const end = (text: string) => labelled.run(new TextEncoder().encode(text));
   * assert.equal(labelled.labels![end('"a"')], 1);
   * assert.equal(labelled.labels![end('"ab"')], 0);
   * ```
   */
  static labelled(base: ByteDfa, tests: ByteDfa[]): ByteDfa {
    const { table, accepting, marks } = combineParts(
      [base, ...tests],
      ["all", ...tests.map((): PartRole => "alone")],
      (accepts) =>
        accepts[0]
          ? accepts.slice(1).reduce((bits, ok, at) => ok ? bits | (1 << at) : bits, 0)
          : -1,
      MAX_DFA_STATES,
      true,
    );
    return new ByteDfa(table, accepting, marks).minimized();
  }

  /** This automaton as a fragment of `nfa` (inside `nfa.current`), to be joined with others. */
  embed(nfa: ByteNfa, options: { tickStart?: Region } = {}): Fragment {
    const { start, ends } = this.embedLabelled(nfa, options);
    const end = nfa.state();
    for (const state of ends.values()) nfa.link(state, end);
    return { start, end };
  }

  /**
   * This automaton as a fragment of `nfa` with one end per label (one end,
   * label 0, when unlabelled). `tickStart` makes every move out of the start
   * tick that region (an item of a counted array starting).
   */
  embedLabelled(
    nfa: ByteNfa,
    options: { tickStart?: Region } = {},
  ): { start: number; ends: Map<number, number> } {
    const ends = new Map<number, number>();
    if (this.isEmpty) return { start: nfa.state(), ends };
    const outer = nfa.current;
    const regionIds = this.counting?.regions.map((region) => nfa.regionId(within(region, outer)));
    const originIds = this.origins?.sources.map((source) => nfa.originId(source));
    const first = nfa.stateCount;
    for (let state = 0; state < this.stateCount; state++) nfa.state();
    // a start that is entered again gets a copy of its own, so that only the first moves tick
    const start = options.tickStart !== undefined && this.reentersStart() ? nfa.state() : first;
    const startTick = options.tickStart === undefined ? -1 : nfa.regionId(options.tickStart);
    const runs = this.runs();
    const copy = (state: number, into: number, startMoves: boolean) => {
      const list = runs[state];
      for (let at = 0; at < list.length; at += 4) {
        const tick = list[at + 3];
        const mark = startMoves && startTick >= 0 ? startTick : tick < 0 ? -1 : regionIds![tick];
        nfa.move(into, list[at], list[at + 1], first + list[at + 2], mark);
      }
      const region = this.counting?.regionOf[state] ?? -1;
      if (region >= 0) nfa.regionOf[into] = regionIds![region];
      const origin = this.origins?.of[state] ?? -1;
      if (origin >= 0) nfa.originOf[into] = originIds![origin >> 16] * 65536 + (origin & 0xffff);
      const label = this.labels?.[state] ?? (this.accepting[state] === 1 ? 0 : -1);
      if (label >= 0) {
        let end = ends.get(label);
        if (end === undefined) ends.set(label, end = nfa.state());
        nfa.link(into, end);
      }
    };
    for (let state = 0; state < this.stateCount; state++) {
      copy(state, first + state, state === 0 && start === first);
    }
    if (start !== first) copy(0, start, true);
    return { start, ends };
  }

  /**
   * Each state's moves as runs of bytes read alike: quadruples of lowest
   * byte, highest byte, target, tick (computed once, for every embedding).
   */
  private runs(): Int32Array[] {
    if (this.runList !== undefined) return this.runList;
    const { table } = this;
    const ticks = this.counting?.ticks;
    const runs: Int32Array[] = [];
    for (let state = 0; state < this.stateCount; state++) {
      const row = state * 256;
      const found: number[] = [];
      for (let byte = 0; byte < 256;) {
        const next = table[row + byte];
        const tick = ticks === undefined ? -1 : ticks[row + byte];
        let last = byte;
        while (
          last < 255 && table[row + last + 1] === next &&
          (ticks === undefined || ticks[row + last + 1] === tick)
        ) last++;
        if (next >= 0) found.push(byte, last, next, tick);
        byte = last + 1;
      }
      runs.push(Int32Array.from(found));
    }
    return this.runList = runs;
  }

  /** True when some move leads back to the start state. */
  private reentersStart(): boolean {
    return this.startReentered ??= this.table.includes(0);
  }

  /**
   * The same language with the fewest states: states from which nothing can
   * be accepted become dead, unreachable ones go, equivalent ones merge
   * (`minimize.ts`). Labels, regions and ticks tell states apart as
   * acceptance does.
   */
  minimized(): ByteDfa {
    const { table, accepting, marks } = minimal(this);
    return new ByteDfa(table, accepting, marks);
  }
}

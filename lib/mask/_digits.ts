/**
 * Decimal integers as digit automata: every integer of a range, written
 * without leading zeros, for the number grammar.
 *
 * @module
 */

import type { ByteNfa, Fragment } from "./byte_nfa.ts";

/** Canonical decimal integers (no leading zero) in ranges. */
export class Digits {
  constructor(readonly nfa: ByteNfa) {}

  any(): Fragment {
    return this.nfa.byteRange(0x30, 0x39);
  }

  /** `low..high` (`high` undefined: no upper bound), or `undefined` when empty. */
  range(low: bigint, high: bigint | undefined): Fragment | undefined {
    if (low < 0n) low = 0n;
    if (high !== undefined && low > high) return undefined;
    const lowText = low.toString();
    const parts: Fragment[] = [];
    const last = high === undefined ? lowText.length : high.toString().length;
    for (let length = lowText.length; length <= last; length++) {
      const from = length === lowText.length ? lowText : "1" + "0".repeat(length - 1);
      const to = high !== undefined && length === last ? high.toString() : "9".repeat(length);
      parts.push(this.sameLength(from, to));
    }
    if (high === undefined) {
      parts.push(this.nfa.sequence([
        this.nfa.byteRange(0x31, 0x39),
        this.nfa.repeat(() => this.any(), lowText.length, Infinity),
      ]));
    }
    return this.nfa.alternatives(parts);
  }

  /** Digit strings of one length from `from` to `to`. */
  private sameLength(from: string, to: string): Fragment {
    const nfa = this.nfa;
    if (from.length === 0) return nfa.nothing();
    // every string of this length: one run of digits (this keeps the splitting below linear)
    if (/^0*$/.test(from) && /^9*$/.test(to)) {
      return nfa.repeat(() => this.any(), from.length, from.length);
    }
    const first = from.charCodeAt(0);
    const last = to.charCodeAt(0);
    const rest = from.length - 1;
    if (first === last) {
      return nfa.sequence([
        nfa.byteRange(first, first),
        this.sameLength(from.slice(1), to.slice(1)),
      ]);
    }
    const parts = [
      nfa.sequence([nfa.byteRange(first, first), this.sameLength(from.slice(1), "9".repeat(rest))]),
      nfa.sequence([nfa.byteRange(last, last), this.sameLength("0".repeat(rest), to.slice(1))]),
    ];
    if (first + 1 <= last - 1) {
      parts.push(
        nfa.sequence([
          nfa.byteRange(first + 1, last - 1),
          nfa.repeat(() => this.any(), rest, rest),
        ]),
      );
    }
    return nfa.alternatives(parts);
  }
}

/** The UTF-8 bytes of `value`. */
export function text(value: string): Uint8Array {
  return new TextEncoder().encode(value);
}

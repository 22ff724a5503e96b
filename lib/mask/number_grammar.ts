/**
 * Numbers as JSON writes them, within bounds: integers as
 * `-?(0|[1-9][0-9]*)`, other numbers with a fraction and, when unbounded, an
 * exponent. Bounds are exact: `minimum`, `maximum` and their exclusive forms,
 * integral for numbers, any for integers (rounded inwards).
 *
 * @module
 */

import type { ByteNfa, Fragment } from "./byte_nfa.ts";
import { UnsupportedSchemaError } from "./errors.ts";

/** The bounds a schema sets on a number; absent ones are open. */
export interface NumberBounds {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

/** A bound on a magnitude: the value and whether it is excluded (`undefined`: no bound). */
type Bound = { value: bigint; open: boolean } | undefined;

/**
 * The fragment reading the JSON text of every integer (or, with `integer`
 * false, every number) within `bounds`; `undefined` when there is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ByteNfa } from "./byte_nfa.ts";
 * import { ByteDfa } from "./byte_dfa.ts";
 *
 * const nfa = new ByteNfa();
 * const dfa = ByteDfa.fromNfa(nfa, numberFragment(nfa, true, { minimum: 1, maximum: 12 })!);
 * const bytes = (text: string) => new TextEncoder().encode(text);
 * assert.ok(dfa.accepts(bytes("12")));
 * assert.ok(!dfa.accepts(bytes("13")));
 * assert.ok(!dfa.accepts(bytes("0")));
 * ```
 */
export function numberFragment(
  nfa: ByteNfa,
  integer: boolean,
  bounds: NumberBounds,
): Fragment | undefined {
  const lower = tightest(bounds.minimum, bounds.exclusiveMinimum, "minimum", integer, 1);
  const upper = tightest(bounds.maximum, bounds.exclusiveMaximum, "maximum", integer, -1);
  const unbounded = lower === undefined && upper === undefined;
  const digits = new Digits(nfa);
  if (unbounded && !integer) {
    const mantissa = nfa.sequence([
      nfa.optional(nfa.literal(text("-"))),
      digits.range(0n, undefined)!,
      nfa.optional(
        nfa.sequence([nfa.literal(text(".")), nfa.repeat(() => digits.any(), 1, Infinity)]),
      ),
    ]);
    const exponent = nfa.sequence([
      nfa.alternatives([nfa.literal(text("e")), nfa.literal(text("E"))]),
      nfa.optional(nfa.alternatives([nfa.literal(text("+")), nfa.literal(text("-"))])),
      nfa.repeat(() => digits.any(), 1, Infinity),
    ]);
    return nfa.sequence([mantissa, nfa.optional(exponent)]);
  }
  // x >= 0 has magnitude x; x < 0 has magnitude -x > 0
  const negate = (bound: Bound): Bound =>
    bound === undefined ? undefined : { value: -bound.value, open: bound.open };
  const parts: Fragment[] = [];
  const positive = magnitude(digits, integer, atLeastZero(lower), upper);
  if (positive !== undefined) parts.push(positive);
  const negativeLow = upper !== undefined && upper.value < 0n
    ? negate(upper)
    : { value: 0n, open: true };
  const negative = magnitude(digits, integer, negativeLow, negate(lower));
  if (negative !== undefined) parts.push(nfa.sequence([nfa.literal(text("-")), negative]));
  return parts.length === 0 ? undefined : nfa.alternatives(parts);
}

/** The lower bound for x >= 0: the schema's, or 0 inclusive when it is below. */
function atLeastZero(lower: Bound): Bound {
  if (lower === undefined || lower.value < 0n) return { value: 0n, open: false };
  return lower;
}

/** Magnitudes (integer part, then maybe a fraction) between `low` and `high`. */
function magnitude(
  digits: Digits,
  integer: boolean,
  low: Bound,
  high: Bound,
): Fragment | undefined {
  const nfa = digits.nfa;
  const from = low === undefined ? 0n : low.value;
  if (from < 0n) throw new RangeError("a magnitude's bound is never negative");
  const parts: Fragment[] = [];
  // no fraction: the integer part itself is in the range
  const whole = digits.range(
    from + (low?.open ? 1n : 0n),
    high === undefined ? undefined : high.value - (high.open ? 1n : 0n),
  );
  if (whole !== undefined) parts.push(whole);
  if (!integer) {
    // a nonzero fraction: the integer part i satisfies low <= i and i + 1 <= high
    const part = digits.range(from, high === undefined ? undefined : high.value - 1n);
    if (part !== undefined) {
      parts.push(nfa.sequence([
        part,
        nfa.literal(text(".")),
        nfa.repeat(() => digits.any(), 0, Infinity),
        nfa.byteRange(0x31, 0x39),
      ]));
    }
  }
  return parts.length === 0 ? undefined : nfa.alternatives(parts);
}

/** The tighter of an inclusive and an exclusive bound, as a bigint (integers round inwards). */
function tightest(
  inclusive: number | undefined,
  exclusive: number | undefined,
  keyword: string,
  integer: boolean,
  direction: 1 | -1,
): Bound {
  const candidates: Bound[] = [];
  for (const [value, open] of [[inclusive, false], [exclusive, true]] as const) {
    if (value === undefined) continue;
    if (!Number.isFinite(value)) throw new UnsupportedSchemaError(keyword, `${value}`);
    if (integer) {
      // the nearest integer inside the bound
      const rounded = direction === 1 ? Math.ceil(value) : Math.floor(value);
      const inside = open && rounded === value ? rounded + direction : rounded;
      candidates.push({ value: BigInt(inside), open: false });
    } else if (Number.isInteger(value)) candidates.push({ value: BigInt(value), open });
    else throw new UnsupportedSchemaError(keyword, `a bound that is not an integer (${value})`);
  }
  let best: Bound;
  for (const candidate of candidates) {
    if (best === undefined) best = candidate;
    else {
      const tighter = direction === 1
        ? candidate!.value > best.value
        : candidate!.value < best.value;
      if (tighter || (candidate!.value === best.value && candidate!.open)) best = candidate;
    }
  }
  return best;
}

/** Canonical decimal integers (no leading zero) in ranges. */
class Digits {
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

function text(value: string): Uint8Array {
  return new TextEncoder().encode(value);
}

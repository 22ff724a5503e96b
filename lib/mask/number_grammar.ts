/**
 * Numbers as JSON writes them, within bounds: integers as
 * `-?(0|[1-9][0-9]*)` (and, unbounded, as JSON writes those from 1e21 up:
 * `1e+21`), other numbers with a fraction and, when unbounded, an exponent.
 * Bounds are exact: `minimum`, `maximum` and their exclusive forms, decimal,
 * whole or written with an exponent. A bounded number has at most 15 digits,
 * so that the value ajv reads (a double) compares with the bound as the
 * digits do: no digit string rounds onto, or across, a bound. A bound no
 * 15-digit number reaches is dropped; one every such number passes is refused
 * (naming it), since the mask could write nothing within it.
 *
 * @module
 */

import { ALL, ByteDfa } from "./byte_dfa.ts";
import { ByteNfa, type Fragment } from "./byte_nfa.ts";
import { UnsupportedSchemaError } from "./errors.ts";
import { regexFragment } from "./regex_grammar.ts";
import { Digits, text } from "./_digits.ts";

/** The bounds a schema sets on a number; absent ones are open. */
export interface NumberBounds {
  minimum?: unknown;
  maximum?: unknown;
  exclusiveMinimum?: unknown;
  exclusiveMaximum?: unknown;
}

/** The most digits a bounded number may have. */
export const MAX_BOUNDED_DIGITS = 15;

/** Integers as JSON.stringify writes them from 1e21 up (a double that large is whole). */
const LARGE_INTEGER = "^-?[1-9](\\.[0-9]*[1-9])?e\\+(2[1-9]|[3-9][0-9]|[1-9][0-9]{2,})$";

/** A bound: its value and whether the value itself is excluded. */
type Bound = { value: number; open: boolean };

/**
 * The automaton of the JSON text of every integer (or, with `integer`
 * false, every number) within `bounds`; empty when there is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const dfa = numberDfa(false, { exclusiveMinimum: 0, maximum: 1.5 });
 * const bytes = (text: string) => new TextEncoder().encode(text);
 * assert.ok(dfa.accepts(bytes("1.5")));
 * assert.ok(dfa.accepts(bytes("0.25")));
 * assert.ok(!dfa.accepts(bytes("0")));
 * assert.ok(!dfa.accepts(bytes("1.51")));
 * ```
 */
export function numberDfa(integer: boolean, bounds: NumberBounds): ByteDfa {
  const key =
    `${integer} ${bounds.minimum} ${bounds.exclusiveMinimum} ${bounds.maximum} ${bounds.exclusiveMaximum}`;
  let dfa = built.get(key);
  if (dfa === undefined) {
    dfa = buildNumbers(integer, bounds);
    built.set(key, dfa);
  }
  return dfa;
}

const built = new Map<string, ByteDfa>();

/** The automaton `numberDfa` keeps. */
function buildNumbers(integer: boolean, bounds: NumberBounds): ByteDfa {
  const lower = tightest(bounds.minimum, bounds.exclusiveMinimum, "minimum", integer, 1);
  const upper = tightest(bounds.maximum, bounds.exclusiveMaximum, "maximum", integer, -1);
  const nfa = new ByteNfa();
  const digits = new Digits(nfa);
  const minus = () => nfa.literal(text("-"));
  const given = [bounds.minimum, bounds.exclusiveMinimum, bounds.maximum, bounds.exclusiveMaximum];
  if (given.every((bound) => bound === undefined)) {
    const whole = nfa.sequence([nfa.optional(minus()), digits.range(0n, undefined)!]);
    if (integer) {
      return ByteDfa.fromNfa(nfa, nfa.alternatives([whole, regexFragment(nfa, LARGE_INTEGER)]));
    }
    const fraction = nfa.sequence([
      nfa.literal(text(".")),
      nfa.repeat(() => digits.any(), 1, Infinity),
    ]);
    const exponent = nfa.sequence([
      nfa.alternatives([nfa.literal(text("e")), nfa.literal(text("E"))]),
      nfa.optional(nfa.alternatives([nfa.literal(text("+")), minus()])),
      nfa.repeat(() => digits.any(), 1, Infinity),
    ]);
    return ByteDfa.fromNfa(
      nfa,
      nfa.sequence([whole, nfa.optional(fraction), nfa.optional(exponent)]),
    );
  }
  // x >= 0 is its own magnitude; x < 0 has magnitude -x > 0
  const parts: Fragment[] = [];
  const positive = magnitude(
    digits,
    integer,
    lower === undefined || lower.value < 0 ? { value: 0, open: false } : lower,
    upper,
  );
  if (positive !== undefined) parts.push(positive);
  if (lower === undefined || lower.value <= 0) {
    const low = upper !== undefined && upper.value < 0
      ? { value: -upper.value, open: upper.open }
      : { value: 0, open: true };
    const high = lower === undefined ? undefined : { value: -lower.value, open: lower.open };
    const negative = magnitude(digits, integer, low, high);
    if (negative !== undefined) parts.push(nfa.sequence([minus(), negative]));
  }
  if (parts.length === 0) return ByteDfa.fromNfa(nfa, nfa.alternatives([]));
  const bounded = ByteDfa.fromNfa(nfa, nfa.alternatives(parts));
  return ByteDfa.product([bounded, fewDigits()], ALL);
}

/** Magnitudes (an integer part, then maybe a fraction) from `low` to `high`, or `undefined` for none. */
function magnitude(
  digits: Digits,
  integer: boolean,
  low: Bound,
  high: Bound | undefined,
): Fragment | undefined {
  const nfa = digits.nfa;
  if (
    high !== undefined &&
    (low.value > high.value || (low.value === high.value && (low.open || high.open)))
  ) {
    return undefined;
  }
  const [lowInt, lowFrac] = decimal(low.value);
  if (integer) {
    // integer bounds are whole (rounded inwards when read)
    const from = lowInt + (low.open ? 1n : 0n);
    const to = high === undefined ? undefined : decimal(high.value)[0] - (high.open ? 1n : 0n);
    return digits.range(from, to);
  }
  const embedded = (dfa: ByteDfa) => dfa.embed(nfa);
  const literal = (value: bigint) => nfa.literal(text(value.toString()));
  if (high === undefined) {
    const above = digits.range(lowInt + 1n, undefined)!;
    return nfa.alternatives([
      nfa.sequence([above, embedded(fraction(""))]),
      nfa.sequence([literal(lowInt), embedded(fraction(lowFrac, low.open ? [1] : [0, 1]))]),
    ]);
  }
  const [highInt, highFrac] = decimal(high.value);
  const atLeast = fraction(lowFrac, low.open ? [1] : [0, 1]);
  const atMost = fraction(highFrac, high.open ? [-1] : [-1, 0]);
  if (lowInt === highInt) {
    const both = ByteDfa.product([atLeast, atMost], (accepts) => accepts.every(Boolean));
    return nfa.sequence([literal(lowInt), embedded(both)]);
  }
  const parts = [
    nfa.sequence([literal(lowInt), embedded(atLeast)]),
    nfa.sequence([literal(highInt), embedded(atMost)]),
  ];
  const between = digits.range(lowInt + 1n, highInt - 1n);
  if (between !== undefined) parts.push(nfa.sequence([between, embedded(fraction(""))]));
  return nfa.alternatives(parts);
}

/**
 * The fraction parts (nothing, or `.` and digits ending in a nonzero one)
 * whose digits compare with `bound`'s as `allowed` says (-1 below, 0 equal,
 * 1 above). With `bound` empty and every comparison allowed: any fraction.
 */
function fraction(bound: string, allowed: (-1 | 0 | 1)[] = [-1, 0, 1]): ByteDfa {
  const nfa = new ByteNfa();
  const dot = () => nfa.literal(text("."));
  const prefix = (length: number) => nfa.literal(text(bound.slice(0, length)));
  const anyDigits = () => nfa.star(() => nfa.byteRange(0x30, 0x39));
  const parts: Fragment[] = [];
  if (allowed.includes(0)) {
    parts.push(bound === "" ? nfa.nothing() : nfa.sequence([dot(), prefix(bound.length)]));
  }
  for (let at = 0; at < bound.length; at++) {
    const digit = bound.charCodeAt(at);
    if (allowed.includes(1) && digit < 0x39) {
      parts.push(nfa.sequence([dot(), prefix(at), nfa.byteRange(digit + 1, 0x39), anyDigits()]));
    }
    if (allowed.includes(-1)) {
      // a proper prefix of the bound (nothing at all for the first), or a smaller digit
      parts.push(at === 0 ? nfa.nothing() : nfa.sequence([dot(), prefix(at)]));
      if (digit > 0x30) {
        parts.push(nfa.sequence([dot(), prefix(at), nfa.byteRange(0x30, digit - 1), anyDigits()]));
      }
    }
  }
  if (allowed.includes(1)) {
    parts.push(nfa.sequence([dot(), prefix(bound.length), nfa.byteRange(0x30, 0x39), anyDigits()]));
  }
  // as JSON.stringify writes a fraction: none, or digits ending in a nonzero one
  const written = new ByteNfa();
  const canonical = written.optional(written.sequence([
    written.literal(text(".")),
    written.star(() => written.byteRange(0x30, 0x39)),
    written.byteRange(0x31, 0x39),
  ]));
  return ByteDfa.product(
    [ByteDfa.fromNfa(nfa, nfa.alternatives(parts)), ByteDfa.fromNfa(written, canonical)],
    (accepts) => accepts.every(Boolean),
  );
}

let digitLimit: ByteDfa | undefined;

/** Numbers of at most MAX_BOUNDED_DIGITS digits, a sign and one point allowed. */
function fewDigits(): ByteDfa {
  if (digitLimit !== undefined) return digitLimit;
  const nfa = new ByteNfa();
  const digit = () => nfa.byteRange(0x30, 0x39);
  const shapes = [];
  for (let whole = 1; whole <= MAX_BOUNDED_DIGITS; whole++) {
    const point = whole < MAX_BOUNDED_DIGITS
      ? [
        nfa.optional(
          nfa.sequence([nfa.literal(text(".")), nfa.repeat(digit, 1, MAX_BOUNDED_DIGITS - whole)]),
        ),
      ]
      : [];
    shapes.push(nfa.sequence([nfa.repeat(digit, whole, whole), ...point]));
  }
  digitLimit = ByteDfa.fromNfa(
    nfa,
    nfa.sequence([nfa.optional(nfa.literal(text("-"))), nfa.alternatives(shapes)]),
  );
  return digitLimit;
}

/** The integer part and the fraction digits of a bound, as its shortest decimal writes them, without an exponent. */
function decimal(value: number): [bigint, string] {
  let written = String(Math.abs(value));
  const exponent = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(written);
  if (exponent !== null) {
    const digits = exponent[1] + (exponent[2] ?? "");
    const point = Number(exponent[3]) + 1; // where the point falls among the digits
    written = point <= 0
      ? `0.${"0".repeat(-point)}${digits}`
      : point >= digits.length
      ? digits + "0".repeat(point - digits.length)
      : `${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  const [whole, fractionDigits = ""] = written.split(".");
  return [BigInt(whole), fractionDigits];
}

/** Magnitudes a 15-digit number can take: below 10^15, and none nearer 0 than 10^-14 but 0. */
const [HUGE, TINY] = [1e15, 1e-14];

/** The tighter of an inclusive and an exclusive bound (integers: rounded inwards, inclusive). */
function tightest(
  inclusive: unknown,
  exclusive: unknown,
  keyword: string,
  integer: boolean,
  direction: 1 | -1,
): Bound | undefined {
  let best: Bound | undefined;
  for (const [value, open] of [[inclusive, false], [exclusive, true]] as const) {
    if (value === undefined) continue;
    const name = open ? `exclusive${keyword[0].toUpperCase()}${keyword.slice(1)}` : keyword;
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new UnsupportedSchemaError(name, `${value}`);
    }
    // a bound beyond every 15-digit number on its open side bounds nothing; on the other, all
    if (value * direction <= -HUGE) continue;
    if (value * direction >= HUGE) {
      throw new UnsupportedSchemaError(
        name,
        `${value}: beyond the ${MAX_BOUNDED_DIGITS} digits of a bounded number`,
      );
    }
    let bound: Bound = { value, open };
    if (value !== 0 && Math.abs(value) < TINY) {
      // no 15-digit number lies strictly between 0 and it: it bounds as 0 does
      bound = { value: 0, open: value * direction > 0 };
    }
    if (integer) {
      const rounded = direction === 1 ? Math.ceil(bound.value) : Math.floor(bound.value);
      bound = {
        value: bound.open && rounded === bound.value ? rounded + direction : rounded,
        open: false,
      };
    }
    const tighter = best === undefined ||
      (direction === 1 ? bound.value > best.value : bound.value < best.value) ||
      (bound.value === best.value && bound.open);
    if (tighter) best = bound;
  }
  return best;
}

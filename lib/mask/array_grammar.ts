/**
 * Arrays as automata: `[` items separated by `,` `]`, the items' count
 * (`minItems`, `maxItems`) counted beside the automaton (a counted region,
 * each item's first byte a tick) or, where a count cannot be kept, unrolled
 * into states up to MAX_UNROLLED.
 *
 * @module
 */

import { ByteDfa } from "./byte_dfa.ts";
import { ByteNfa } from "./byte_nfa.ts";
import { UnsupportedSchemaError } from "./errors.ts";
import type { Region } from "./regions.ts";
import { MAX_UNROLLED } from "./string_grammar.ts";
import { arrayOf, EMPTY } from "./_schema_parts.ts";

/**
 * Arrays of `item`, `min..max` of them: counted beside the automaton, or
 * unrolled when `counters` is false.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stringDfa } from "./string_grammar.ts";
 *
 * const dfa = arrayDfa(stringDfa({}), 1, 10000, true);
 * const bytes = (text: string) => new TextEncoder().encode(text);
 * assert.ok(dfa.accepts(bytes('["a","b"]')));
 * assert.ok(!dfa.accepts(bytes("[]")));
 * assert.ok(dfa.stateCount < 40, "10,000 items, counted: no state per item");
 * ```
 */
export function arrayDfa(item: ByteDfa, min: number, max: number, counters: boolean): ByteDfa {
  if (min === 0 && max === Infinity) return arrayOf(item);
  if (max < min || (item.isEmpty && min > 0)) return EMPTY;
  const keyword = max === Infinity ? "minItems" : "maxItems";
  const nfa = new ByteNfa();
  const utf8 = new TextEncoder();
  const open = nfa.state();
  const after = nfa.state();
  if (counters) {
    const region: Region = { min, max, keyword };
    nfa.current = region;
    const inside = nfa.state();
    const close = nfa.state();
    if (!item.isEmpty && max > 0) {
      const one = item.embed(nfa, { tickStart: region });
      const comma = nfa.literal(utf8.encode(","));
      nfa.link(inside, one.start);
      nfa.link(one.end, comma.start);
      nfa.link(comma.end, one.start);
      nfa.link(one.end, close);
    }
    nfa.link(inside, close);
    nfa.current = undefined;
    nfa.move(open, 0x5b, 0x5b, inside);
    nfa.move(close, 0x5d, 0x5d, after);
  } else {
    const last = max === Infinity ? min : max;
    if (last > MAX_UNROLLED) {
      throw new UnsupportedSchemaError(
        keyword,
        `${last}, beside another schema that may read the same arrays (counted up to ${MAX_UNROLLED} there)`,
      );
    }
    const rest = () => nfa.sequence([nfa.literal(utf8.encode(",")), item.embed(nfa)]);
    const parts = [nfa.literal(utf8.encode("["))];
    if (max >= 1) {
      const list = nfa.sequence([
        item.embed(nfa),
        nfa.repeat(rest, Math.max(min - 1, 0), max - 1),
      ]);
      parts.push(min === 0 ? nfa.optional(list) : list);
    }
    parts.push(nfa.literal(utf8.encode("]")));
    const whole = nfa.sequence(parts);
    nfa.link(open, whole.start);
    nfa.link(whole.end, after);
  }
  return ByteDfa.fromNfa(nfa, { start: open, end: after });
}

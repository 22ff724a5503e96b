/**
 * JSON strings under a schema's string keywords: `minLength` and
 * `maxLength` (in code points, as ajv counts; a lone surrogate is one),
 * `pattern`, and `format` for the formats the mask enforces; each is an
 * automaton over the JSON-encoded content, and a string under several is
 * their product. Lengths are counted beside the automaton (a counted region
 * over the characters, `regions.ts`) rather than unrolled into states, so a
 * `maxLength` of 100,000 costs what a free string does; unrolled, as a
 * fallback where a count cannot be kept, up to MAX_UNROLLED.
 *
 * @module
 */

import { ALL, ByteDfa } from "./byte_dfa.ts";
import { ByteNfa } from "./byte_nfa.ts";
import { UnsupportedSchemaError } from "./errors.ts";
import { formatAutomaton } from "./formats.ts";
import { canonicalContent } from "./json_chars.ts";
import type { Region } from "./regions.ts";
import { regexFragment } from "./regex_grammar.ts";

/** The longest length unrolled into states where a count cannot be kept beside the automaton. */
export const MAX_UNROLLED = 1024;

/** What constrains a string, read from its schema. */
export interface StringKeywords {
  minLength?: unknown;
  maxLength?: unknown;
  pattern?: unknown;
  format?: unknown;
}

/** Options for {@linkcode stringDfa}. */
export interface StringOptions {
  /** Count lengths beside the automaton; `false` unrolls them (up to MAX_UNROLLED). @default {true} */
  counters?: boolean;
  /** Receives each format read as a plain string (ajv-formats does not check it). */
  ignored?: (format: string) => void;
}

const cache = new Map<string, ByteDfa>();

/** A shared automaton, built once per key. */
function cached(key: string, build: () => ByteDfa): ByteDfa {
  let dfa = cache.get(key);
  if (dfa === undefined) {
    dfa = build();
    cache.set(key, dfa);
  }
  return dfa;
}

/**
 * The automaton of a JSON string (quotes included) under these keywords.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const dfa = stringDfa({ minLength: 2, pattern: "^[a-z]+$" });
 * const bytes = (text: string) => new TextEncoder().encode(text);
 * assert.ok(dfa.accepts(bytes('"ate"')));
 * assert.ok(!dfa.accepts(bytes('"a"')));
 * assert.ok(!dfa.accepts(bytes('"Ate"')));
 * // counted beside the automaton: no more states than a free string
 * assert.equal(stringDfa({ maxLength: 100000 }).stateCount, stringDfa({}).stateCount);
 * ```
 */
export function stringDfa(keywords: StringKeywords, options: StringOptions = {}): ByteDfa {
  const { minLength, maxLength, pattern, format } = keywords;
  const counters = options.counters ?? true;
  const parts: ByteDfa[] = [];
  if (pattern !== undefined) {
    if (typeof pattern !== "string") throw new UnsupportedSchemaError("pattern", "not a string");
    parts.push(cached(`pattern ${pattern}`, () => {
      const nfa = new ByteNfa();
      return ByteDfa.fromNfa(nfa, regexFragment(nfa, pattern));
    }));
  }
  let enforced = "";
  if (typeof format === "string") {
    const dfa = formatAutomaton(format);
    if (dfa === undefined) options.ignored?.(format);
    else {
      parts.push(dfa);
      enforced = format;
    }
  }
  const counted = minLength !== undefined || maxLength !== undefined;
  const min = count(minLength, "minLength", 0);
  const max = count(maxLength, "maxLength", Infinity);
  const key = `${min} ${max} ${counters} ${pattern} ${enforced}`;
  return cached(key, () => {
    if (min > max) return quoted(EMPTY);
    const base = !counted
      ? canonicalContent()
      : counters
      ? countedContent(min, max)
      : unrolledContent(min, max);
    return quoted(parts.length === 0 ? base : ByteDfa.product([base, ...parts], ALL));
  });
}

/** A JSON string whose content is none of `excluded` (a property name not declared). *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const dfa = keyDfa(["verb"]);
 * const bytes = (text: string) => new TextEncoder().encode(text);
 * assert.ok(dfa.accepts(bytes('"tense"')));
 * assert.ok(!dfa.accepts(bytes('"verb"')));
 * ```
 */
export function keyDfa(excluded: string[]): ByteDfa {
  const any = stringDfa({});
  if (excluded.length === 0) return any;
  return cached(`key ${JSON.stringify(excluded)}`, () => otherThan(any, excluded));
}

function otherThan(any: ByteDfa, excluded: string[]): ByteDfa {
  const nfa = new ByteNfa();
  const utf8 = new TextEncoder();
  const names = ByteDfa.fromNfa(
    nfa,
    nfa.alternatives(excluded.map((name) => nfa.literal(utf8.encode(JSON.stringify(name))))),
  );
  return ByteDfa.product([any, names], ([string, name]) => string && !name);
}

const EMPTY = new ByteDfa(new Int32Array(0), new Uint8Array(0));

/** The content automaton between quotes: a state before, the content's, one after. */
function quoted(content: ByteDfa): ByteDfa {
  if (content.isEmpty) return content;
  const states = content.stateCount + 2;
  const table = new Int32Array(states * 256).fill(-1);
  const accepting = new Uint8Array(states);
  const last = states - 1;
  table[0x22] = 1;
  for (let state = 0; state < content.stateCount; state++) {
    for (let byte = 0; byte < 256; byte++) {
      const next = content.table[state * 256 + byte];
      if (next >= 0) table[(state + 1) * 256 + byte] = next + 1;
    }
    if (content.accepting[state] === 1) table[(state + 1) * 256 + 0x22] = last;
  }
  accepting[last] = 1;
  const inner = content.counting;
  if (inner === undefined && content.stateCount < 65536) {
    // inside the quotes, each state reads as the content's state it copies
    const of = Int32Array.from(
      { length: states },
      (_, state) => state >= 1 && state <= content.stateCount ? state - 1 : -1,
    );
    return new ByteDfa(table, accepting, { origins: { sources: [content], of } });
  }
  if (inner === undefined) return new ByteDfa(table, accepting);
  const regionOf = new Int32Array(states).fill(-1);
  regionOf.set(inner.regionOf, 1);
  const ticks = new Int32Array(states * 256).fill(-1);
  ticks.set(inner.ticks, 256);
  return new ByteDfa(table, accepting, { counting: { regions: inner.regions, regionOf, ticks } });
}

/** Content of `min..max` characters, counted: every state in one region, a tick on each character's start. */
function countedContent(min: number, max: number): ByteDfa {
  const base = canonicalContent();
  const region: Region = { min, max, keyword: max === Infinity ? "minLength" : "maxLength" };
  const ticks = new Int32Array(base.table.length).fill(-1);
  // a character starts from a state between characters: the accepting ones
  for (let state = 0; state < base.stateCount; state++) {
    if (base.accepting[state] === 0) continue;
    for (let byte = 0; byte < 256; byte++) {
      if (base.table[state * 256 + byte] >= 0) ticks[state * 256 + byte] = 0;
    }
  }
  return new ByteDfa(base.table, base.accepting, {
    counting: { regions: [region], regionOf: new Int32Array(base.stateCount), ticks },
  });
}

/**
 * Content of `min..max` characters, unrolled: a state per (characters
 * started, state of the canonical content); the count stops at `min` when
 * there is no `max`.
 */
function unrolledContent(min: number, max: number): ByteDfa {
  const last = max === Infinity ? min : max;
  if (last > MAX_UNROLLED) {
    throw new UnsupportedSchemaError(
      max === Infinity ? "minLength" : "maxLength",
      `${last}, beside another schema that may read the same strings (counted up to ${MAX_UNROLLED} there)`,
    );
  }
  const char = canonicalContent();
  const width = char.stateCount;
  const table = new Int32Array((last + 1) * width * 256).fill(-1);
  const accepting = new Uint8Array((last + 1) * width);
  for (let count = 0; count <= last; count++) {
    for (let state = 0; state < width; state++) {
      const here = count * width + state;
      const between = char.accepting[state] === 1;
      accepting[here] = between && count >= min ? 1 : 0;
      for (let byte = 0; byte < 256; byte++) {
        const next = char.table[state * 256 + byte];
        if (next < 0) continue;
        // a move out of a state between characters starts one more
        const after = between ? Math.min(count + 1, last) : count;
        if (between && count === last && max !== Infinity) continue;
        table[here * 256 + byte] = after * width + next;
      }
    }
  }
  return new ByteDfa(table, accepting).minimized();
}

function count(value: unknown, keyword: string, absent: number): number {
  if (value === undefined) return absent;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new UnsupportedSchemaError(keyword, `${value}`);
  }
  return value;
}

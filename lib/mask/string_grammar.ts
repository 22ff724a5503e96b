/**
 * JSON strings under a schema's string keywords: `minLength` and
 * `maxLength` (in code points, as ajv counts), `pattern`, and `format` for the
 * formats the mask enforces; each is an automaton over the JSON-encoded
 * content, and a string under several is their product.
 *
 * @module
 */

import { ByteDfa } from "./byte_dfa.ts";
import { ByteNfa } from "./byte_nfa.ts";
import { SchemaTooLargeError, UnsupportedSchemaError } from "./errors.ts";
import { formatAutomaton } from "./formats.ts";
import { ANY_CHAR, jsonChar } from "./json_chars.ts";
import { regexFragment } from "./regex_grammar.ts";

/** The longest `maxLength` unrolled into states. */
export const MAX_LENGTH = 1024;

/** What constrains a string, read from its schema. */
export interface StringKeywords {
  minLength?: unknown;
  maxLength?: unknown;
  pattern?: unknown;
  format?: unknown;
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
 * The automaton of a JSON string (quotes included) under these keywords;
 * `ignored` receives each format read as a plain string.
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
 * ```
 */
export function stringDfa(
  keywords: StringKeywords,
  ignored: (format: string) => void = () => {},
): ByteDfa {
  const parts: ByteDfa[] = [];
  const { minLength, maxLength, pattern, format } = keywords;
  if (minLength !== undefined || maxLength !== undefined) {
    const min = count(minLength, "minLength", 0);
    const max = count(maxLength, "maxLength", Infinity);
    parts.push(cached(`length ${min} ${max}`, () => lengthDfa(min, max)));
  }
  if (pattern !== undefined) {
    if (typeof pattern !== "string") throw new UnsupportedSchemaError("pattern", "not a string");
    parts.push(cached(`pattern ${pattern}`, () => {
      const nfa = new ByteNfa();
      return ByteDfa.fromNfa(nfa, regexFragment(nfa, pattern));
    }));
  }
  if (typeof format === "string") {
    const dfa = formatAutomaton(format);
    if (dfa === undefined) ignored(format);
    else parts.push(dfa);
  }
  const content = parts.length === 0
    ? cached("any", () => lengthDfa(0, Infinity))
    : parts.length === 1
    ? parts[0]
    : ByteDfa.product(parts, (accepts) => accepts.every(Boolean));
  return quoted(content);
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
  const nfa = new ByteNfa();
  const utf8 = new TextEncoder();
  const names = ByteDfa.fromNfa(
    nfa,
    nfa.alternatives(excluded.map((name) => nfa.literal(utf8.encode(JSON.stringify(name))))),
  );
  return ByteDfa.product([any, names], ([string, name]) => string && !name);
}

/** The content automaton between quotes. */
function quoted(content: ByteDfa): ByteDfa {
  const nfa = new ByteNfa();
  const quote = () => nfa.byteRange(0x22, 0x22);
  return ByteDfa.fromNfa(nfa, nfa.sequence([quote(), content.embed(nfa), quote()]));
}

/** JSON-encoded content of `min..max` characters. */
function lengthDfa(min: number, max: number): ByteDfa {
  if (max !== Infinity && max > MAX_LENGTH) throw new SchemaTooLargeError(max, MAX_LENGTH);
  if (min > MAX_LENGTH) throw new SchemaTooLargeError(min, MAX_LENGTH);
  const charNfa = new ByteNfa();
  const char = ByteDfa.fromNfa(charNfa, jsonChar(charNfa, ANY_CHAR));
  // built directly: a state is (characters read so far, where in the next character), and the
  // count stops at `min` when there is no `max`; a character's end is an accepting state of `char`
  const inside = [...char.accepting.keys()].filter((state) => char.accepting[state] === 0);
  const place = new Map(inside.map((state, index) => [state, index]));
  const last = max === Infinity ? min : max;
  const table = new Int32Array((last + 1) * inside.length * 256).fill(-1);
  const accepting = new Uint8Array((last + 1) * inside.length);
  for (let count = 0; count <= last; count++) {
    accepting[count * inside.length + place.get(0)!] = count >= min ? 1 : 0;
    for (const state of inside) {
      const row = (count * inside.length + place.get(state)!) * 256;
      for (let byte = 0; byte < 256; byte++) {
        const next = char.table[state * 256 + byte];
        if (next < 0) continue;
        if (char.accepting[next] === 0) {
          table[row + byte] = count * inside.length + place.get(next)!;
        } else if (count < last || max === Infinity) {
          table[row + byte] = Math.min(count + 1, last) * inside.length + place.get(0)!;
        }
      }
    }
  }
  // state 0 must be the start: (0 characters, before one), which `place` puts first
  return new ByteDfa(table, accepting).minimized();
}

function count(value: unknown, keyword: string, absent: number): number {
  if (value === undefined) return absent;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new UnsupportedSchemaError(keyword, `${value}`);
  }
  return value;
}

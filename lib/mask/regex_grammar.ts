/**
 * A regular expression (the ECMAScript syntax JSON Schema's `pattern` uses)
 * turned into an automaton over the JSON-encoded bytes of the strings it
 * matches. Only what is regular compiles: lookarounds, back references and
 * word boundaries throw {@linkcode UnsupportedSchemaError}.
 *
 * @module
 */

import type { ByteNfa, Fragment } from "./byte_nfa.ts";
import { UnsupportedSchemaError } from "./errors.ts";
import { ANY_CHAR, type CharSet } from "./char_set.ts";
import { jsonChar } from "./json_chars.ts";

/** A parsed expression. */
type Node =
  | { kind: "chars"; set: CharSet }
  | { kind: "sequence"; items: Node[] }
  | { kind: "either"; options: Node[] }
  | { kind: "repeat"; item: Node; min: number; max: number }
  | { kind: "anchor"; at: "start" | "end" };

/** Options for {@linkcode regexFragment}. */
export interface RegexOptions {
  /** Letters match either case (the `i` flag, ASCII letters as JavaScript folds them without `u`). @default {false} */
  ignoreCase?: boolean;
}

/**
 * The fragment reading the JSON-encoded content of every string in which
 * `pattern` finds a match (unanchored, as JSON Schema searches).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ByteNfa } from "./byte_nfa.ts";
 * import { ByteDfa } from "./byte_dfa.ts";
 *
 * const nfa = new ByteNfa();
 * const dfa = ByteDfa.fromNfa(nfa, regexFragment(nfa, "^[a-z]+(_[a-z]+)*$"));
 * const bytes = (text: string) => new TextEncoder().encode(text);
 * assert.ok(dfa.accepts(bytes("past_simple")));
 * assert.ok(!dfa.accepts(bytes("past_")));
 * ```
 */
export function regexFragment(nfa: ByteNfa, pattern: string, options: RegexOptions = {}): Fragment {
  const parser = new Parser(pattern, options.ignoreCase ?? false);
  const tree = parser.parse();
  const options_ = tree.kind === "either" ? tree.options : [tree];
  return nfa.alternatives(options_.map((option) => {
    const items = option.kind === "sequence" ? [...option.items] : [option];
    const anchoredStart = items[0]?.kind === "anchor" && items[0].at === "start";
    if (anchoredStart) items.shift();
    const last = items[items.length - 1];
    const anchoredEnd = last?.kind === "anchor" && last.at === "end";
    if (anchoredEnd) items.pop();
    const anyText = () => nfa.star(() => jsonChar(nfa, ANY_CHAR));
    return nfa.sequence([
      ...(anchoredStart ? [] : [anyText()]),
      ...items.map((item) => build(nfa, item, pattern)),
      ...(anchoredEnd ? [] : [anyText()]),
    ]);
  }));
}

function build(nfa: ByteNfa, node: Node, pattern: string): Fragment {
  switch (node.kind) {
    case "chars":
      return jsonChar(nfa, node.set);
    case "sequence":
      return nfa.sequence(node.items.map((item) => build(nfa, item, pattern)));
    case "either":
      return nfa.alternatives(node.options.map((option) => build(nfa, option, pattern)));
    case "repeat":
      return nfa.repeat(() => build(nfa, node.item, pattern), node.min, node.max);
    case "anchor":
      throw new UnsupportedSchemaError("pattern", `an anchor inside ${pattern}`);
  }
}

const DIGIT: CharSet = [[0x30, 0x39]];
const WORD: CharSet = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
const SPACE: CharSet = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_ENDS: CharSet = [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]];

/** The union of several sets, sorted and merged. *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(union([[0x61, 0x63]], [[0x62, 0x65]], [[0x67, 0x67]]), [[0x61, 0x65], [0x67, 0x67]]);
 * ```
 */
export function union(...sets: CharSet[]): CharSet {
  const all = sets.flat().sort((a, b) => a[0] - b[0]);
  const merged: CharSet = [];
  for (const [low, high] of all) {
    const last = merged[merged.length - 1];
    if (last !== undefined && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else merged.push([low, high]);
  }
  return merged;
}

/** Every code point not in `set`. *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(complement([[0x30, 0x39]]), [[0, 0x2f], [0x3a, 0x10ffff]]);
 * ```
 */
export function complement(set: CharSet): CharSet {
  const result: CharSet = [];
  let next = 0;
  for (const [low, high] of union(set)) {
    if (low > next) result.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= 0x10ffff) result.push([next, 0x10ffff]);
  return result;
}

/** ASCII letters in either case, as JavaScript's `i` flag without `u` folds them. */
function folded(set: CharSet): CharSet {
  const extra: CharSet = [];
  for (const [low, high] of set) {
    for (const [from, to, shift] of [[0x41, 0x5a, 32], [0x61, 0x7a, -32]]) {
      const a = Math.max(low, from);
      const b = Math.min(high, to);
      if (a <= b) extra.push([a + shift, b + shift]);
    }
  }
  return union(set, extra);
}

class Parser {
  private at = 0;
  constructor(private readonly source: string, private readonly ignoreCase: boolean) {}

  parse(): Node {
    const node = this.either();
    if (this.at < this.source.length) this.fail(`an unmatched ) at ${this.at}`);
    return node;
  }

  private fail(what: string): never {
    throw new UnsupportedSchemaError("pattern", `${what} in ${this.source}`);
  }

  private peek(): string {
    return this.source[this.at];
  }

  private either(): Node {
    const options = [this.sequence()];
    while (this.peek() === "|") {
      this.at++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0] : { kind: "either", options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.at < this.source.length && this.peek() !== "|" && this.peek() !== ")") {
      items.push(this.quantified(this.atom()));
    }
    return items.length === 1 ? items[0] : { kind: "sequence", items };
  }

  private quantified(item: Node): Node {
    const bounds: Record<string, [number, number]> = {
      "*": [0, Infinity],
      "+": [1, Infinity],
      "?": [0, 1],
    };
    let min: number, max: number;
    const braces = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
    if (bounds[this.peek()] !== undefined) {
      [min, max] = bounds[this.peek()];
      this.at++;
    } else if (braces !== null) {
      min = Number(braces[1]);
      max = braces[2] === undefined ? min : braces[3] === "" ? Infinity : Number(braces[3]);
      this.at += braces[0].length;
    } else return item;
    if (this.peek() === "?") this.at++; // lazy: the same strings
    if (item.kind === "anchor") this.fail("a quantified anchor");
    return { kind: "repeat", item, min, max };
  }

  private atom(): Node {
    const char = this.source[this.at++];
    if (char === "(") {
      if (this.source.startsWith("?:", this.at)) this.at += 2;
      else if (
        this.source.startsWith("?<", this.at) && !/^\?<[=!]/.test(this.source.slice(this.at))
      ) {
        this.at = this.source.indexOf(">", this.at) + 1;
      } else if (this.peek() === "?") this.fail("a lookaround");
      const node = this.either();
      if (this.source[this.at++] !== ")") this.fail("an unclosed (");
      return node;
    }
    if (char === "^") return { kind: "anchor", at: "start" };
    if (char === "$") return { kind: "anchor", at: "end" };
    if (char === ".") return this.chars(complement(LINE_ENDS));
    if (char === "[") return this.chars(this.charClass());
    if (char === "\\") return this.chars(this.escape(false));
    if (
      "*+?".includes(char) || (char === "{" && /^\d+(,\d*)?\}/.test(this.source.slice(this.at)))
    ) {
      this.fail(`a quantifier with nothing before it at ${this.at - 1}`);
    }
    const code = this.source.codePointAt(this.at - 1)!;
    if (code > 0xffff) this.at++;
    return this.chars([[code, code]]);
  }

  private chars(set: CharSet): Node {
    return { kind: "chars", set: this.ignoreCase ? folded(set) : set };
  }

  private charClass(): CharSet {
    const negated = this.peek() === "^";
    if (negated) this.at++;
    const parts: CharSet[] = [];
    while (this.peek() !== "]") {
      if (this.at >= this.source.length) this.fail("an unclosed [");
      const low = this.classAtom();
      if (
        this.peek() === "-" && this.source[this.at + 1] !== "]" && low.length === 1 &&
        low[0][0] === low[0][1]
      ) {
        this.at++;
        const high = this.classAtom();
        if (high.length !== 1 || high[0][0] !== high[0][1] || high[0][0] < low[0][0]) {
          this.fail("a bad range");
        }
        parts.push([[low[0][0], high[0][0]]]);
      } else parts.push(low);
    }
    this.at++;
    const set = union(...parts);
    return negated ? complement(this.ignoreCase ? folded(set) : set) : set;
  }

  private classAtom(): CharSet {
    const char = this.source[this.at++];
    if (char === "\\") return this.escape(true);
    const code = this.source.codePointAt(this.at - 1)!;
    if (code > 0xffff) this.at++;
    return [[code, code]];
  }

  private escape(inClass: boolean): CharSet {
    const char = this.source[this.at++];
    const classes: Record<string, CharSet> = {
      d: DIGIT,
      D: complement(DIGIT),
      w: WORD,
      W: complement(WORD),
      s: SPACE,
      S: complement(SPACE),
    };
    if (classes[char] !== undefined) return classes[char];
    const controls: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13, "0": 0 };
    if (controls[char] !== undefined && !(char === "0" && /\d/.test(this.peek() ?? ""))) {
      return [[controls[char], controls[char]]];
    }
    if (char === "b" && inClass) return [[8, 8]];
    const hex = /^(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|u\{([0-9a-fA-F]{1,6})\})/.exec(
      this.source.slice(this.at - 1),
    );
    if (hex !== null) {
      this.at += hex[0].length - 1;
      let code = parseInt(hex[1] ?? hex[2] ?? hex[3], 16);
      // with the u flag, an escaped surrogate pair is the one character it encodes
      const low = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(this.source.slice(this.at));
      if (hex[2] !== undefined && code >= 0xd800 && code <= 0xdbff && low !== null) {
        this.at += low[0].length;
        code = 0x10000 + ((code - 0xd800) << 10) + (parseInt(low[1], 16) - 0xdc00);
      }
      return [[code, code]];
    }
    if (char === undefined || /[A-Za-z0-9]/.test(char)) this.fail(`the escape \\${char ?? ""}`);
    const code = char.codePointAt(0)!;
    return [[code, code]];
  }
}

/**
 * Regular expressions from a server's schemas, run in time linear in the
 * text: a server's `pattern` is untrusted input, and JavaScript's own engine
 * backtracks (`^(a+)+$` against 40 `a`s and a `!` would run for hours, and
 * stop the event loop all that while).
 *
 * @module
 */

import { RE2JS } from "re2js";

/**
 * A `pattern` compiled by RE2 (through the `re2js` package), which never
 * backtracks: its time grows with the length of the text, whatever the
 * pattern. It reads JavaScript's syntax (`\u0041`, `(?<name>…)`) and has
 * ajv's `code.regExp` shape, so ajv runs every `pattern` and
 * `patternProperties` of a schema through it. Throws `SyntaxError` for a
 * pattern only a backtracking engine can run (a backreference, a
 * lookahead, a lookbehind) or that is not a regular expression at all:
 * such a pattern is refused, never handed to JavaScript's engine instead.
 *
 * A pattern is read as JavaScript reads it (JSON Schema's `pattern` is
 * ECMA-262's), where RE2's own reading differs: `\s` is Unicode's white
 * space and the line terminators (RE2's, ASCII's alone), `\S` every other
 * character, and `.` matches no line terminator (RE2's matched `\r`, U+2028
 * and U+2029), so no text is taken that a schema's pattern refuses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(linearPattern("^(a+)+$").test("a".repeat(40) + "!"), false);
 * assert.equal(linearPattern("^\\u0041+$").test("AAA"), true);
 * assert.equal(linearPattern("^\\S+$").test("a\u00a0b"), false);
 * assert.throws(() => linearPattern("^(a)\\1$"), SyntaxError);
 * ```
 */
export const linearPattern: ((pattern: string, flags?: string) => LinearPattern) & {
  code: string;
} = Object.assign(
  (pattern: string, _flags?: string) => new LinearPattern(pattern),
  // How ajv would name this function in standalone code, which the course does not generate.
  { code: "linearPattern" },
);

/** A compiled pattern: `test` as `RegExp.prototype.test` does, in linear time. */
export class LinearPattern {
  readonly #source: string;
  readonly #compiled: RE2JS;

  /** Compile `source`; throws `SyntaxError` when RE2 cannot run it. */
  constructor(source: string) {
    this.#source = source;
    try {
      this.#compiled = RE2JS.compile(RE2JS.translateRegExp(asJavaScriptReads(source)));
    } catch (error) {
      throw new SyntaxError(
        `the pattern ${JSON.stringify(source)} needs a backtracking engine, or is not a ` +
          `regular expression; RE2, which runs in linear time, refuses it: ${
            error instanceof Error ? error.message : error
          }`,
        { cause: error },
      );
    }
  }

  /** Whether the pattern matches somewhere in `text`. */
  test(text: string): boolean {
    return this.#compiled.test(text);
  }

  /** The pattern as a regular expression literal; ajv tells patterns apart by it. */
  toString(): string {
    return `/${this.#source}/`;
  }
}

/** ECMAScript's white space and line terminators, which its `\s` matches, as a class's ranges. */
const SPACE = "\\t-\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
/** Every other character (`\S`), as a class's ranges. */
const NOT_SPACE = [
  "\\u0000-\\u0008\\u000e-\\u001f\\u0021-\\u009f\\u00a1-\\u167f\\u1681-\\u1fff",
  "\\u200b-\\u2027\\u202a-\\u202e\\u2030-\\u205e\\u2060-\\u2fff\\u3001-\\ufefe\\uff00-\\u{10ffff}",
].join("");
/** What ECMAScript's `.` matches: any character but a line terminator. */
const ANY = "[^\\n\\r\\u2028\\u2029]";

/**
 * `source` with each `\s`, `\S` and `.` written as the ranges JavaScript
 * reads them as, inside a character class and out, for RE2, which reads
 * them otherwise; every other escape as it was.
 */
function asJavaScriptReads(source: string): string {
  let read = "";
  let inClass = false;
  for (let at = 0; at < source.length; at++) {
    const char = source[at];
    if (char === "\\") {
      const escaped = source[++at] ?? "";
      const ranges = escaped === "s" ? SPACE : escaped === "S" ? NOT_SPACE : undefined;
      read += ranges === undefined ? char + escaped : inClass ? ranges : `[${ranges}]`;
    } else if (inClass) {
      inClass = char !== "]";
      read += char;
    } else {
      inClass = char === "[";
      read += char === "." ? ANY : char;
    }
  }
  return read;
}

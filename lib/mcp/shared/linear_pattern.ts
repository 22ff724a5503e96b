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
 * Where RE2 and JavaScript read a pattern differently, it is at the edges
 * of Unicode: RE2's `\s` is ASCII whitespace only, and its `.` matches the
 * line separators U+2028 and U+2029.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(linearPattern("^(a+)+$").test("a".repeat(40) + "!"), false);
 * assert.equal(linearPattern("^\\u0041+$").test("AAA"), true);
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
      this.#compiled = RE2JS.compile(RE2JS.translateRegExp(source));
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

/**
 * The string formats whose values the mask enforces, each as ajv-formats
 * 3.0.1 (full mode, which ajv uses after `addFormats(ajv)`) checks it:
 * `date` (days of each month, leap years), `time` and `date-time` (with a time
 * zone; leap seconds are not generated), `email`, `uri` and `byte` written here;
 * every other format ajv-formats checks with a regular expression (`uuid`,
 * `ipv4`, `ipv6`, `uri-reference`, `json-pointer`...) from that expression.
 * A format ajv-formats checks in a way no automaton can follow (`hostname`'s
 * lookahead, `regex`) is refused; one it does not check is a plain string.
 * Each is compiled once and shared.
 *
 * @module
 */

import { ByteDfa } from "./byte_dfa.ts";
import { ByteNfa } from "./byte_nfa.ts";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { EMAIL, URI } from "../formats/format_patterns.ts";
import { UnsupportedSchemaError } from "./errors.ts";
import { regexFragment } from "./regex_grammar.ts";

const LEAP_YEAR = String
  .raw`(?:\d\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)`;
const COMMON_YEAR = String
  .raw`(?:\d\d(?:0[1235679]|[2468][1235679]|[13579][01345789])|(?:[02468][1235679]|[13579][01345789])00)`;
const LONG_MONTHS = String
  .raw`(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)`;
const DATE = String.raw`(?:${LEAP_YEAR}-(?:${LONG_MONTHS}|02-(?:0[1-9]|[12]\d))|` +
  String.raw`${COMMON_YEAR}-(?:${LONG_MONTHS}|02-(?:0[1-9]|1\d|2[0-8])))`;
const TIME = String
  .raw`(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:[zZ]|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?)`;
/**
 * ajv-formats' `byte` (base64): its expression with the `m` flag, so that it
 * holds when any one line of the string is base64 (the empty line included).
 */
const LINE_END = String.raw`[\n\r\u2028\u2029]`;
const BYTE = String
  .raw`(?:[\s\S]*${LINE_END})?(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?` +
  String.raw`(?:${LINE_END}[\s\S]*)?`;

/** Each enforced format: its expression, anchored, and whether case is ignored. */
const FORMATS: Record<string, [string, boolean]> = {
  date: [DATE, false],
  time: [TIME, false],
  "date-time": [`${DATE}[Tt ]${TIME}`, false],
  email: [EMAIL, true],
  uri: [URI, true],
  byte: [BYTE, false],
};

/** The formats the mask enforces with automata written here; others come from ajv-formats. */
export const ENFORCED_FORMATS: readonly string[] = Object.keys(FORMATS);

const compiled = new Map<string, ByteDfa>();

/**
 * The automaton of a format's JSON-encoded values (without the quotes), or
 * `undefined` for a format the mask does not enforce.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const date = formatAutomaton("date")!;
 * const bytes = (text: string) => new TextEncoder().encode(text);
 * assert.ok(date.accepts(bytes("2024-02-29")));
 * assert.ok(!date.accepts(bytes("2023-02-29")));
 * assert.equal(formatAutomaton("color"), undefined);
 * ```
 */
export function formatAutomaton(format: string): ByteDfa | undefined {
  let dfa = compiled.get(format);
  if (dfa !== undefined) return dfa;
  const known = FORMATS[format] ?? ajvExpression(format);
  if (known === undefined) return undefined;
  const nfa = new ByteNfa();
  try {
    dfa = ByteDfa.fromNfa(nfa, regexFragment(nfa, `^(?:${known[0]})$`, { ignoreCase: known[1] }));
  } catch (error) {
    if (!(error instanceof UnsupportedSchemaError)) throw error;
    throw new UnsupportedSchemaError(
      "format",
      `${format}: ajv-formats checks it with ${error.message}`,
    );
  }
  compiled.set(format, dfa);
  return dfa;
}

/**
 * ajv-formats' expression for a string format, without its anchors, and
 * whether it ignores case; `undefined` for a format it does not check.
 * Throws for one it checks otherwise than by one anchored expression.
 */
function ajvExpression(format: string): [string, boolean] | undefined {
  const definition = (fullFormats as Record<string, unknown>)[format];
  if (definition === undefined || definition === true) return undefined;
  const validate = definition instanceof RegExp
    ? definition
    : (definition as { validate?: unknown }).validate;
  const type = (definition as { type?: string }).type;
  if (type === "number") return undefined; // a number format: the number grammar's to enforce
  if (!(validate instanceof RegExp) || validate.flags.replace("i", "") !== "") {
    throw new UnsupportedSchemaError(
      "format",
      `${format}: ajv-formats checks it with code, not one expression`,
    );
  }
  const source = validate.source;
  if (!source.startsWith("^") || !source.endsWith("$")) {
    throw new UnsupportedSchemaError("format", `${format}: its expression is not anchored`);
  }
  return [source.slice(1, -1), validate.flags.includes("i")];
}

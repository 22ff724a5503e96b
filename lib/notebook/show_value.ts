/**
 * A value as a learner would write it in TypeScript, on one line, for the
 * cells of a table: strings quoted the way that needs the fewest escapes
 * (`'{"a":1}'`, not `"{\"a\":1}"`), bytes as the text they hold with their
 * length, and an expected or observed error as the words `throws NAME`. Its
 * brief form, for a cell a learner reads at a glance, calls a value the
 * cases named by its name ("the delivery schema"), writes a run of one
 * character as `16 × "x"`, and cuts what is still too long.
 *
 * @module
 */

import { nameOf } from "./value_names.ts";

const INSPECT: Deno.InspectOptions = {
  colors: false,
  compact: true,
  breakLength: Infinity,
  depth: 8,
  iterableLimit: 40,
  strAbbreviateSize: 400,
  sorted: false,
};

/** The brief form inspects less deeply, and fewer items. */
const BRIEF: Deno.InspectOptions = { ...INSPECT, depth: 6, iterableLimit: 6 };

/** The shortest run of one character that the brief form writes as `N × "c"`. */
const RUN = 5;

/**
 * `value` written on one line, whole. A string on its own is shown as it is
 * (it is already text); inside arrays and objects strings are quoted. A
 * `Uint8Array` of UTF-8 text is shown as `bytes("...")` with its length, and
 * an outcome `{ throws: NAME }` as `throws NAME` (with its fields, and its
 * `message` when it has one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(showValue([['{"a":1}'], ""]), `[ [ '{"a":1}' ], "" ]`);
 * assert.equal(showValue(new TextEncoder().encode('{"a"')), `bytes('{"a"') = 4 bytes`);
 * assert.equal(showValue({ throws: "RangeError" }), "throws RangeError");
 * assert.equal(showValue("not written yet"), "not written yet");
 * assert.equal(showValue(undefined), "undefined");
 * ```
 */
export function showValue(value: unknown): string {
  if (typeof value === "string") return value;
  const outcome = thrownOutcome(value, INSPECT, false);
  if (outcome !== undefined) return outcome;
  return Deno.inspect(readable(value, false), INSPECT);
}

/** Options for {@linkcode briefValue}. */
export interface BriefOptions {
  /** Quote a string, as it is written inside a sentence. @default {false} */
  quoted?: boolean;
}

/**
 * `value` in at most `max` characters: a value the cases named by its name,
 * bytes as their text with runs of one character counted (`16 × "x" + "\n"`)
 * and their length, long strings cut with their length, deep structures
 * shortened, and the rest cut with `…`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const frame = new TextEncoder().encode("x".repeat(16) + "\n");
 * assert.equal(briefValue([frame, 16]), '[ bytes(16 × "x" + "\\n") = 17 bytes, 16 ]');
 * assert.equal(briefValue("y".repeat(300), 40).length, 40);
 * ```
 */
export function briefValue(value: unknown, max = 160, options: BriefOptions = {}): string {
  const named = nameOf(value);
  if (named !== undefined) return cut(named, max);
  if (typeof value === "string") {
    return cut(options.quoted ? (hasRun(value) ? withRuns(value) : quoted(value)) : value, max);
  }
  const outcome = thrownOutcome(value, BRIEF, true);
  return cut(outcome ?? Deno.inspect(readable(value, true), BRIEF), max);
}

/**
 * `value` whole, laid out over lines as wide as a notebook's, for a reader
 * who asked to see all of it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const text = prettyValue({ tools: Array.from({ length: 12 }, (_, i) => ({ name: `tool${i}` })) });
 * assert.ok(text.includes("\n") && text.includes('name: "tool11"'));
 * ```
 */
export function prettyValue(value: unknown): string {
  if (typeof value === "string") return value;
  const outcome = thrownOutcome(value, INSPECT, false);
  if (outcome !== undefined) return outcome;
  return Deno.inspect(readable(value, false), { ...INSPECT, breakLength: 80, compact: false });
}

/**
 * The arguments of a call, as they would be written between its parentheses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode("x\n");
 * assert.equal(showArguments([bytes, 16]), 'bytes("x\\n") = 2 bytes, 16');
 * assert.equal(showArguments(["word_count", { text: "a b" }]), '"word_count", { text: "a b" }');
 * ```
 */
export function showArguments(args: readonly unknown[]): string {
  if (args.length === 0) return "";
  return Deno.inspect(readable([...args], false), INSPECT).slice(2, -2);
}

/**
 * The arguments of a call in at most `max` characters, as
 * {@linkcode briefValue} writes a value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nameValue } from "./value_names.ts";
 *
 * const schema = nameValue("a schema of one key", { type: "object", required: ["k"] });
 * assert.equal(briefArguments([{ ...schema }, { k: 1 }]), "a schema of one key, { k: 1 }");
 * ```
 */
export function briefArguments(args: readonly unknown[], max = 160): string {
  if (args.length === 0) return "";
  return cut(Deno.inspect(readable([...args], true), BRIEF).slice(2, -2), max);
}

/** `text` in at most `max` characters, cut with `…` when longer. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** `{ throws: NAME, with?, message? }` as words, or undefined for any other value. */
function thrownOutcome(
  value: unknown,
  options: Deno.InspectOptions,
  brief: boolean,
): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { throws, with: fields, message, ...rest } = value as Record<string, unknown>;
  if (typeof throws !== "string" || Object.keys(rest).length > 0) return undefined;
  let text = `throws ${throws}`;
  if (fields !== undefined) text += ` with ${Deno.inspect(readable(fields, brief), options)}`;
  if (typeof message === "string" && message !== "") text += `: ${message}`;
  return text;
}

/**
 * A copy of `value` in which bytes and sets print as a learner writes them;
 * in the brief form, named values print as their names and runs of one
 * character are counted.
 */
function readable(value: unknown, brief: boolean, seen = new Set<unknown>()): unknown {
  if (brief) {
    const named = nameOf(value);
    if (named !== undefined) return new Shown(named);
    if (typeof value === "string" && hasRun(value)) return new Shown(withRuns(value));
  }
  if (value instanceof Uint8Array) return new Shown(bytesLiteral(value, brief));
  if (typeof value !== "object" || value === null || seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => readable(item, brief, seen));
  if (value instanceof Set) return new Set([...value].map((item) => readable(item, brief, seen)));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, readable(item, brief, seen)]),
  );
}

/**
 * `bytes("...") = N bytes` for UTF-8 text (runs counted in the brief form);
 * a byte that is not part of a whole character is written as a number, as
 * in `bytes("caf" + 0xc3) = 4 bytes`.
 */
function bytesLiteral(bytes: Uint8Array, brief: boolean): string {
  const pieces: string[] = [];
  let text = "";
  const flush = () => {
    if (text !== "") pieces.push(brief ? withRuns(text) : quoted(text));
    text = "";
  };
  for (let i = 0; i < bytes.length;) {
    const length = characterLength(bytes, i);
    if (length === 0) {
      flush();
      pieces.push(`0x${bytes[i].toString(16).padStart(2, "0")}`);
      i++;
    } else {
      text += new TextDecoder().decode(bytes.subarray(i, i + length));
      i += length;
    }
  }
  flush();
  const size = `${bytes.length} byte${bytes.length === 1 ? "" : "s"}`;
  return `bytes(${pieces.join(" + ") || '""'}) = ${size}`;
}

/** How many bytes the UTF-8 character at `i` takes, or 0 when none starts there whole. */
function characterLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i];
  const length = lead < 0x80
    ? 1
    : lead >= 0xc2 && lead < 0xe0
    ? 2
    : lead >= 0xe0 && lead < 0xf0
    ? 3
    : lead >= 0xf0 && lead < 0xf5
    ? 4
    : 0;
  if (length === 0 || i + length > bytes.length) return 0;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(i, i + length));
    return length;
  } catch {
    return 0;
  }
}

/** Whether `text` holds a run of one character at least {@linkcode RUN} long. */
function hasRun(text: string): boolean {
  return new RegExp(`(.)\\1{${RUN - 1}}`, "su").test(text);
}

/** `text` as quoted pieces, each run of one character written `N × "c"`, joined by `+`. */
function withRuns(text: string): string {
  const pieces: string[] = [];
  const pattern = new RegExp(`(.)\\1{${RUN - 1},}`, "gsu");
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) pieces.push(quoted(text.slice(at, match.index)));
    pieces.push(`${[...match[0]].length} × ${quoted(match[1])}`);
    at = match.index + match[0].length;
  }
  if (at < text.length) pieces.push(quoted(text.slice(at)));
  return pieces.join(" + ");
}

/** A string as a literal, in the quotes `Deno.inspect` picks for it. */
function quoted(text: string): string {
  return Deno.inspect([text], INSPECT).slice(2, -2);
}

/** A value that prints as the given text. */
class Shown {
  #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  [Symbol.for("Deno.customInspect")](): string {
    return this.#text;
  }
}

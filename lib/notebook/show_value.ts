/**
 * A value as a learner would write it in TypeScript, on one line, for the
 * cells of a table: strings quoted the way that needs the fewest escapes
 * (`'{"a":1}'`, not `"{\"a\":1}"`), bytes as the text they hold, and an
 * expected or observed error as the words `throws NAME`.
 *
 * @module
 */

const INSPECT: Deno.InspectOptions = {
  colors: false,
  compact: true,
  breakLength: Infinity,
  depth: 8,
  iterableLimit: 40,
  strAbbreviateSize: 400,
  sorted: false,
};

/**
 * `value` written on one line. A string on its own is shown as it is (it is
 * already text); inside arrays and objects strings are quoted. A `Uint8Array`
 * of UTF-8 text is shown as `bytes("...")`, and an outcome `{ throws: NAME }`
 * as `throws NAME` (with its fields, and its `message` when it has one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(showValue([['{"a":1}'], ""]), `[ [ '{"a":1}' ], "" ]`);
 * assert.equal(showValue(new TextEncoder().encode('{"a"')), `bytes('{"a"')`);
 * assert.equal(showValue({ throws: "RangeError" }), "throws RangeError");
 * assert.equal(showValue("not written yet"), "not written yet");
 * ```
 */
export function showValue(value: unknown): string {
  if (typeof value === "string") return value;
  const outcome = thrownOutcome(value);
  if (outcome !== undefined) return outcome;
  return Deno.inspect(readable(value), INSPECT);
}

/**
 * The arguments of a call, as they would be written between its parentheses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode("x\n");
 * assert.equal(showArguments([bytes, 16]), 'bytes("x\\n"), 16');
 * assert.equal(showArguments(["word_count", { text: "a b" }]), '"word_count", { text: "a b" }');
 * ```
 */
export function showArguments(args: readonly unknown[]): string {
  if (args.length === 0) return "";
  return Deno.inspect(readable([...args]), INSPECT).slice(2, -2);
}

/** `{ throws: NAME, with?, message? }` as words, or undefined for any other value. */
function thrownOutcome(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { throws, with: fields, message, ...rest } = value as Record<string, unknown>;
  if (typeof throws !== "string" || Object.keys(rest).length > 0) return undefined;
  let text = `throws ${throws}`;
  if (fields !== undefined) text += ` with ${Deno.inspect(readable(fields), INSPECT)}`;
  if (typeof message === "string" && message !== "") text += `: ${message}`;
  return text;
}

/** A copy of `value` in which bytes and sets print as a learner writes them. */
function readable(value: unknown, seen = new Set<unknown>()): unknown {
  if (value instanceof Uint8Array) return new Shown(bytesLiteral(value));
  if (typeof value !== "object" || value === null || seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => readable(item, seen));
  if (value instanceof Set) return new Set([...value].map((item) => readable(item, seen)));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, readable(item, seen)]),
  );
}

/** `bytes("...")` for UTF-8 text, otherwise the bytes' numbers. */
function bytesLiteral(bytes: Uint8Array): string {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return `bytes(${quoted(text)})`;
  } catch {
    return `Uint8Array [ ${[...bytes].join(", ")} ]`;
  }
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

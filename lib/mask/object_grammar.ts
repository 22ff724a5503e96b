/**
 * An object schema as an automaton: compact JSON, properties in the schema's
 * order, each optional one present or not, and presence tracked wherever a
 * keyword depends on it (`required` beside `oneOf`, `dependencies`...), so
 * that exactly the allowed sets of properties can be written.
 *
 * @module
 */

import { ByteDfa } from "./byte_dfa.ts";
import { ByteNfa, type Fragment } from "./byte_nfa.ts";
import { SchemaTooLargeError, UnsupportedSchemaError } from "./errors.ts";
import { allowsNone, isRecord, type PresenceTest } from "./presence.ts";

/** What the object grammar needs from the schema compiler. */
export interface ValueCompiler {
  /** The automaton of a value of `schema`. */
  valueDfa(schema: unknown, path: string): ByteDfa;
  /** The automaton of a JSON string other than these (a key not declared). */
  keyDfa(excluded: string[]): ByteDfa;
}

/**
 * The value of a property that only presence tests name: a scalar, `{}` or
 * `[]` (any value would do, and a shallow one keeps the automaton small).
 */
export const SHALLOW = {
  anyOf: [{ type: ["string", "number", "boolean", "null"] }, { const: {} }, { const: [] }],
};

/** The most properties whose presence the grammar tracks at once. */
export const MAX_TRACKED = 14;

/**
 * The automaton of an object of `schema`; `presence` (with the names it
 * reads) is what the schema's other keywords say about which properties
 * are present. `additionalProperties` absent is taken as `false` (strict),
 * except for the names that `required` and presence tests need.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileJsonSchema } from "./compile.ts";
 * import { o200kVocabulary } from "./vocabulary.ts";
 *
 * const compiled = compileJsonSchema({
 *   type: "object",
 *   properties: { verb: { type: "string" }, tense: { enum: ["past"] } },
 *   required: ["verb"],
 * }, o200kVocabulary());
 * const bytes = (text: string) => new TextEncoder().encode(text);
 * assert.ok(compiled.automaton.accepts(bytes('{"verb":"eat"}')));
 * assert.ok(compiled.automaton.accepts(bytes('{"verb":"eat","tense":"past"}')));
 * assert.ok(!compiled.automaton.accepts(bytes('{"tense":"past","verb":"eat"}')));
 * ```
 */
export function objectDfa(
  compiler: ValueCompiler,
  schema: Record<string, unknown>,
  path: string,
  presence: { test: PresenceTest; names: Set<string> },
): ByteDfa {
  const properties = schema.properties ?? {};
  if (!isRecord(properties)) throw new UnsupportedSchemaError("properties", path);
  const required = new Set(Array.isArray(schema.required) ? schema.required as string[] : []);
  const additional = schema.additionalProperties ?? false;
  const closed = schema.additionalProperties === false;
  const declared: [string, unknown][] = Object.entries(properties);
  // a name the other keywords need present is declared after the others, unless it may not appear
  for (const name of new Set([...required, ...presence.names])) {
    if (Object.hasOwn(properties, name) || (closed && !required.has(name))) continue;
    if (closed) {
      throw new UnsupportedSchemaError(
        "required",
        `${path}: ${name} is required but may not appear`,
      );
    }
    // a name only the presence tests read takes a shallow value, unless the schema says more
    const value = schema.additionalProperties ?? true;
    declared.push([name, value === true && !required.has(name) ? SHALLOW : value]);
  }
  const names = declared.map(([name]) => name);
  const tracked = names.filter((name) => presence.names.has(name) && !required.has(name));
  if (tracked.length > MAX_TRACKED) {
    throw new SchemaTooLargeError(2 ** tracked.length, 2 ** MAX_TRACKED);
  }
  const trackedBit = new Map(tracked.map((name, index) => [name, 1 << index]));
  const presentSet = (bits: number) =>
    new Set([...required, ...tracked.filter((_, index) => bits & (1 << index))]);

  const nfa = new ByteNfa();
  const utf8 = new TextEncoder();
  const values = declared.map(([name, value]) =>
    allowsNone(value) ? undefined : compiler.valueDfa(value, `${path}/properties/${name}`)
  );
  // states: after deciding the first i properties, with the tracked ones present, and whether any was written
  const states = new Map<string, number>();
  const queue: [number, number, boolean][] = [];
  const stateOf = (index: number, bits: number, written: boolean): number => {
    const key = `${index},${bits},${written}`;
    let state = states.get(key);
    if (state === undefined) {
      state = nfa.state();
      states.set(key, state);
      queue.push([index, bits, written]);
    }
    return state;
  };
  const start = nfa.literal(utf8.encode("{"));
  nfa.link(start.end, stateOf(0, 0, false));
  const end = nfa.literal(utf8.encode("}"));
  const extra = additional === false
    ? undefined
    : extraProperties(compiler, nfa, names, additional, path);
  while (queue.length > 0) {
    const [index, bits, written] = queue.shift()!;
    const from = stateOf(index, bits, written);
    if (index === declared.length) {
      if (!presence.test(presentSet(bits))) continue;
      const tail = extra === undefined ? nfa.nothing() : extra(written);
      nfa.link(from, tail.start);
      nfa.link(tail.end, end.start);
      continue;
    }
    const [name] = declared[index];
    if (!required.has(name)) nfa.link(from, stateOf(index + 1, bits, written));
    const value = values[index];
    if (value === undefined) continue;
    const key = nfa.literal(utf8.encode(`${written ? "," : ""}${JSON.stringify(name)}:`));
    const body = value.embed(nfa);
    nfa.link(from, key.start);
    nfa.link(key.end, body.start);
    nfa.link(body.end, stateOf(index + 1, bits | (trackedBit.get(name) ?? 0), true));
  }
  return ByteDfa.fromNfa(nfa, { start: start.start, end: end.end });
}

/** Properties not declared, after the declared ones: `(,"key":value)*`, the first without a comma when nothing was written. */
function extraProperties(
  compiler: ValueCompiler,
  nfa: ByteNfa,
  names: string[],
  schema: unknown,
  path: string,
): (written: boolean) => Fragment {
  const key = compiler.keyDfa(names);
  const value = compiler.valueDfa(schema === true ? {} : schema, `${path}/additionalProperties`);
  const utf8 = new TextEncoder();
  const pair = () =>
    nfa.sequence([key.embed(nfa), nfa.literal(utf8.encode(":")), value.embed(nfa)]);
  const more = () => nfa.star(() => nfa.sequence([nfa.literal(utf8.encode(",")), pair()]));
  const built = new Map<boolean, Fragment>();
  return (written) => {
    let fragment = built.get(written);
    if (fragment === undefined) {
      fragment = written ? more() : nfa.optional(nfa.sequence([pair(), more()]));
      built.set(written, fragment);
    }
    return fragment;
  };
}

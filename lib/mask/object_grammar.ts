/**
 * An object as an automaton: compact JSON, the names of its frame in the
 * frame's order (`schema_frame.ts`), each optional one present or not, then
 * other names where `additionalProperties` gives them. Each name's value
 * satisfies every schema the object's own schemas give it; what its
 * `anyOf`, `oneOf`, `not` and `dependencies` say (`object_branches.ts`) is a
 * formula whose atoms (names present, values passing a branch's test, other
 * names present) the automaton tracks as it writes, so that exactly the
 * objects they allow are written.
 *
 * @module
 */

import { ALL, ByteDfa } from "./byte_dfa.ts";
import { ByteNfa, type Fragment } from "./byte_nfa.ts";
import { SchemaTooLargeError, UnsupportedSchemaError } from "./errors.ts";
import { objectTests } from "./object_branches.ts";
import { allowsNone, Atoms, type Formula, isRecord } from "./presence.ts";
import { type Frame, type Reached, reachedKey } from "./schema_frame.ts";
import { EMPTY, union } from "./_schema_parts.ts";
import { MAX_TRACKED, type ValueCompiler } from "./object_compiler.ts";

/**
 * The automaton of an object under every one of `entries` (flattened, each
 * allowing objects), at `frame`.
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
  entries: Reached[],
  frame: Frame,
  path: string,
): ByteDfa {
  const records = entries.filter((entry) => isRecord(entry.schema)) as {
    schema: Record<string, unknown>;
    refs: readonly string[];
  }[];
  const valueOf = (name: string): Reached[] =>
    records.flatMap(({ schema, refs }): Reached[] => {
      const declared = isRecord(schema.properties) ? schema.properties : {};
      if (Object.hasOwn(declared, name)) return [{ schema: declared[name], refs }];
      const others = schema.additionalProperties;
      return others === undefined || others === true ? [] : [{ schema: others, refs }];
    });
  const others = frame.othersNamed &&
    !records.some(({ schema }) => schema.additionalProperties === false);
  const required = new Set<string>();
  for (const { schema } of records) {
    if (schema.required === undefined) continue;
    if (!Array.isArray(schema.required) || schema.required.some((n) => typeof n !== "string")) {
      throw new UnsupportedSchemaError("required", `${path}: not a list of names`);
    }
    schema.required.forEach((name) => required.add(name));
  }
  const tests = objectTests(records, { frame, others, flatten: compiler.flatten, valueOf }, path);
  const atoms = new Atoms(tests.formula, (schema) => reachedKey([schema]));
  if (atoms.count > MAX_TRACKED) {
    const keyword = ["oneOf", "anyOf", "not", "dependencies"].find((key) =>
      records.some(({ schema }) =>
        key in schema
      )
    ) ?? "required";
    throw new SchemaTooLargeError(2 ** atoms.count, 2 ** MAX_TRACKED, keyword, path);
  }

  const nfa = new ByteNfa();
  const utf8 = new TextEncoder();
  const names = frame.names;
  // each name's value, as ends by what its tests found, each end adding its atoms' bits
  const values = names.map((name) => {
    const conjuncts = valueOf(name);
    if (conjuncts.some((entry) => allowsNone(entry.schema))) return undefined;
    const at = `${path}/properties/${name}`;
    const value = compiler.at(conjuncts, frame.child(name), at);
    const tests = atoms.testBits(name);
    const labelled = tests.length === 0 ? value : ByteDfa.labelled(
      value,
      tests.map(({ schema }) => compiler.at([schema], frame.child(name), at)),
    );
    return {
      labelled,
      bits: (label: number) =>
        tests.reduce((sum, { bit }, index) => label & (1 << index) ? sum | bit : sum, 0) |
        atoms.presentBit(name),
    };
  });
  if (names.some((name, index) => required.has(name) && values[index] === undefined)) return EMPTY;
  // states: after deciding the first i names, what the formula still needs of the atoms not
  // yet decided (atoms set alike for it share a state), and whether any name was written
  const residual = residuals(atoms, tests.formula, names);
  const states = new Map<string, number>();
  const queue: [number, number, boolean][] = [];
  const stateOf = (index: number, bits: number, written: boolean): number => {
    const key = `${index},${residual(index, bits)},${written}`;
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
  const otherValue = records.flatMap(({ schema, refs }): Reached[] => {
    const given = schema.additionalProperties;
    return given === undefined || given === true ? [] : [{ schema: given, refs }];
  });
  const extra = others ? otherNames(compiler, nfa, names, otherValue, frame, path) : undefined;
  while (queue.length > 0) {
    const [index, bits, written] = queue.shift()!;
    const from = stateOf(index, bits, written);
    if (index === names.length) {
      if (atoms.holds(tests.formula, bits)) nfa.link(from, end.start);
      if (extra !== undefined && atoms.holds(tests.formula, bits | atoms.otherBit)) {
        const tail = extra(written);
        nfa.link(from, tail.start);
        nfa.link(tail.end, end.start);
      }
      continue;
    }
    const name = names[index];
    if (!required.has(name)) nfa.link(from, stateOf(index + 1, bits, written));
    const value = values[index];
    if (value === undefined) continue;
    const key = nfa.literal(utf8.encode(`${written ? "," : ""}${JSON.stringify(name)}:`));
    const body = value.labelled.embedLabelled(nfa);
    nfa.link(from, key.start);
    nfa.link(key.end, body.start);
    for (const [label, state] of body.ends) {
      nfa.link(state, stateOf(index + 1, bits | value.bits(label), true));
    }
  }
  const object = ByteDfa.fromNfa(nfa, { start: start.start, end: end.end });
  if (tests.unions.length === 0) return object;
  // an anyOf whose branches are more than formulas: the object is also one of them, read whole
  return ByteDfa.product([
    object,
    ...tests.unions.map((branches) =>
      union(
        branches.map((branch, index) =>
          compiler.objectsAt([branch], frame, `${path}/anyOf/${index}`)
        ),
      )
    ),
  ], ALL);
}

/** The most atoms still undecided for which states are told apart by what the formula needs of them. */
const MAX_RESIDUAL = 10;

/**
 * For the state after the first `index` names with `bits` set: a key that
 * is the same for two sets of bits exactly when the formula holds for the same
 * settings of the atoms not yet decided (past MAX_RESIDUAL of those, the bits).
 */
function residuals(
  atoms: Atoms,
  formula: Formula,
  names: string[],
): (index: number, bits: number) => string {
  // the atoms decided once the first i names are
  const decided = [0];
  for (const name of names) {
    const own = atoms.testBits(name).reduce((sum, { bit }) => sum | bit, atoms.presentBit(name));
    decided.push(decided[decided.length - 1] | own);
  }
  const all = (1 << atoms.count) - 1;
  const known = new Map<string, string>();
  return (index, bits) => {
    const open: number[] = [];
    for (let bit = 1; bit <= all; bit <<= 1) if ((decided[index] & bit) === 0) open.push(bit);
    if (open.length > MAX_RESIDUAL) return `b${bits}`;
    const cached = known.get(`${index} ${bits}`);
    if (cached !== undefined) return cached;
    let table = "";
    for (let setting = 0; setting < 1 << open.length; setting++) {
      let more = 0;
      open.forEach((bit, at) => setting & (1 << at) ? more |= bit : 0);
      table += atoms.holds(formula, (bits & decided[index]) | more) ? "1" : "0";
    }
    known.set(`${index} ${bits}`, table);
    return table;
  };
}

/** Names not in the frame, after its names: `(,"key":value)+`, the first without a comma when nothing was written. */
function otherNames(
  compiler: ValueCompiler,
  nfa: ByteNfa,
  names: string[],
  conjuncts: Reached[],
  frame: Frame,
  path: string,
): (written: boolean) => Fragment {
  const key = compiler.keyDfa(names);
  // a name no schema declares takes the value every additionalProperties gives
  const value = compiler.at(conjuncts, frame.others, `${path}/additionalProperties`);
  const utf8 = new TextEncoder();
  const pair = () =>
    nfa.sequence([key.embed(nfa), nfa.literal(utf8.encode(":")), value.embed(nfa)]);
  const more = () => nfa.star(() => nfa.sequence([nfa.literal(utf8.encode(",")), pair()]));
  const built = new Map<boolean, Fragment>();
  return (written) => {
    let fragment = built.get(written);
    if (fragment === undefined) {
      const first = written ? nfa.sequence([nfa.literal(utf8.encode(",")), pair()]) : pair();
      fragment = nfa.sequence([first, more()]);
      built.set(written, fragment);
    }
    return fragment;
  };
}

/**
 * A JSON Schema as one deterministic automaton over the bytes of its
 * instances in compact JSON. A value is compiled under every schema that
 * applies to it at once (a conjunction: `allOf` spread, a `$ref` beside other
 * keywords joined to them, as ajv applies them), one JSON type at a time:
 * each type's keywords are merged (the tightest bounds, every pattern), and
 * the part of each `anyOf`, `oneOf` and `not` branch of that type is united,
 * intersected or subtracted. An object's branches become formulas its
 * automaton tracks (`object_grammar.ts`). What the compiler cannot make exact
 * it refuses, naming the keyword.
 *
 * @module
 */

import { arrayDfa } from "./array_grammar.ts";
import { ALL, ByteDfa } from "./byte_dfa.ts";
import { SchemaTooLargeError, UnsupportedSchemaError } from "./errors.ts";
import { freeValue } from "./free_value.ts";
import { exactScalar } from "./exact_tests.ts";
import { objectDfa } from "./object_grammar.ts";
import type { ValueCompiler } from "./object_compiler.ts";
import { allowsAll, allowsNone, ANNOTATIONS, isRecord } from "./presence.ts";
import { type Frame, type Reached, reachedKey, SchemaRoot } from "./schema_frame.ts";
import { written } from "./schema_order.ts";
import { keyDfa, stringDfa } from "./string_grammar.ts";
import {
  counts,
  deepEqual,
  EMPTY,
  hasType,
  literalDfa,
  numbers,
  principal,
  refuseUnsupported,
  type Type,
  typesOf,
  union,
  withoutLiterals,
} from "./_schema_parts.ts";

/** Options for {@linkcode JsonSchemaGrammar}. */
export interface GrammarOptions {
  /** How deeply a value the schema leaves free may nest objects and arrays. @default {3} */
  freeDepth?: number;
  /** How many times a `$ref` may be entered within itself before the grammar stops nesting. @default {3} */
  recursion?: number;
  /** Count lengths and items beside the automaton; `false` unrolls them into states. @default {true} */
  counters?: boolean;
}

/** A schema object as reached: its keywords, and the `$ref`s entered on the way. */
type Entry = { schema: Record<string, unknown>; refs: readonly string[] };

/** The types a value may be compiled as, each once (`integer` only where `number` is not allowed). */
const PARTS: Type[] = ["string", "number", "integer", "boolean", "null", "object", "array"];

/**
 * The compiler of one schema (its `$ref`s resolve against it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const grammar = new JsonSchemaGrammar({ type: "array", items: { type: "integer" }, maxItems: 2 });
 * const dfa = grammar.automaton();
 * const bytes = (text: string) => new TextEncoder().encode(text);
 * assert.ok(dfa.accepts(bytes("[1,-2]")));
 * assert.ok(!dfa.accepts(bytes("[1,2,3]")));
 * assert.ok(!dfa.accepts(bytes("[1, 2]")));
 * ```
 */
export class JsonSchemaGrammar implements ValueCompiler {
  /** Formats read as plain strings: ajv-formats does not check them (unknown to it, or `binary`). */
  readonly ignoredFormats = new Set<string>();
  /** The schema document, for its `$ref`s and frames. */
  readonly document: SchemaRoot;
  private readonly cache = new Map<string, ByteDfa>();
  private readonly frameIds = new Map<Frame, number>();
  private readonly freeDepth: number;
  private readonly counters: boolean;

  constructor(root: unknown, options: GrammarOptions = {}) {
    this.document = new SchemaRoot(root, options.recursion ?? 3);
    this.freeDepth = options.freeDepth ?? 3;
    this.counters = options.counters ?? true;
  }

  /** The automaton of the whole schema. */
  automaton(): ByteDfa {
    const entries = [{ schema: this.document.root, refs: [] }];
    return this.at(entries, this.document.frame(entries), "#");
  }

  /** The automaton of a value satisfying every one of `conjuncts` (none: any value), at `frame`. */
  at(conjuncts: Reached[], frame: Frame, path: string): ByteDfa {
    return this.compiled("at", conjuncts, frame, path, (records) => {
      const types = this.types(records, path);
      return union(this.partsOf(types).map((type) => this.typed(records, frame, type, path)));
    });
  }

  /** The same, of objects only. */
  objectsAt(conjuncts: Reached[], frame: Frame, path: string): ByteDfa {
    return this.compiled(
      "objects",
      conjuncts,
      frame,
      path,
      (records) =>
        this.types(records, path).has("object")
          ? this.typed(records, frame, "object", path)
          : EMPTY,
    );
  }

  /** A JSON string other than these. */
  readonly keyDfa = keyDfa;

  /**
   * Schemas with their `$ref`s followed and `allOf` spread (each record once,
   * `true` and annotations dropped); refuses unsupported keywords, naming them.
   */
  flatten = (entries: Reached[], path: string): Reached[] => {
    const found: Reached[] = [];
    const visit = (entry: Reached) => {
      let resolved: Reached[];
      try {
        resolved = this.document.resolve(entry);
      } catch (error) {
        throw new UnsupportedSchemaError("$ref", `${path}: ${(error as Error).message}`);
      }
      for (const reached of resolved) {
        const { schema } = reached;
        if (schema === true || allowsAll(schema)) continue;
        if (!isRecord(schema)) {
          if (schema === false) found.push(reached);
          else throw new UnsupportedSchemaError("a schema that is not an object", path);
          continue;
        }
        refuseUnsupported(schema, path);
        found.push(reached);
        if (!("allOf" in schema)) continue;
        if (!Array.isArray(schema.allOf) || schema.allOf.length === 0) {
          throw new UnsupportedSchemaError("allOf", `${path}: not a list of schemas`);
        }
        for (const branch of schema.allOf) visit({ schema: branch, refs: reached.refs });
      }
    };
    entries.forEach(visit);
    return found;
  };

  /** Build (or find) an automaton of `conjuncts` at `frame`, naming the keyword when it grows too large. */
  private compiled(
    kind: string,
    conjuncts: Reached[],
    frame: Frame,
    path: string,
    build: (records: Entry[]) => ByteDfa,
  ): ByteDfa {
    let frameId = this.frameIds.get(frame);
    if (frameId === undefined) this.frameIds.set(frame, frameId = this.frameIds.size);
    const key = `${kind} ${reachedKey(conjuncts)} @${frameId}`;
    const known = this.cache.get(key);
    if (known !== undefined) return known;
    const flat = this.flatten(conjuncts, path);
    let dfa: ByteDfa;
    if (flat.some((entry) => entry.schema === false || allowsNone(entry.schema))) dfa = EMPTY;
    else if (flat.length === 0 && kind === "at") dfa = freeValue(this.freeDepth);
    else {
      try {
        dfa = build(flat as Entry[]);
      } catch (error) {
        if (!(error instanceof SchemaTooLargeError) || error.keyword !== "") throw error;
        throw new SchemaTooLargeError(error.reached, error.limit, principal(flat as Entry[]), path);
      }
    }
    this.cache.set(key, dfa);
    return dfa;
  }

  /** The types every record allows. */
  private types(records: Entry[], path: string): Set<Type> {
    let types = new Set<Type>(PARTS);
    for (const { schema } of records) {
      let allowed: Set<Type>;
      try {
        allowed = typesOf(schema);
      } catch (error) {
        throw new UnsupportedSchemaError("type", `${path}: ${(error as Error).message}`);
      }
      types = new Set([...types].filter((type) => allowed.has(type)));
    }
    return types;
  }

  /** The parts to compile: `number` covers `integer` where both are allowed. */
  private partsOf(types: Set<Type>): Type[] {
    return PARTS.filter((type) => types.has(type) && !(type === "integer" && types.has("number")));
  }

  /** The automaton of the values of one type under every record. */
  private typed(records: Entry[], frame: Frame, type: Type, path: string): ByteDfa {
    const literal = records.filter(({ schema }) => "enum" in schema || "const" in schema);
    if (literal.length > 0) return this.literals(records, literal, frame, type, path);
    if (type === "object") return objectDfa(this, records, frame, path);
    const positive = [this.base(records, frame, type, path)];
    const negative: ByteDfa[] = [];
    for (const { schema, refs } of records) {
      for (const keyword of ["anyOf", "oneOf"] as const) {
        if (!(keyword in schema)) continue;
        const list = schema[keyword];
        if (!Array.isArray(list) || list.length === 0) {
          throw new UnsupportedSchemaError(keyword, `${path}: not a list of schemas`);
        }
        const branches = list.map((branch) => ({ schema: branch, refs }));
        const parts = branches.map((branch, index) =>
          this.branchOf(branch, frame, type, `${path}/${keyword}/${index}`)
        );
        const live = parts.filter((part) => !part.isEmpty);
        if (keyword === "anyOf" || live.length <= 1) positive.push(union(parts));
        else if (
          branches.every((branch, index) => parts[index].isEmpty || exactScalar(branch, this))
        ) {
          positive.push(ByteDfa.product(live, (accepts) => accepts.filter(Boolean).length === 1));
        } else {
          throw new UnsupportedSchemaError("oneOf", `${path}/oneOf: branches that may overlap`);
        }
      }
      if ("not" in schema) {
        const branch = { schema: schema.not, refs };
        if (!exactScalar(branch, this)) {
          throw new UnsupportedSchemaError(
            "not",
            `${path}/not: not a test the mask can negate exactly`,
          );
        }
        negative.push(this.branchOf(branch, frame, type, `${path}/not`));
      }
    }
    if (positive.length === 1 && negative.length === 0) return positive[0];
    const count = positive.length;
    return ByteDfa.product(
      [...positive, ...negative],
      (accepts) => accepts.every((ok, index) => index < count ? ok : !ok),
      positive.map(() => true),
    );
  }

  /** A branch's automaton for one type (empty when the branch does not allow it). */
  private branchOf(branch: Reached, frame: Frame, type: Type, path: string): ByteDfa {
    return this.compiled(`branch ${type}`, [branch], frame, path, (records) => {
      const allowed = this.types(records, path);
      if (!allowed.has(type) && !(type === "number" && allowed.has("integer"))) return EMPTY;
      // a branch that allows integers only, tested where any number may be: its integer part
      const part = type === "number" && !allowed.has("number") ? "integer" : type;
      return this.typed(records, frame, part, path);
    });
  }

  /** `enum` and `const` (each list intersected), of this type, kept where the other keywords allow them. */
  private literals(records: Entry[], literal: Entry[], frame: Frame, type: Type, path: string) {
    let values: unknown[] | undefined;
    for (const { schema } of literal) {
      if ("enum" in schema && !Array.isArray(schema.enum)) {
        throw new UnsupportedSchemaError("enum", `${path}: not a list`);
      }
      const listed = schema.enum as unknown[] | undefined;
      // const beside enum: the const, if the enum lists it
      let list = "const" in schema ? [schema.const] : listed!;
      if ("const" in schema && listed !== undefined) {
        list = list.filter((value) => listed.some((other) => deepEqual(value, other)));
      }
      values = values === undefined
        ? list
        : values.filter((value) => list.some((other) => deepEqual(value, other)));
    }
    const kept = values!.filter((value, index) =>
      hasType(value, type) && values!.findIndex((other) => deepEqual(other, value)) === index
    );
    const texts = kept.map((value) => written(value, frame));
    const rest = records.map(({ schema, refs }) => ({ schema: withoutLiterals(schema), refs }));
    if (
      rest.every(({ schema }) =>
        Object.keys(schema).every((key) => key === "type" || ANNOTATIONS.has(key))
      )
    ) {
      return literalDfa(texts);
    }
    const others = this.typed(rest, frame, type, path);
    const utf8 = new TextEncoder();
    return literalDfa(texts.filter((text) => others.accepts(utf8.encode(text))));
  }

  /** What one type's own keywords say, merged over every record. */
  private base(records: Entry[], frame: Frame, type: Type, path: string): ByteDfa {
    const schemas = records.map((entry) => entry.schema);
    switch (type) {
      case "string":
        return this.strings(schemas);
      case "number":
      case "integer":
        return numbers(schemas, type === "integer", path);
      case "boolean":
        return literalDfa(["true", "false"]);
      case "null":
        return literalDfa(["null"]);
      case "array": {
        const items = records.flatMap(({ schema, refs }): Reached[] =>
          schema.items === undefined ? [] : [{ schema: schema.items, refs }]
        );
        const item = this.at(items, frame.items, `${path}/items`);
        const min = Math.max(0, ...counts(schemas, "minItems"));
        const max = Math.min(Infinity, ...counts(schemas, "maxItems"));
        return arrayDfa(item, min, max, this.counters);
      }
      default:
        throw new Error(`no base for ${type}`);
    }
  }

  /** Strings under every record's string keywords: one automaton, one more per extra pattern or format. */
  private strings(schemas: Record<string, unknown>[]): ByteDfa {
    const options = {
      counters: this.counters,
      ignored: (format: string) => this.ignoredFormats.add(format),
    };
    const patterns = schemas.flatMap((schema) => "pattern" in schema ? [schema.pattern] : []);
    const formats = schemas.flatMap((schema) =>
      typeof schema.format === "string" ? [schema.format] : []
    );
    const minLength = counts(schemas, "minLength");
    const maxLength = counts(schemas, "maxLength");
    const first = stringDfa({
      minLength: minLength.length > 0 ? Math.max(...minLength) : undefined,
      maxLength: maxLength.length > 0 ? Math.min(...maxLength) : undefined,
      pattern: patterns[0],
      format: formats[0],
    }, options);
    const more = [
      ...patterns.slice(1).map((pattern) => stringDfa({ pattern }, options)),
      ...formats.slice(1).map((format) => stringDfa({ format }, options)),
    ];
    return more.length === 0 ? first : ByteDfa.product([first, ...more], ALL);
  }
}

/**
 * A JSON Schema as one deterministic automaton over the bytes of its
 * instances in compact JSON. Each sub-schema becomes a minimal automaton
 * of its own, embedded where it is used; `anyOf` is a union, `allOf` an
 * intersection, `oneOf` and `not` exact where the compiler can prove them
 * so, and everything else it cannot make exact is refused.
 *
 * @module
 */

import { ByteDfa } from "./byte_dfa.ts";
import { ByteNfa } from "./byte_nfa.ts";
import { UnsupportedSchemaError } from "./errors.ts";
import { numberDfa } from "./number_grammar.ts";
import { mergeBranches, widenBranch } from "./object_branches.ts";
import { objectDfa, type ValueCompiler } from "./object_grammar.ts";
import { allowsAll, allowsNone, ANNOTATIONS, isRecord, presenceTest } from "./presence.ts";
import {
  arrayOf,
  COMBINATORS,
  disjoint,
  EMPTY,
  exactScalar,
  hasType,
  IMPLIES,
  literalDfa,
  type Type,
  TYPES,
  union,
  UNSUPPORTED,
  without,
} from "./_schema_parts.ts";
import { keyDfa, stringDfa } from "./string_grammar.ts";

/** Options for {@linkcode JsonSchemaGrammar}. */
export interface GrammarOptions {
  /** How deeply a value the schema leaves free may nest objects and arrays. @default {3} */
  freeDepth?: number;
  /** How many times a `$ref` may be entered within itself before the grammar stops nesting. @default {3} */
  recursion?: number;
}

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
  private readonly cache = new Map<unknown, ByteDfa>();
  private readonly refs: string[] = [];
  private readonly freeDepth: number;
  private readonly recursion: number;

  constructor(private readonly root: unknown, options: GrammarOptions = {}) {
    this.freeDepth = options.freeDepth ?? 3;
    this.recursion = options.recursion ?? 3;
  }

  /** The automaton of the whole schema. */
  automaton(): ByteDfa {
    return this.valueDfa(this.root, "#");
  }

  /** The automaton of a value of `schema` (found at `path`, for messages). */
  valueDfa(schema: unknown, path: string): ByteDfa {
    if (allowsAll(schema)) return this.free(this.freeDepth);
    if (schema === false) return EMPTY;
    if (!isRecord(schema)) throw new UnsupportedSchemaError("a schema that is not an object", path);
    if (this.refs.length === 0 || !("$ref" in schema)) {
      const known = this.cache.get(schema);
      if (known !== undefined) return known;
    }
    const dfa = this.build(schema, path);
    if (this.refs.length === 0) this.cache.set(schema, dfa);
    return dfa;
  }

  /** A JSON string other than these. */
  readonly keyDfa = keyDfa;

  private build(schema: Record<string, unknown>, path: string): ByteDfa {
    for (const keyword of UNSUPPORTED) {
      if (keyword in schema) throw new UnsupportedSchemaError(keyword, path);
    }
    if (schema.uniqueItems === true) throw new UnsupportedSchemaError("uniqueItems", path);
    if (typeof schema.$ref === "string") return this.reference(schema, path);
    const combinators = COMBINATORS.filter((keyword) => keyword in schema);
    const types = this.types(schema, path);
    if (combinators.length > 0) {
      const merged = types.length === 1 && types[0] === "object"
        ? mergeBranches(schema)
        : undefined;
      const only = merged &&
        Object.fromEntries(combinators.map((keyword) => [keyword, merged[keyword]]));
      if (merged !== undefined && presenceTest(only) !== undefined) {
        return this.object(merged, path, only!);
      }
      const rest = without(schema, combinators); // nothing beside: no free value to cut them
      const base = allowsAll(rest) ? [] : [this.valueDfa(rest, path)];
      const object = types.length === 1 && types[0] === "object";
      return ByteDfa.product(
        [...base, ...combinators.map((keyword) => this.combinator(keyword, schema, path, object))],
        (accepts) => accepts.every(Boolean),
      );
    }
    if ("enum" in schema || "const" in schema) return this.literals(schema, types, path);
    const parts = types.map((type) => this.typed(type, schema, path));
    return parts.length === 1 ? parts[0] : union(parts);
  }

  private typed(type: Type, schema: Record<string, unknown>, path: string): ByteDfa {
    switch (type) {
      case "string":
        return stringDfa(schema, (format) => this.ignoredFormats.add(format));
      case "number":
      case "integer": {
        // ajv-formats' number formats: int32 is a 32-bit integer, int64 any integer
        const format = schema.format;
        const integer = type === "integer" || format === "int32" || format === "int64";
        if (format !== "int32") return numberDfa(integer, schema);
        const minimum = Math.max(
          typeof schema.minimum === "number" ? schema.minimum : -Infinity,
          -(2 ** 31),
        );
        const maximum = Math.min(
          typeof schema.maximum === "number" ? schema.maximum : Infinity,
          2 ** 31 - 1,
        );
        return numberDfa(true, { ...schema, minimum, maximum });
      }
      case "boolean":
        return literalDfa(["true", "false"]);
      case "null":
        return literalDfa(["null"]);
      case "object":
        return this.object(schema, path, {});
      case "array":
        return this.array(schema, path);
    }
  }

  private object(schema: Record<string, unknown>, path: string, combinators: object): ByteDfa {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const presence = presenceTest({
      ...combinators,
      required: schema.required ?? [],
      ...("dependencies" in schema ? { dependencies: schema.dependencies } : {}),
      ...("dependentRequired" in schema ? { dependentRequired: schema.dependentRequired } : {}),
      // the other properties' values are the object grammar's to check
      properties: Object.fromEntries(
        Object.entries(properties).filter(([, value]) => allowsNone(value)),
      ),
    });
    if (presence === undefined) {
      throw new UnsupportedSchemaError(
        "dependencies",
        `${path}: only lists of names are supported`,
      );
    }
    return objectDfa(this, schema, path, presence);
  }

  private array(schema: Record<string, unknown>, path: string): ByteDfa {
    if (Array.isArray(schema.items)) throw new UnsupportedSchemaError("items", `${path}: a list`);
    const item = this.valueDfa(schema.items ?? true, `${path}/items`);
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    const max = typeof schema.maxItems === "number" ? schema.maxItems : Infinity;
    const nfa = new ByteNfa();
    const utf8 = new TextEncoder();
    const parts = [nfa.literal(utf8.encode("["))];
    if (max >= 1) {
      const rest = () => nfa.sequence([nfa.literal(utf8.encode(",")), item.embed(nfa)]);
      const list = nfa.sequence([item.embed(nfa), nfa.repeat(rest, Math.max(min - 1, 0), max - 1)]);
      parts.push(min === 0 ? nfa.optional(list) : list);
    } else if (min > 0) return EMPTY;
    parts.push(nfa.literal(utf8.encode("]")));
    return ByteDfa.fromNfa(nfa, nfa.sequence(parts));
  }

  private literals(schema: Record<string, unknown>, types: Type[], path: string): ByteDfa {
    const values = "const" in schema ? [schema.const] : schema.enum;
    if (!Array.isArray(values)) throw new UnsupportedSchemaError("enum", `${path}: not a list`);
    const fits = values.filter((value) => types.some((type) => hasType(value, type)));
    const literals = literalDfa(fits.map((value) => JSON.stringify(value)));
    const rest = without(schema, ["enum", "const", "type"]);
    if (Object.keys(rest).every((key) => ANNOTATIONS.has(key))) return literals;
    return ByteDfa.product(
      [literals, this.valueDfa(without(schema, ["enum", "const"]), path)],
      (a) => a[0] && a[1],
    );
  }

  /** The automaton of one combinator of `parent`; an object's branches are read in its terms. */
  private combinator(
    keyword: string,
    parent: Record<string, unknown>,
    path: string,
    object: boolean,
  ): ByteDfa {
    const value = parent[keyword];
    const at = `${path}/${keyword}`;
    if (keyword === "not") {
      if (!exactScalar(value)) throw new UnsupportedSchemaError("not", at);
      return ByteDfa.product(
        [this.free(this.freeDepth), this.valueDfa(value, at)],
        ([all, no]) => all && !no,
      );
    }
    if (!Array.isArray(value) || value.length === 0) throw new UnsupportedSchemaError(keyword, at);
    const branches = value.map((branch, index) =>
      this.valueDfa(object ? widenBranch(parent, branch) : branch, `${at}/${index}`)
    );
    if (keyword === "allOf") return ByteDfa.product(branches, (accepts) => accepts.every(Boolean));
    const required = Array.isArray(parent.required) ? parent.required as string[] : [];
    if (keyword === "anyOf" || disjoint(value, required)) return union(branches);
    if (!value.every(exactScalar)) {
      throw new UnsupportedSchemaError("oneOf", `${at}: branches that may overlap`);
    }
    return ByteDfa.product(branches, (accepts) => accepts.filter(Boolean).length === 1);
  }

  private reference(schema: Record<string, unknown>, path: string): ByteDfa {
    const ref = schema.$ref as string;
    if (Object.keys(schema).some((key) => key !== "$ref" && !ANNOTATIONS.has(key))) {
      throw new UnsupportedSchemaError("$ref", `${path}: beside other keywords`);
    }
    if (!ref.startsWith("#")) {
      throw new UnsupportedSchemaError("$ref", `${path}: not local (${ref})`);
    }
    if (this.refs.filter((seen) => seen === ref).length >= this.recursion) return EMPTY;
    let target: unknown = this.root;
    for (const part of ref.slice(1).split("/").filter((part) => part !== "")) {
      const key = decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~");
      target = isRecord(target) || Array.isArray(target)
        ? (target as Record<string, unknown>)[key]
        : undefined;
    }
    if (target === undefined) throw new UnsupportedSchemaError("$ref", `${path}: ${ref} not found`);
    this.refs.push(ref);
    try {
      return this.valueDfa(target, ref);
    } finally {
      this.refs.pop();
    }
  }

  /** The types a schema allows: its `type`, or what its keywords imply, or all. */
  private types(schema: Record<string, unknown>, path: string): Type[] {
    const declared = schema.type;
    if (declared === undefined) {
      const implied = new Set(Object.keys(schema).flatMap((key) => IMPLIES[key] ?? []));
      return implied.size === 0 ? [...TYPES].filter((type) => type !== "integer") : [...implied];
    }
    const list = Array.isArray(declared) ? declared : [declared];
    for (const type of list) {
      if (!TYPES.includes(type)) throw new UnsupportedSchemaError("type", `${path}: ${type}`);
    }
    // an integer is a number: with both, the number grammar covers it
    return list.includes("number") ? list.filter((type) => type !== "integer") : list;
  }

  /** Any JSON value nesting at most `depth` objects and arrays. */
  private free(depth: number): ByteDfa {
    const key = `free ${depth}`;
    let dfa = this.cache.get(key);
    if (dfa !== undefined) return dfa;
    const scalars = [
      stringDfa({}),
      this.typed("number", {}, ""),
      literalDfa(["true", "false", "null"]),
    ];
    if (depth === 0) dfa = union([...scalars, literalDfa(["{}", "[]"])]);
    else {
      const inner = this.free(depth - 1);
      const object = objectDfa(
        { valueDfa: () => inner, keyDfa },
        { additionalProperties: true },
        "",
        { test: () => true, names: new Set() },
      );
      dfa = union([...scalars, object, arrayOf(inner)]);
    }
    this.cache.set(key, dfa);
    return dfa;
  }
}

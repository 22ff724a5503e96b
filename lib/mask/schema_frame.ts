/**
 * Where a value sits in a schema, read alike by the compiler and by
 * `inSchemaOrder`: the schemas that may apply there (a frame: those reached
 * through properties, items and `additionalProperties`, with every branch of
 * `anyOf`, `oneOf`, `allOf` and `not`, `$ref`s followed). A frame fixes the
 * names an object may have there, in the order the mask writes them (each
 * schema's own `properties`, its branches' after it, then names only
 * `required` or `dependencies` give), and whether other names may appear
 * (where some schema there gives `additionalProperties`). Every branch
 * compiled at one place reads the same frame, so their automata agree on
 * order and can be intersected.
 *
 * @module
 */

import { isRecord } from "./presence.ts";

/** A schema as the compiler meets it, with the `$ref`s entered on the way (to bound recursion). */
export interface Reached {
  readonly schema: unknown;
  readonly refs: readonly string[];
}

/** The keywords that combine schemas. */
const COMBINATORS = ["anyOf", "oneOf", "allOf", "not"] as const;

const ids = new WeakMap<object, number>();
let nextId = 1;

/** A number for each schema object (0 for `true`, 1 for `false`), for keys. */
function schemaId(schema: unknown): number {
  if (!isRecord(schema)) return schema === false ? 1 : 0;
  let id = ids.get(schema);
  if (id === undefined) ids.set(schema, id = ++nextId);
  return id;
}

/**
 * A key naming reached schemas: the same schemas by the same refs, the same key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const schema = { type: "string" };
 * assert.equal(reachedKey([{ schema, refs: [] }]), reachedKey([{ schema, refs: [] }]));
 * assert.notEqual(reachedKey([{ schema, refs: [] }]), reachedKey([{ schema, refs: ["#/$defs/a"] }]));
 * ```
 */
export function reachedKey(entries: readonly Reached[]): string {
  return entries.map((entry) => `${schemaId(entry.schema)}/${entry.refs.join(" ")}`).join(",");
}

/**
 * A schema document: resolves local `$ref`s, entering each at most
 * `recursion` times within itself, and makes frames.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const root = new SchemaRoot({
 *   properties: { b: { type: "string" }, a: {} },
 *   anyOf: [{ properties: { c: { type: "integer" } } }, { required: ["d"] }],
 * });
 * const frame = root.frame([{ schema: root.root, refs: [] }]);
 * assert.deepEqual(frame.names, ["b", "a", "c", "d"]);
 * assert.equal(frame.child("c").entries.length, 1);
 * ```
 */
export class SchemaRoot {
  private readonly frames = new Map<string, Frame>();

  constructor(readonly root: unknown, readonly recursion = 3) {}

  /**
   * What `entry` stands for, `$ref`s followed: its own keywords (if any
   * besides `$ref`), then its target's; `false` past the recursion bound.
   * Throws `RangeError` naming a `$ref` that is not local or not found.
   */
  resolve(entry: Reached): Reached[] {
    const { schema, refs } = entry;
    if (!isRecord(schema) || typeof schema.$ref !== "string") return [entry];
    const ref = schema.$ref;
    const { $ref: _, ...rest } = schema;
    const own = Object.keys(rest).length > 0 ? [{ schema: rest, refs }] : [];
    if (refs.filter((seen) => seen === ref).length >= this.recursion) {
      return [...own, { schema: false, refs }];
    }
    return [...own, ...this.resolve({ schema: this.target(ref), refs: [...refs, ref] })];
  }

  /** The schema a local `$ref` points at. */
  target(ref: string): unknown {
    if (!ref.startsWith("#")) throw new RangeError(`not local (${ref})`);
    let target: unknown = this.root;
    for (const part of ref.slice(1).split("/").filter((part) => part !== "")) {
      const key = decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~");
      target = isRecord(target) || Array.isArray(target)
        ? (target as Record<string, unknown>)[key]
        : undefined;
    }
    if (target === undefined) throw new RangeError(`${ref} not found`);
    return target;
  }

  /** The frame of these schemas (the same object for the same schemas). */
  frame(entries: readonly Reached[]): Frame {
    const key = reachedKey(entries);
    let frame = this.frames.get(key);
    if (frame === undefined) {
      frame = new Frame(this, this.expand(entries));
      this.frames.set(key, frame);
    }
    return frame;
  }

  /** These schemas and every branch within them, `$ref`s followed, each once, in order. */
  private expand(entries: readonly Reached[]): Reached[] {
    const found: Reached[] = [];
    const seen = new Set<string>();
    const visit = (entry: Reached) => {
      let resolved: Reached[];
      try {
        resolved = this.resolve(entry);
      } catch {
        return; // the compiler refuses it, naming $ref
      }
      for (const reached of resolved) {
        const key = reachedKey([reached]);
        if (seen.has(key)) continue;
        seen.add(key);
        found.push(reached);
        if (!isRecord(reached.schema)) continue;
        for (const keyword of COMBINATORS) {
          const value = reached.schema[keyword];
          const branches = keyword === "not" ? [value] : Array.isArray(value) ? value : [];
          for (const branch of branches) {
            if (branch !== undefined) visit({ schema: branch, refs: reached.refs });
          }
        }
      }
    };
    entries.forEach(visit);
    return found;
  }
}

/**
 * The schemas that may apply at one place, and what follows from them.
 *
 * @example The names at the root, and at a property
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const schema = {
 *   properties: { point: { properties: { x: {}, y: {} }, additionalProperties: { type: "string" } } },
 *   required: ["id"],
 * };
 * const root = new SchemaRoot(schema);
 * const frame = root.frame([{ schema, refs: [] }]);
 * assert.deepEqual(frame.names, ["point", "id"]);
 * assert.equal(frame.othersNamed, false);
 * assert.deepEqual(frame.child("point").names, ["x", "y"]);
 * assert.equal(frame.child("point").othersNamed, true);
 * ```
 */
export class Frame {
  private readonly children = new Map<string, Frame>();
  private nameList: string[] | undefined;
  private itemFrame: Frame | undefined;
  private otherFrame: Frame | undefined;

  constructor(readonly root: SchemaRoot, readonly entries: readonly Reached[]) {}

  /** The names an object may have here, in the order the mask writes them. */
  get names(): string[] {
    if (this.nameList !== undefined) return this.nameList;
    const names = new Set<string>();
    const records = this.records();
    for (const { schema } of records) {
      if (isRecord(schema.properties)) Object.keys(schema.properties).forEach((n) => names.add(n));
    }
    for (const { schema } of records) {
      if (Array.isArray(schema.required)) {
        schema.required.forEach((name) => typeof name === "string" && names.add(name));
      }
    }
    for (const { schema } of records) {
      if (!isRecord(schema.dependencies)) continue;
      for (const [name, needs] of Object.entries(schema.dependencies)) {
        names.add(name);
        if (Array.isArray(needs)) {
          needs.forEach((need) => typeof need === "string" && names.add(need));
        }
      }
    }
    return this.nameList = [...names];
  }

  /** True when names other than `names` may appear here: some schema gives `additionalProperties`. */
  get othersNamed(): boolean {
    return this.records().some(({ schema }) =>
      schema.additionalProperties !== undefined && schema.additionalProperties !== false
    );
  }

  /** The frame of the value of property `name` (a name not in `names`: as `others`). */
  child(name: string): Frame {
    if (!this.names.includes(name)) return this.others;
    let frame = this.children.get(name);
    if (frame === undefined) {
      const entries = this.records().flatMap(({ schema, refs }): Reached[] => {
        const properties = isRecord(schema.properties) ? schema.properties : {};
        if (Object.hasOwn(properties, name)) return [{ schema: properties[name], refs }];
        const others = schema.additionalProperties;
        return isRecord(others) ? [{ schema: others, refs }] : [];
      });
      frame = this.root.frame(entries);
      this.children.set(name, frame);
    }
    return frame;
  }

  /** The frame of the value of a name not in `names`. */
  get others(): Frame {
    return this.otherFrame ??= this.root.frame(
      this.records().flatMap(({ schema, refs }): Reached[] =>
        isRecord(schema.additionalProperties) ? [{ schema: schema.additionalProperties, refs }] : []
      ),
    );
  }

  /** The frame of an array's items here. */
  get items(): Frame {
    return this.itemFrame ??= this.root.frame(
      this.records().flatMap(({ schema, refs }): Reached[] =>
        schema.items !== undefined && !Array.isArray(schema.items)
          ? [{ schema: schema.items, refs }]
          : []
      ),
    );
  }

  private records(): { schema: Record<string, unknown>; refs: readonly string[] }[] {
    return this.entries.filter((entry) => isRecord(entry.schema)) as {
      schema: Record<string, unknown>;
      refs: readonly string[];
    }[];
  }
}

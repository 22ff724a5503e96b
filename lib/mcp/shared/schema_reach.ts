/**
 * How much of a schema one value can be checked against, references
 * followed: the bound on a check's time that a server's schema must stay
 * within before this client checks anything with it.
 *
 * @module
 */

import { isObject, type JsonObject } from "./jsonrpc.ts";

/** Options for {@linkcode schemaReach}. */
export interface SchemaReachOptions {
  /** The most schema nodes one value may meet. @default {10000} */
  maxNodes?: number;
  /** The deepest nesting of schema nodes, references followed. @default {100} */
  maxDepth?: number;
}

/**
 * The number of schema nodes (objects and arrays) one value can meet when
 * checked against `schema`: each node counted once for every way of
 * reaching it, and each reference (`$ref`) followed to what it names.
 *
 * Without references a schema is a tree, and a validator meets each of its
 * nodes at most once for each part of the value. A reference can be reached
 * many ways: ten levels of `anyOf` whose two branches both refer to the next
 * level make 2^10 ways to the last. So the nodes are counted as met, not as
 * written, and a schema that can loop back into itself, through a `$ref`
 * that leads to itself or through `$dynamicRef` or `$recursiveRef`, is
 * refused: its checking time cannot be bounded by its size.
 *
 * Throws `RangeError` when the count passes `maxNodes`, the nesting passes
 * `maxDepth`, or a reference is recursive, and `SyntaxError` for a
 * reference it does not follow: anything but a JSON pointer into the schema
 * itself (`#/definitions/name`), and any reference inside a subschema with
 * an `$id` of its own, where `#` means that subschema.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const shared = { definitions: { id: { type: "string" } } };
 * const schema = { ...shared, properties: { a: { $ref: "#/definitions/id" } } };
 * assert.equal(schemaReach(schema), 6);
 * const loop = { definitions: { node: { items: { $ref: "#/definitions/node" } } } };
 * assert.throws(() => schemaReach({ ...loop, $ref: "#/definitions/node" }), RangeError);
 * ```
 */
export function schemaReach(schema: JsonObject, options: SchemaReachOptions = {}): number {
  const { maxNodes = 10_000, maxDepth = 100 } = options;
  const following: string[] = [];
  let nodes = 0;
  const visit = (value: unknown, depth: number): void => {
    if (typeof value !== "object" || value === null) return;
    if (depth > maxDepth) throw new RangeError(`it nests deeper than ${maxDepth} levels`);
    if (++nodes > maxNodes) {
      throw new RangeError(
        `one value could meet more than ${maxNodes.toLocaleString("en")} schema nodes`,
      );
    }
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    if (depth > 0 && "$id" in value) refuseReferencesIn(value);
    for (const keyword of ["$dynamicRef", "$recursiveRef"]) {
      if (keyword in value) throw new RangeError(`it loops back into itself with ${keyword}`);
    }
    if ("$ref" in value) {
      const ref = value.$ref;
      if (following.includes(String(ref))) {
        throw new RangeError(`its reference ${JSON.stringify(ref)} leads back into itself`);
      }
      following.push(String(ref));
      visit(resolve(schema, ref), depth + 1);
      following.pop();
    }
    for (const child of Object.values(value)) visit(child, depth + 1);
  };
  visit(schema, 0);
  return nodes;
}

/** What the local reference `ref` names in `schema`. */
function resolve(schema: JsonObject, ref: unknown): unknown {
  if (typeof ref !== "string" || (ref !== "#" && !ref.startsWith("#/"))) {
    throw new SyntaxError(
      `its reference ${JSON.stringify(ref)} does not point into the schema itself ` +
        `(only "#/…" references are followed)`,
    );
  }
  let target: unknown = schema;
  for (const part of ref.split("/").slice(1)) {
    const key = decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isObject(target) && !Array.isArray(target) || !Object.hasOwn(target, key)) {
      throw new SyntaxError(`its reference ${JSON.stringify(ref)} names nothing in the schema`);
    }
    target = (target as JsonObject)[key];
  }
  return target;
}

/** Refuse a subschema with its own `$id` that holds a reference: `#` would mean it, not the root. */
function refuseReferencesIn(subschema: JsonObject): void {
  if (JSON.stringify(subschema).includes('"$ref"')) {
    throw new SyntaxError(
      `it has references inside a subschema with its own $id (${
        JSON.stringify(subschema.$id)
      }), which this client does not follow`,
    );
  }
}

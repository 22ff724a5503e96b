/**
 * Products of deterministic automata, read one byte class at a time (bytes
 * that every part treats alike are read once), keeping labels and counted
 * regions. `ByteDfa.product` and `ByteDfa.labelled` are built on it.
 *
 * @module
 */

import type { ByteDfa, Origins } from "./byte_dfa.ts";
import { SchemaTooLargeError } from "./errors.ts";
import { CounterConflict, type Counting, type Region } from "./regions.ts";

/**
 * How a part's counted region may survive a product: `all`, the product
 * accepts only where this part does (its counts bound the product's); `alone`,
 * only while no other part is alive beside it.
 */
export type PartRole = "all" | "alone";

/**
 * The class of each byte: two bytes share one when every state of `dfa`
 * moves alike on them (same target, same tick).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stringDfa } from "./string_grammar.ts";
 *
 * const classes = byteClasses(stringDfa({ pattern: "^[ab]$" }));
 * assert.equal(classes[0x61], classes[0x62]);
 * assert.notEqual(classes[0x61], classes[0x63]);
 * ```
 */
export function byteClasses(dfa: ByteDfa): Uint8Array {
  const { table } = dfa;
  const ticks = dfa.counting?.ticks;
  // a hash of each byte's column (every state's move and tick on it), then columns compared
  const hashes = new Uint32Array(256).fill(0x811c9dc5);
  for (let row = 0; row < table.length; row += 256) {
    for (let byte = 0; byte < 256; byte++) {
      let hash = Math.imul(hashes[byte] ^ (table[row + byte] + 1), 0x01000193);
      if (ticks !== undefined) hash = Math.imul(hash ^ (ticks[row + byte] + 2), 0x01000193);
      hashes[byte] = hash;
    }
  }
  const sameColumn = (a: number, b: number) => {
    for (let row = 0; row < table.length; row += 256) {
      if (table[row + a] !== table[row + b]) return false;
      if (ticks !== undefined && ticks[row + a] !== ticks[row + b]) return false;
    }
    return true;
  };
  const classes = new Uint8Array(256);
  const firsts: number[] = [];
  const byHash = new Map<number, number[]>();
  for (let byte = 0; byte < 256; byte++) {
    const candidates = byHash.get(hashes[byte]) ?? [];
    const same = candidates.find((first) => sameColumn(first, byte));
    if (same !== undefined) classes[byte] = classes[same];
    else {
      classes[byte] = firsts.length;
      firsts.push(byte);
      candidates.push(byte);
      byHash.set(hashes[byte], candidates);
    }
  }
  return classes;
}

/** A product's table and marks, from which `ByteDfa` makes the automaton. */
export interface Combined {
  table: Int32Array;
  accepting: Uint8Array;
  marks: { labels?: Int32Array; counting?: Counting; origins?: Origins };
}

/**
 * The product of `parts`: a state per tuple of their states, labelled by
 * `label` (of which parts accept; -1 for not accepting), not yet minimised;
 * with `labelled`, the labels are kept. Throws `CounterConflict` where a
 * counted region cannot be kept.
 *
 * @example Strings that two patterns both allow
 * ```ts
 * import assert from "node:assert/strict";
 * import { ByteDfa } from "./byte_dfa.ts";
 * import { stringDfa } from "./string_grammar.ts";
 *
 * const parts = [stringDfa({ pattern: "^a" }), stringDfa({ pattern: "b$" })];
 * const all = (accepts: boolean[]) => accepts.every(Boolean) ? 0 : -1;
 * const { table, accepting, marks } = combineParts(parts, ["all", "all"], all, 1000, false);
 * const both = new ByteDfa(table, accepting, marks);
 * assert.ok(both.accepts(new TextEncoder().encode('"ab"')));
 * assert.ok(!both.accepts(new TextEncoder().encode('"a"')));
 * ```
 */
export function combineParts(
  parts: ByteDfa[],
  roles: PartRole[],
  label: (accepts: boolean[]) => number,
  limit: number,
  labelled: boolean,
): Combined {
  // bytes every part reads alike are read once
  const classOf = new Uint8Array(256);
  const representatives: number[] = [];
  const byClass = new Map<string, number>();
  for (let byte = 0; byte < 256; byte++) {
    const key = parts.map((part) => part.isEmpty ? 0 : part.byteClasses[byte]).join(",");
    let id = byClass.get(key);
    if (id === undefined) {
      byClass.set(key, id = representatives.length);
      representatives.push(byte);
    }
    classOf[byte] = id;
  }
  // the parts' regions, numbered for the product
  const regions: Region[] = [];
  const regionIds = parts.map((part) =>
    (part.counting?.regions ?? []).map((region) => {
      let id = regions.indexOf(region);
      if (id < 0) id = regions.push(region) - 1;
      return id;
    })
  );
  // the automata the parts' states read as, numbered for the product
  const sources: ByteDfa[] = [];
  const sourceIds = parts.map((part) =>
    (part.origins?.sources ?? []).map((source) => {
      let id = sources.indexOf(source);
      if (id < 0) id = sources.push(source) - 1;
      return id;
    })
  );
  const originOf: number[] = [];
  const tuples: number[][] = [];
  const ids = new Map<string, number>();
  const idOf = (tuple: number[]): number => {
    if (tuple.every((state) => state < 0)) return -1;
    const key = tuple.join(",");
    let id = ids.get(key);
    if (id === undefined) {
      id = tuples.length;
      if (id >= limit) throw new SchemaTooLargeError(id + 1, limit);
      ids.set(key, id);
      tuples.push(tuple);
    }
    return id;
  };
  idOf(parts.map((part) => part.isEmpty ? -1 : 0));
  const rows: number[] = [];
  const tickRows: number[] = [];
  const labels: number[] = [];
  const regionOf: number[] = [];
  const counted = regions.length > 0;
  for (let id = 0; id < tuples.length; id++) {
    const tuple = tuples[id];
    const owner = counted ? regionOwner(parts, roles, tuple) : -1;
    const ownerCounting = owner >= 0 ? parts[owner].counting : undefined;
    const nextOf = representatives.map((byte) =>
      idOf(tuple.map((state, index) => state < 0 ? -1 : parts[index].table[state * 256 + byte]))
    );
    for (let byte = 0; byte < 256; byte++) {
      rows.push(nextOf[classOf[byte]]);
      if (counted) {
        const tick = ownerCounting?.ticks[tuple[owner] * 256 + byte] ?? -1;
        tickRows.push(tick < 0 ? -1 : regionIds[owner][tick]);
      }
    }
    // a state reads as another automaton's only where one part alone is alive
    const alive = tuple.filter((state) => state >= 0).length;
    const only = tuple.findIndex((state) => state >= 0);
    const origin = alive === 1 ? parts[only].origins?.of[tuple[only]] ?? -1 : -1;
    originOf.push(origin < 0 ? -1 : sourceIds[only][origin >> 16] * 65536 + (origin & 0xffff));
    labels.push(
      label(tuple.map((state, index) => state >= 0 && parts[index].accepting[state] === 1)),
    );
    regionOf.push(
      ownerCounting === undefined ? -1 : regionIds[owner][ownerCounting.regionOf[tuple[owner]]],
    );
  }
  const counting: Counting | undefined = counted
    ? { regions, regionOf: Int32Array.from(regionOf), ticks: Int32Array.from(tickRows) }
    : undefined;
  const origins = originOf.some((origin) => origin >= 0)
    ? { sources, of: Int32Array.from(originOf) }
    : undefined;
  return {
    table: Int32Array.from(rows),
    accepting: Uint8Array.from(labels, (value) => value >= 0 ? 1 : 0),
    marks: { labels: labelled ? Int32Array.from(labels) : undefined, counting, origins },
  };
}

/** The part whose region this tuple is in (-1: none), or `CounterConflict` when that cannot be kept. */
function regionOwner(parts: ByteDfa[], roles: PartRole[], tuple: number[]): number {
  let owner = -1;
  for (let index = 0; index < parts.length; index++) {
    const state = tuple[index];
    if (state < 0 || (parts[index].counting?.regionOf[state] ?? -1) < 0) continue;
    if (owner >= 0) throw new CounterConflict();
    owner = index;
  }
  if (owner >= 0 && roles[owner] === "alone") {
    if (tuple.some((state, index) => index !== owner && state >= 0)) throw new CounterConflict();
  }
  return owner;
}

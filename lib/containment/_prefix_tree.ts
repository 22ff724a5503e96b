/**
 * Keys kept by their parts, to find the one whose parts begin another key's
 * most deeply by walking that key's parts once, where weighing it against
 * every key kept cost the square of their number. Chapter 15's readers find
 * with it the mount that holds a path (`_sandbox_view.ts`) and the rule above
 * a rule (`deno_grants.ts`).
 *
 * @module
 */

interface Node {
  /** The key whose parts end here, while it is kept. */
  key?: string;
  next: Map<string, Node>;
}

/**
 * Keys split into parts by `partsOf`; {@linkcode PrefixTree.deepest} finds
 * the kept key whose parts are the longest run of parts another key starts
 * with (that key itself included).
 *
 * @example Paths by their folders
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const tree = new PrefixTree(pathParts);
 * tree.add("/srv");
 * tree.add("/srv/a/b");
 * assert.equal(tree.deepest("/srv/a"), "/srv");
 * assert.equal(tree.deepest("/srvx"), undefined);
 * tree.remove("/srv");
 * assert.equal(tree.deepest("/srv/a"), undefined);
 * ```
 */
export class PrefixTree {
  #root: Node = { next: new Map() };

  /** A tree splitting its keys with `partsOf`. */
  constructor(readonly partsOf: (key: string) => readonly string[]) {}

  /** Keep `key`. */
  add(key: string): void {
    let node = this.#root;
    for (const part of this.partsOf(key)) {
      let next = node.next.get(part);
      if (next === undefined) node.next.set(part, next = { next: new Map() });
      node = next;
    }
    node.key = key;
  }

  /** Keep `key` no longer. */
  remove(key: string): void {
    let node: Node | undefined = this.#root;
    for (const part of this.partsOf(key)) node = node?.next.get(part);
    if (node !== undefined) node.key = undefined;
  }

  /** The kept key whose parts `key`'s parts start with, the most of them; `undefined` for none. */
  deepest(key: string): string | undefined {
    let node: Node | undefined = this.#root;
    let found = node.key;
    for (const part of this.partsOf(key)) {
      node = node.next.get(part);
      if (node === undefined) break;
      found = node.key ?? found;
    }
    return found;
  }
}

/**
 * A path's parts, as {@linkcode PrefixTree} keeps paths: split at `/`, the
 * root none (it holds every path), so that one path's parts start with
 * another's where it is that path or inside it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(pathParts("/srv/a"), ["", "srv", "a"]);
 * assert.deepEqual(pathParts("/"), []);
 * ```
 */
export function pathParts(path: string): string[] {
  return path === "/" ? [] : path.split("/");
}

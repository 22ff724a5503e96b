/**
 * Every page of a paginated list (`tools/list`, `resources/list`,
 * `resources/templates/list`, `prompts/list`), in bounded time: at most so
 * many pages, never the same cursor twice, every item checked, no key twice.
 *
 * @module
 */

import { ProtocolError } from "../shared/errors.ts";
import type { JsonObject } from "../shared/jsonrpc.ts";

/** Fetches one page of a list: the first when `cursor` is undefined. */
export type FetchPage = (cursor: string | undefined) => Promise<JsonObject>;

/** What is listed, and how each item is checked and known. */
export interface ListKind<T> {
  /** The method, for messages: `tools/list`. */
  method: string;
  /** The field of each page that holds its items: `tools`. */
  field: string;
  /** What an item is, for messages: `tool`. */
  noun: string;
  /**
   * What is wrong with an item, as the end of "The tools/list result has a
   * tool …" (`whose "name" is not a string`), or `undefined` when `item` is
   * well formed.
   */
  problem(item: unknown): string | undefined;
  /** The key of a well-formed item, unique in the list: a tool's name, a resource's URI. */
  key(item: T): string;
}

/**
 * Every item on every page, by key, following `nextCursor` until a page has
 * none. Throws `ProtocolError` for a page without its list, an item that is
 * not well formed, a key given twice, a cursor that is not a string or was
 * given before, or more than `maxPages` pages.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const prompts = {
 *   method: "prompts/list",
 *   field: "prompts",
 *   noun: "prompt",
 *   problem: (item: unknown) =>
 *     typeof (item as { name?: unknown }).name === "string" ? undefined : "without a name",
 *   key: (item: { name: string }) => item.name,
 * };
 * const pages: Record<string, object> = {
 *   first: { prompts: [{ name: "a" }], nextCursor: "2" },
 *   "2": { prompts: [{ name: "b" }] },
 * };
 * const listed = await collectPages(async (cursor) => ({ ...pages[cursor ?? "first"] }), prompts, 10);
 * assert.deepEqual(Object.keys(listed), ["a", "b"]);
 * ```
 */
export async function collectPages<T>(
  fetchPage: FetchPage,
  kind: ListKind<T>,
  maxPages: number,
): Promise<Record<string, T>> {
  const { method, field, noun } = kind;
  const items = new Map<string, T>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1;; page++) {
    if (page > maxPages) throw new ProtocolError(`${method} went on past ${maxPages} pages`);
    const result = await fetchPage(cursor);
    const list = result[field];
    if (!Array.isArray(list)) {
      throw new ProtocolError(`The ${method} result has no \`${field}\` list`);
    }
    for (const item of list) {
      const problem = kind.problem(item);
      if (problem !== undefined) {
        throw new ProtocolError(`The ${method} result has a ${noun} ${problem}: ${preview(item)}`);
      }
      const key = kind.key(item as T);
      if (items.has(key)) throw new ProtocolError(`The ${noun} ${key} is advertised twice`);
      items.set(key, item as T);
    }
    if (result.nextCursor === undefined) return Object.fromEntries(items);
    if (typeof result.nextCursor !== "string" || cursors.has(result.nextCursor)) {
      throw new ProtocolError(
        `${method} gave a cursor it had given before, or not a string: ${
          preview(result.nextCursor)
        }`,
      );
    }
    cursor = result.nextCursor;
    cursors.add(cursor);
  }
}

/** An item's JSON, at most 200 characters of it. */
function preview(item: unknown): string {
  const json = JSON.stringify(item) ?? String(item);
  return json.length > 200 ? `${json.slice(0, 200)}…` : json;
}

/**
 * A server's lists a page at a time: `tools/list`, `resources/list`,
 * `resources/templates/list` and `prompts/list` all take the same opaque
 * cursors, which this server makes and checks.
 *
 * @module
 */

import type { JsonObject } from "../shared/jsonrpc.ts";
import { ERROR_CODES, failure, success } from "./replies.ts";

/** One page of a list, and the cursor of the next one if there is a next one. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * The page of `items` that `cursor` points to (the first when it is
 * `undefined`), `pageSize` items long (all of them when it is `undefined`),
 * or `undefined` when the cursor is not one this server gave for this list.
 * A cursor is opaque to the client, as the specification asks: here, the
 * base64 of the next item's index.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const first = listPage(["a", "b", "c"], undefined, 2)!;
 * assert.deepEqual(first.items, ["a", "b"]);
 * assert.deepEqual(listPage(["a", "b", "c"], first.nextCursor, 2), { items: ["c"] });
 * assert.equal(listPage(["a", "b", "c"], "not a cursor", 2), undefined);
 * assert.deepEqual(listPage(["a", "b", "c"], undefined), { items: ["a", "b", "c"] });
 * ```
 */
export function listPage<T>(
  items: readonly T[],
  cursor: string | undefined,
  pageSize?: number,
): Page<T> | undefined {
  const start = cursor === undefined ? 0 : indexOf(cursor, items.length);
  if (start === undefined) return undefined;
  const end = pageSize === undefined ? items.length : Math.min(start + pageSize, items.length);
  const page: Page<T> = { items: items.slice(start, end) };
  if (end < items.length) page.nextCursor = btoa(String(end));
  return page;
}

/** The index a cursor names, if it is one a page of a list this long could have given. */
function indexOf(cursor: string, length: number): number | undefined {
  let decoded: string;
  try {
    decoded = atob(cursor);
  } catch {
    return undefined;
  }
  if (!/^[1-9][0-9]*$/.test(decoded)) return undefined;
  const index = Number(decoded);
  return index < length ? index : undefined;
}

/**
 * The reply to a list request `id` with `params`: the page of `items` its
 * cursor points to, as the `field` of the result, or "invalid params" for a
 * cursor that is not a string this server gave.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const reply = pageReply(1, {}, "prompts", [{ name: "a" }, { name: "b" }], 1);
 * assert.deepEqual((reply.result as { prompts: unknown }).prompts, [{ name: "a" }]);
 * assert.equal((pageReply(2, { cursor: 7 }, "prompts", []).error as { code: number }).code, -32602);
 * ```
 */
export function pageReply(
  id: string | number,
  params: JsonObject,
  field: string,
  items: readonly JsonObject[],
  pageSize?: number,
): JsonObject {
  if (params.cursor !== undefined && typeof params.cursor !== "string") {
    return failure(id, ERROR_CODES.invalidParams, "Invalid params: the cursor must be a string");
  }
  const found = listPage(items, params.cursor, pageSize);
  if (found === undefined) {
    return failure(id, ERROR_CODES.invalidParams, "Invalid params: not a cursor this server gave");
  }
  const next = found.nextCursor === undefined ? {} : { nextCursor: found.nextCursor };
  return success(id, { [field]: found.items, ...next });
}

import assert from "node:assert/strict";
import { authorize } from "./allowlist.ts";

const catalog = { word_count: {}, place_purchase: {} };

Deno.test("authorize allows an advertised tool that is on the allowlist", () => {
  assert.equal(authorize("word_count", catalog, new Set(["word_count"])), true);
});

Deno.test("authorize refuses an advertised tool that is not allowed", () => {
  assert.equal(authorize("place_purchase", catalog, new Set(["word_count"])), false);
});

Deno.test("authorize refuses an allowed name the server never advertised", () => {
  assert.equal(authorize("delete_everything", catalog, new Set(["delete_everything"])), false);
});

Deno.test("authorize denies everything by default", () => {
  assert.equal(authorize("word_count", catalog, new Set()), false);
});

Deno.test("authorize is not fooled by names inherited from Object", () => {
  assert.equal(authorize("constructor", catalog, new Set(["constructor"])), false);
  assert.equal(authorize("__proto__", catalog, new Set(["__proto__"])), false);
});

import assert from "node:assert/strict";
import { contentProblem, describeContent } from "./content.ts";

const PNG = "iVBORw0KGgo=";

Deno.test("contentProblem accepts each of the five types, well formed", () => {
  for (
    const item of [
      { type: "text", text: "4", annotations: { audience: ["user"] } },
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "audio", data: PNG, mimeType: "audio/wav" },
      { type: "resource_link", uri: "file:///a.txt", name: "a" },
      { type: "resource", resource: { uri: "file:///a.txt", text: "4" } },
      { type: "resource", resource: { uri: "file:///a.bin", blob: PNG } },
    ]
  ) assert.equal(contentProblem(item), undefined, JSON.stringify(item));
});

Deno.test("contentProblem says what is wrong with an item", () => {
  const cases: [unknown, RegExp][] = [
    [5, /not an object: 5/],
    [{ type: "video" }, /the type "video", which MCP 2025-06-18 does not define/],
    [{ text: "4" }, /the type undefined/],
    [{ type: "text", text: 42 }, /a text item whose "text" is not a string: 42/],
    [{ type: "text" }, /"text" is not a string: nothing/],
    [{ type: "image", mimeType: "image/png" }, /an image item whose "data" is not a string/],
    [{ type: "image", data: "not base64!", mimeType: "image/png" }, /"data" is not base64/],
    [{ type: "audio", data: PNG }, /"mimeType" is not a string/],
    [{ type: "resource_link", uri: "file:///a" }, /"name" is not a string/],
    [{ type: "resource", resource: { text: "4" } }, /without a "resource" that has a "uri"/],
    [{ type: "resource", resource: { uri: "file:///a" } }, /neither a "text" nor a base64/],
    [{ type: "text", text: "4", annotations: [] }, /"annotations" is not an object/],
  ];
  for (const [item, expected] of cases) {
    assert.match(contentProblem(item) ?? "(well formed)", expected);
  }
});

Deno.test("describeContent names an item in a few words", () => {
  assert.equal(describeContent({ type: "text", text: "4" }), "text");
  assert.equal(
    describeContent({ type: "image", data: PNG, mimeType: "image/png" }),
    "an image (image/png)",
  );
  assert.equal(
    describeContent({ type: "resource_link", uri: "file:///a", name: "a" }),
    "a resource link (file:///a)",
  );
});

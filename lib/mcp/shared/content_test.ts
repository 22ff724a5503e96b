import assert from "node:assert/strict";
import {
  contentProblem,
  describeContent,
  isBase64,
  resourceContentsProblem,
  resourceProblem,
} from "./content.ts";

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
      // Every optional field, well typed, and one the specification does not name.
      {
        type: "resource_link",
        uri: "demo://text/1",
        name: "1",
        title: "One",
        description: "the first",
        mimeType: "text/plain",
        size: 12,
        annotations: { audience: ["user", "assistant"], priority: 0, lastModified: "2025-01-12" },
        _meta: { seen: true },
        icons: [],
      },
      { type: "image", data: "", mimeType: "image/png", annotations: { priority: 1 } },
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
    [{ type: "resource" }, /an embedded resource without a "resource" object/],
    [{ type: "resource", resource: { text: "4" } }, /an embedded resource whose "uri" is not/],
    [{ type: "resource", resource: { uri: "file:///a" } }, /neither a "text" nor a base64/],
    [{ type: "resource", resource: { uri: "file:///a", blob: "aGk" } }, /nor a base64 "blob"/],
    [{ type: "text", text: "4", annotations: [] }, /"annotations" is not an object/],
    [{ type: "text", text: "4", _meta: "x" }, /a text item whose "_meta" is not an object/],
    [
      { type: "text", text: "4", annotations: { audience: ["system"] } },
      /audience is not a list of "user" and "assistant": \["system"\]/,
    ],
    [
      { type: "text", text: "4", annotations: { priority: 1.5 } },
      /priority is not a number from 0 to 1/,
    ],
    [{ type: "text", text: "4", annotations: { priority: "high" } }, /priority is not a number/],
    [{ type: "text", text: "4", annotations: { lastModified: 0 } }, /lastModified is not a string/],
    [{ type: "image", data: "aGk", mimeType: "image/png" }, /"data" is not base64/],
    [{ type: "resource_link", uri: "demo://a", name: "a", size: "1 KB" }, /"size" is not a number/],
    [{ type: "resource_link", uri: "demo://a", name: "a", title: 7 }, /"title" is not a string: 7/],
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

Deno.test("isBase64 takes RFC 4648's padded alphabet and nothing else", () => {
  for (const text of ["", "aGk=", "aGk/", "aA==", PNG]) assert.ok(isBase64(text), text);
  for (const text of ["aGk", "a", "aGk==", "aG=k", "aGk =", "aGk-", "====", "aGk=\n"]) {
    assert.ok(!isBase64(text), text);
  }
});

Deno.test("resourceContentsProblem checks a uri, and a text or a base64 blob", () => {
  assert.equal(resourceContentsProblem({ uri: "a", text: "", mimeType: "text/plain" }), undefined);
  assert.equal(resourceContentsProblem({ uri: "a", blob: PNG, _meta: {} }), undefined);
  // Both: a text resource, as the specification's union of the two allows.
  assert.equal(resourceContentsProblem({ uri: "a", text: "4", blob: "!" }), undefined);
  assert.match(resourceContentsProblem({ text: "4" })!, /"uri" is not a string: nothing/);
  assert.match(resourceContentsProblem({ uri: "a", text: "4", mimeType: 1 })!, /"mimeType"/);
  assert.match(resourceContentsProblem({ uri: "a", text: 4 })!, /neither a "text" nor/);
});

Deno.test("resourceProblem checks a listed resource, or a template", () => {
  assert.equal(resourceProblem({ uri: "a", name: "a", size: 3 }), undefined);
  assert.match(resourceProblem({ uri: "a" })!, /"name" is not a string: nothing/);
  assert.match(resourceProblem({ uriTemplate: "a/{x}", name: "a" })!, /"uri" is not a string/);
  const template = { uriTemplate: "a/{x}", name: "a" };
  assert.equal(resourceProblem(template, { template: true }), undefined);
  assert.match(
    resourceProblem({ ...template, description: 1 }, { template: true })!,
    /description/,
  );
  assert.match(
    resourceProblem({ uri: "a", name: "a", annotations: { priority: -1 } })!,
    /priority is not a number from 0 to 1/,
  );
});

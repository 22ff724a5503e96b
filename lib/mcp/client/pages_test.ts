import assert from "node:assert/strict";
import { ProtocolError } from "../shared/errors.ts";
import type { JsonObject } from "../shared/jsonrpc.ts";
import { collectPages, type ListKind } from "./pages.ts";
import { collectPrompts } from "./prompts.ts";
import { collectResources, collectResourceTemplates } from "./resources.ts";
import { collectTools } from "./tool_list.ts";

const NAMED: ListKind<{ name: string }> = {
  method: "things/list",
  field: "things",
  noun: "thing",
  problem: (item) => typeof (item as JsonObject)?.name === "string" ? undefined : "without a name",
  key: (item) => item.name,
};

/** A fetcher of `pages`, by cursor (the first under `""`), that counts its calls. */
function fetcher(pages: Record<string, JsonObject>) {
  const asked: (string | undefined)[] = [];
  return {
    asked,
    fetch: (cursor: string | undefined) => {
      asked.push(cursor);
      return Promise.resolve(pages[cursor ?? ""]);
    },
  };
}

const refuses = (promise: Promise<unknown>, pattern: RegExp) =>
  assert.rejects(
    promise,
    (error: Error) => error instanceof ProtocolError && pattern.test(error.message),
  );

Deno.test("collectPages follows every cursor, once, and stops where no cursor is given", async () => {
  const { asked, fetch } = fetcher({
    "": { things: [{ name: "a" }], nextCursor: "x" },
    x: { things: [], nextCursor: "y" },
    y: { things: [{ name: "b" }] },
  });
  assert.deepEqual(Object.keys(await collectPages(fetch, NAMED, 3)), ["a", "b"]);
  assert.deepEqual(asked, [undefined, "x", "y"]);
});

Deno.test("collectPages refuses what a list must not hold", async () => {
  const pages = (second: JsonObject) =>
    fetcher({ "": { things: [{ name: "a" }], nextCursor: "x" }, x: second }).fetch;
  await refuses(
    collectPages(pages({ things: [{ name: "a" }] }), NAMED, 5),
    /The thing a is advertised twice/,
  );
  await refuses(
    collectPages(pages({ things: [{}] }), NAMED, 5),
    /The things\/list result has a thing without a name: \{\}/,
  );
  await refuses(collectPages(pages({ stuff: [] }), NAMED, 5), /has no `things` list/);
  await refuses(
    collectPages(pages({ things: [], nextCursor: "x" }), NAMED, 5),
    /gave a cursor it had given before/,
  );
  await refuses(collectPages(pages({ things: [], nextCursor: 2 }), NAMED, 5), /or not a string: 2/);
  await refuses(
    collectPages(pages({ things: [], nextCursor: "z" }), NAMED, 2),
    /things\/list went on past 2 pages/,
  );
  // A long item is shown in part.
  const long = { things: [{ title: "x".repeat(500) }] };
  await refuses(collectPages(pages(long), NAMED, 5), /x{100,200}…$/);
});

Deno.test("every list is one of these: tools, resources, templates and prompts", async () => {
  const one = (page: JsonObject) => () => Promise.resolve(page);
  await refuses(
    collectTools(one({ tools: [{ name: "t", inputSchema: { type: "string" } }] }), 1),
    /tools\/list result has a tool whose inputSchema is not an object schema/,
  );
  await refuses(
    collectResources(one({ resources: [{ uri: "a://b" }] }), 1),
    /resources\/list result has a resource whose "name" is not a string/,
  );
  await refuses(
    collectResourceTemplates(one({ resourceTemplates: [{ uri: "a://{b}", name: "b" }] }), 1),
    /a resource template whose "uriTemplate" is not a string/,
  );
  await refuses(
    collectPrompts(one({ prompts: [{ name: "p" }, { name: "p" }] }), 1),
    /The prompt p is advertised twice/,
  );
  const resources = await collectResources(
    one({ resources: [{ uri: "a://1", name: "1" }, { uri: "a://2", name: "2" }] }),
    1,
  );
  assert.deepEqual(Object.keys(resources), ["a://1", "a://2"]);
});

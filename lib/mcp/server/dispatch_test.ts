import assert from "node:assert/strict";
import { handleLine, type ServerSpec } from "./dispatch.ts";
import { templateVariables } from "./resource.ts";

const LOGO = Uint8Array.of(0x89, 0x50, 0x4e, 0x47);

const LIBRARY: ServerSpec = {
  name: "library",
  version: "1.0.0",
  resources: [
    {
      uri: "library://rules",
      name: "rules",
      mimeType: "text/plain",
      read: () => ({ text: "Hush." }),
    },
    { uri: "library://logo", name: "logo", mimeType: "image/png", read: () => ({ bytes: LOGO }) },
    {
      uri: "library://broken",
      name: "broken",
      read: () => {
        throw new Error("the shelf fell over");
      },
    },
  ],
  resourceTemplates: [{
    uriTemplate: "library://books/{id}",
    name: "book",
    mimeType: "application/json",
    read: ({ id }) => (id === "1" ? { text: '{"title":"Middlemarch"}' } : undefined),
  }],
  prompts: [{
    name: "summarize",
    description: "Summarize a book",
    arguments: [{ name: "book", required: true }, { name: "style" }],
    get: ({ book, style = "plainly" }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Summarize ${book}, ${style}.` } }],
    }),
  }],
};

/** The reply `spec` gives to the request `method` with `params`. */
function ask(spec: ServerSpec, method: string, params?: object) {
  const request = { jsonrpc: "2.0", id: 1, method, ...(params === undefined ? {} : { params }) };
  return JSON.parse(handleLine(JSON.stringify(request), spec)!);
}

Deno.test("a server declares only the capabilities it has", () => {
  const init = { protocolVersion: "2025-06-18" };
  assert.deepEqual(ask(LIBRARY, "initialize", init).result.capabilities, {
    resources: {},
    prompts: {},
  });
  const tools = { name: "t", version: "1", tools: [] };
  assert.deepEqual(ask(tools, "initialize", init).result.capabilities, {
    tools: { listChanged: false },
  });
  const bare = { name: "bare", version: "1" };
  assert.deepEqual(ask(bare, "initialize", init).result.capabilities, {});
  // What it does not offer, it does not answer.
  for (const method of ["tools/list", "tools/call", "resources/list", "prompts/get"]) {
    assert.equal(ask(bare, method).error.code, -32601, method);
  }
  assert.equal(ask(LIBRARY, "tools/list").error.code, -32601);
});

Deno.test("resources/read gives a text, bytes as base64, and a template's resource", () => {
  assert.deepEqual(ask(LIBRARY, "resources/read", { uri: "library://rules" }).result, {
    contents: [{ uri: "library://rules", mimeType: "text/plain", text: "Hush." }],
  });
  const logo = ask(LIBRARY, "resources/read", { uri: "library://logo" }).result.contents[0];
  assert.deepEqual(Uint8Array.from(atob(logo.blob), (c) => c.charCodeAt(0)), LOGO);
  assert.equal(logo.text, undefined);
  assert.deepEqual(ask(LIBRARY, "resources/read", { uri: "library://books/1" }).result, {
    contents: [{
      uri: "library://books/1",
      mimeType: "application/json",
      text: '{"title":"Middlemarch"}',
    }],
  });
});

Deno.test("resources/read says what went wrong with the codes the specification gives", () => {
  assert.deepEqual(ask(LIBRARY, "resources/read", { uri: "library://books/2" }).error, {
    code: -32602,
    message: "Resource not found",
    data: { uri: "library://books/2" },
  });
  assert.equal(ask(LIBRARY, "resources/read", {}).error.code, -32602);
  const broken = ask(LIBRARY, "resources/read", { uri: "library://broken" }).error;
  assert.equal(broken.code, -32603);
  assert.match(broken.message, /Could not read library:\/\/broken: the shelf fell over/);
});

Deno.test("the lists are advertised without their functions, a page at a time", () => {
  const paged = { ...LIBRARY, pageSize: 2 };
  const first = ask(paged, "resources/list").result;
  assert.deepEqual(first.resources, [
    { uri: "library://rules", name: "rules", mimeType: "text/plain" },
    { uri: "library://logo", name: "logo", mimeType: "image/png" },
  ]);
  const second = ask(paged, "resources/list", { cursor: first.nextCursor }).result;
  assert.deepEqual(second, { resources: [{ uri: "library://broken", name: "broken" }] });
  assert.deepEqual(ask(LIBRARY, "resources/templates/list").result, {
    resourceTemplates: [{
      uriTemplate: "library://books/{id}",
      name: "book",
      mimeType: "application/json",
    }],
  });
  assert.deepEqual(ask(LIBRARY, "prompts/list").result.prompts, [{
    name: "summarize",
    description: "Summarize a book",
    arguments: [{ name: "book", required: true }, { name: "style" }],
  }]);
  // A cursor this server did not give, or one that is not a string, is invalid params.
  for (const cursor of ["Mw==", "nonsense", 2]) {
    assert.equal(ask(paged, "resources/list", { cursor }).error.code, -32602, String(cursor));
  }
});

Deno.test("prompts/get fills a prompt in, or refuses arguments that do not fit", () => {
  const got = ask(LIBRARY, "prompts/get", { name: "summarize", arguments: { book: "1" } }).result;
  assert.deepEqual(got, {
    description: "Summarize a book",
    messages: [{ role: "user", content: { type: "text", text: "Summarize 1, plainly." } }],
  });
  const refused = (args: unknown) =>
    ask(LIBRARY, "prompts/get", { name: "summarize", arguments: args }).error;
  assert.deepEqual(refused({}).data, ["missing book"]);
  assert.deepEqual(refused({ book: 1, mood: "x" }).data, [
    "book must be a string",
    "unexpected mood",
  ]);
  assert.deepEqual(refused([]).data, ["the arguments must be an object of strings"]);
  assert.equal(refused({}).code, -32602);
  assert.equal(
    ask(LIBRARY, "prompts/get", { name: "nothing" }).error.message,
    "Unknown prompt: nothing",
  );
});

Deno.test("a URI template matches whole parts, percent-decoded, and nothing else", () => {
  assert.deepEqual(templateVariables("a://{x}", "a://b%2Fc"), { x: "b/c" });
  assert.equal(templateVariables("a://{x}", "a://"), undefined);
  assert.equal(templateVariables("a://{x}", "a://%E0%A4%A"), undefined);
  assert.equal(templateVariables("a://{x}.json", "a://bXjson"), undefined);
  assert.deepEqual(templateVariables("a://{x}.json", "a://b.json"), { x: "b" });
  assert.throws(() => templateVariables("a://{x", "a://b"), /only \{name\} is read/);
  assert.throws(() => templateVariables("a://{?x}", "a://b"), TypeError);
});

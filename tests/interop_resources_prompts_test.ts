// Resources and prompts, both sides of the course's library over real stdio:
// the reading-room fixture (tests/fixtures/library_server.ts), built on the
// course's server side, read by the course's careful client and by the
// official SDK's client. If the SDK's client takes what the server sends, the
// server side is MCP; if the course's client takes it too, and refuses what
// it must before sending, the client side is.

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "../lib/mcp/client/client.ts";
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
import { assertGroupGone } from "./_helpers.ts";
import { BOOKS, LOGO } from "./fixtures/library_server.ts";

const LIBRARY = fileURLToPath(new URL("./fixtures/library_server.ts", import.meta.url));
const NO_TOOLS = fileURLToPath(new URL("./fixtures/no_tools.sh", import.meta.url));

const library = (
  ...args: string[]
) => [Deno.execPath(), "run", "--no-config", "--quiet", LIBRARY, ...args];

/** A careful client of `command` whose wire is kept; `body` runs, then it always closes. */
async function withClient(
  command: string[],
  body: (client: Client, wire: string[]) => Promise<void>,
): Promise<void> {
  const wire: string[] = [];
  const client = new Client(command, {
    allowed: ["echo"],
    timeoutMs: 30_000,
    transcript: (direction, line) => wire.push(`${direction} ${line}`),
  });
  try {
    await body(client, wire);
  } finally {
    await client.close();
  }
  assertGroupGone(client.pid);
}

/** The methods the client sent, in order. */
const sentMethods = (wire: string[]) =>
  wire.filter((line) => line.startsWith("> ")).map((line) => JSON.parse(line.slice(2)).method);

const bytesOf = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

Deno.test("the careful client lists and reads every resource, a page at a time", async () => {
  await withClient(library("--page-size", "1"), async (client, wire) => {
    await client.initialize();
    const resources = await client.listResources();
    assert.deepEqual(Object.keys(resources), [
      "library://rules",
      "library://logo.png",
      "library://catalogue",
    ]);
    assert.equal(resources["library://rules"].title, "House rules");
    assert.equal(sentMethods(wire).filter((method) => method === "resources/list").length, 3);

    assert.deepEqual(await client.readResource("library://rules"), [
      {
        uri: "library://rules",
        mimeType: "text/plain",
        text: "Quiet, please. Books go back on the trolley.",
      },
    ]);
    const [logo] = await client.readResource("library://logo.png");
    assert.ok("blob" in logo);
    assert.deepEqual(bytesOf(logo.blob), LOGO);
    const [catalogue] = await client.readResource("library://catalogue");
    assert.ok("text" in catalogue);
    assert.deepEqual(JSON.parse(catalogue.text), BOOKS);

    const templates = await client.listResourceTemplates();
    assert.deepEqual(Object.keys(templates), ["library://books/{id}"]);
    const [book] = await client.readResource("library://books/2");
    assert.ok("text" in book);
    assert.deepEqual(JSON.parse(book.text), BOOKS["2"]);
  });
});

Deno.test("a resource that is not there is the server's JSON-RPC error, and ends the connection", async () => {
  await withClient(library(), async (client) => {
    await client.initialize();
    await assert.rejects(client.readResource("library://books/9"), (error: Error) => {
      assert.ok(error instanceof ProtocolError, `${error}`);
      // -32002 at the version agreed (2025-06-18); 2026-07-28 says -32602.
      assert.equal(error.code, -32002);
      assert.deepEqual(error.data, { uri: "library://books/9" });
      return true;
    });
    // A refused reply leaves the connection untrusted, as for tools.
    await assert.rejects(client.readResource("library://rules"), ProtocolError);
  });
});

Deno.test("the careful client gets prompts, and refuses arguments before sending", async () => {
  await withClient(library("--page-size", "2"), async (client, wire) => {
    await client.initialize();
    await assert.rejects(client.getPrompt("greet"), /call listPrompts\(\) first/);
    const prompts = await client.listPrompts();
    assert.deepEqual(Object.keys(prompts), ["greet", "summarize", "describe-logo"]);
    assert.deepEqual(prompts.summarize.arguments?.map((argument) => argument.name), [
      "book",
      "style",
    ]);

    assert.deepEqual(await client.getPrompt("greet"), {
      description: "A greeting at the door",
      messages: [{ role: "user", content: { type: "text", text: "Hello!" } }],
    });
    const summary = await client.getPrompt("summarize", { book: "1", style: "in a line" });
    assert.equal(summary.description, "A summary of book 1");
    assert.deepEqual(summary.messages.map((message) => message.content.type), ["resource", "text"]);
    const image = await client.getPrompt("describe-logo");
    assert.deepEqual(image.messages.map((message) => message.role), ["user", "assistant"]);

    // Refused here, before sending: a required argument missing, a value that is not a string,
    // a prompt that is not listed.
    const sentBefore = sentMethods(wire).length;
    await assert.rejects(
      client.getPrompt("summarize", {}),
      /do not match its declared arguments: missing book/,
    );
    const notString = { book: 1 } as unknown as Record<string, string>;
    await assert.rejects(client.getPrompt("summarize", notString), /book must be a string/);
    await assert.rejects(client.getPrompt("recite"), /has not listed a prompt named "recite"/);
    assert.equal(sentMethods(wire).length, sentBefore, "nothing refused may reach the server");
    // The client was not refused anything by the server: it is still trusted.
    assert.equal((await client.getPrompt("greet")).messages.length, 1);
  });
});

Deno.test("an argument the prompt does not declare is sent, and this server refuses it", async () => {
  await withClient(library(), async (client) => {
    await client.initialize();
    await client.listPrompts();
    await assert.rejects(
      client.getPrompt("summarize", { book: "1", mood: "glad" }),
      (error: Error) => {
        assert.ok(error instanceof ProtocolError, `${error}`);
        assert.equal(error.code, -32602);
        assert.deepEqual(error.data, ["unexpected mood"]);
        return true;
      },
    );
  });
});

Deno.test("a server without tools is connected to, and listTools says it offers none", async () => {
  for (const command of [library("--no-tools"), ["sh", NO_TOOLS]]) {
    await withClient(command, async (client, wire) => {
      const init = await client.initialize();
      assert.equal((init.capabilities as { tools?: unknown }).tools, undefined);
      await assert.rejects(client.listTools(), (error: Error) => {
        assert.ok(error instanceof ProtocolError, `${error}`);
        assert.match(error.message, /The server offers no tools: its capabilities lack `tools`/);
        return true;
      });
      await assert.rejects(client.callTool("echo", { text: "hi" }), /offers no tools/);
      await assert.rejects(client.callToolResult("echo", { text: "hi" }), /offers no tools/);
      assert.deepEqual(sentMethods(wire), ["initialize", "notifications/initialized"]);
    });
  }
  // The bare server offers nothing at all: resources and prompts are refused the same way.
  await withClient(["sh", NO_TOOLS], async (client, wire) => {
    await client.initialize();
    await assert.rejects(client.listResources(), /offers no resources/);
    await assert.rejects(client.readResource("library://rules"), /offers no resources/);
    await assert.rejects(client.listResourceTemplates(), /offers no resources/);
    await assert.rejects(client.listPrompts(), /offers no prompts/);
    await assert.rejects(client.getPrompt("greet"), /offers no prompts/);
    assert.deepEqual(sentMethods(wire), ["initialize", "notifications/initialized"]);
  });
});

Deno.test("the SDK's client takes the course's resources and prompts as MCP", async () => {
  const [program, ...args] = library("--page-size", "2");
  const transport = new StdioClientTransport({ command: program, args, stderr: "pipe" });
  const client = new SdkClient({ name: "sdk-library-test", version: "1.0.0" });
  try {
    await client.connect(transport);
    assert.deepEqual(client.getServerCapabilities(), {
      tools: { listChanged: false },
      resources: {},
      prompts: {},
    });
    const first = await client.listResources();
    assert.deepEqual(first.resources.map((resource) => resource.uri), [
      "library://rules",
      "library://logo.png",
    ]);
    const second = await client.listResources({ cursor: first.nextCursor });
    assert.deepEqual(second.resources.map((resource) => resource.name), ["catalogue"]);
    assert.equal(second.nextCursor, undefined);

    const logo = await client.readResource({ uri: "library://logo.png" });
    const [blob] = logo.contents;
    assert.ok("blob" in blob);
    assert.deepEqual(bytesOf(blob.blob), LOGO);
    const book = await client.readResource({ uri: "library://books/3" });
    const [text] = book.contents;
    assert.ok("text" in text);
    assert.deepEqual(JSON.parse(text.text), BOOKS["3"]);
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.equal(resourceTemplates[0].uriTemplate, "library://books/{id}");

    const prompts = await client.listPrompts();
    assert.deepEqual(prompts.prompts.map((prompt) => prompt.name), ["greet", "summarize"]);
    const more = await client.listPrompts({ cursor: prompts.nextCursor });
    assert.deepEqual(more.prompts.map((prompt) => prompt.name), ["describe-logo"]);
    const summary = await client.getPrompt({ name: "summarize", arguments: { book: "2" } });
    assert.deepEqual(summary.messages.map((message) => message.content.type), ["resource", "text"]);
    const logoPrompt = await client.getPrompt({ name: "describe-logo" });
    assert.equal(logoPrompt.messages[0].content.type, "image");

    // The server's own refusals, as JSON-RPC errors the SDK throws.
    await assert.rejects(client.readResource({ uri: "library://books/9" }), /Resource not found/);
    await assert.rejects(
      client.getPrompt({ name: "summarize", arguments: {} }),
      /Invalid arguments/,
    );
    await assert.rejects(
      client.listResources({ cursor: "nonsense" }),
      /not a cursor this server gave/,
    );
  } finally {
    await client.close();
  }
});

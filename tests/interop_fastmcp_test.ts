// The course's careful client against a server written with FastMCP (the
// Python framework most MCP servers are written with), over stdio and over
// Streamable HTTP: nothing valid it sends is refused, and a tool's failure is
// a ToolError. And the official Python SDK's client against the course's own
// server. FastMCP and the SDK come from PyPI, pinned in tools/interop/, in
// the virtual environment `sh tools/setup.sh test` makes there.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "../lib/mcp/client/client.ts";
import { ToolError } from "../lib/mcp/shared/errors.ts";
import { assertGroupGone } from "./_helpers.ts";
import { freePort, listeningServer } from "./_listening.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const PYTHON = `${root}tools/interop/.venv/bin/python`;
const installed = await Deno.stat(PYTHON).then(() => true, () => false);
const SERVER = `${root}tests/fixtures/fastmcp_server.py`;
const TOOLS = ["describe", "refuse", "word_count"];

/** The three tools of the FastMCP server, called as a careful client calls them. */
async function callsThrough(client: Client<readonly string[] | URL>): Promise<void> {
  const init = await client.initialize();
  assert.equal((init.serverInfo as { name: string }).name, "fastmcp-fixture");
  assert.deepEqual(Object.keys(await client.listTools()).sort(), TOOLS);
  assert.equal(await client.callTool("word_count", { text: "vanilla stock needs review" }), "4");
  assert.deepEqual(
    JSON.parse(await client.callTool("describe", { flavor: "vanilla", tubs: 12 })),
    { flavor: "vanilla", tubs: 12, large: true },
  );
  await assert.rejects(
    client.callTool("refuse", { reason: "out of vanilla" }),
    (error: unknown) => error instanceof ToolError && /out of vanilla/.test(error.message),
  );
}

Deno.test({
  name: "the client works with a FastMCP server over stdio",
  ignore: !installed,
  fn: async () => {
    const client = new Client([PYTHON, SERVER], { allowed: TOOLS, timeoutMs: 60_000 });
    try {
      await callsThrough(client);
    } finally {
      await client.close();
    }
    assertGroupGone(client.pid);
  },
});

Deno.test({
  name: "the client works with a FastMCP server over Streamable HTTP",
  ignore: !installed,
  fn: async () => {
    const port = freePort();
    await using server = await listeningServer([PYTHON, SERVER, "http", String(port)], port);
    const client = new Client(server.url, { allowed: TOOLS, timeoutMs: 60_000 });
    try {
      await callsThrough(client);
    } finally {
      await client.close();
    }
  },
});

Deno.test({
  name: "the official Python SDK's client works with the course's grammar server",
  ignore: !installed,
  fn: async () => {
    const grammar = [Deno.execPath(), "run", "--quiet", `${root}servers/grammar.ts`];
    const { code, stdout, stderr } = await new Deno.Command(PYTHON, {
      args: [
        `${root}tests/fixtures/python_sdk_client.py`,
        JSON.stringify(grammar),
        "conjugate",
        JSON.stringify({ verb: "eat", tense: "past_simple", person: "3sg" }),
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    const seen = JSON.parse(new TextDecoder().decode(stdout));
    assert.ok(["2025-06-18", "2025-11-25"].includes(seen.protocolVersion), seen.protocolVersion);
    assert.deepEqual(seen.tools, [
      "check_subject_verb_agreement",
      "conjugate",
      "lookup_irregular_verb",
      "lookup_spanish",
    ]);
    assert.deepEqual({ isError: seen.isError, text: seen.text }, { isError: false, text: ["ate"] });
  },
});

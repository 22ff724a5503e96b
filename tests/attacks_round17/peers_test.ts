// Round 17 of the red team, second part: a hostile or careless peer against
// what changed in the library that day (a subscription opened again over
// Streamable HTTP, the server's keep-alive, its check of a model's message).
// A careless client of the course's HTTP server that asks many modern
// requests: each one's session stayed held by the server's own signal (a
// listener for its closing, never taken away), about 8 KB a request for as
// long as the server ran; measured in a process of its own with the
// collector open (tests/fixtures/round17_held_per_request.ts). And a stdio
// server that exits mid-subscription and is started again as a 2025-11-25
// one: the subscription sent again there ended with the server's "Method not
// found", where the client knows the version it agreed, which has no
// subscriptions; it ends naming it now, and nothing is left running. And a
// subscription closed by its caller while its stdio server is started again
// (the client still open): the client sent the subscription again to the new
// server all the same, then cancelled it, and the cancelled request's end,
// which no one heard, was an unhandled rejection that ends a Deno program.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "../../lib/mcp/client/client.ts";
import { ProtocolError } from "../../lib/mcp/shared/errors.ts";
import { MCP_VERSIONS } from "../../lib/mcp/shared/versions.ts";
import { assertGroupGone, commandsHolding } from "../_helpers.ts";
import { crashPeer, tapped } from "../_peers.ts";

Deno.test("the course's HTTP server holds nothing of a modern request once it is answered", async () => {
  const measure = fileURLToPath(import.meta.resolve("../fixtures/round17_held_per_request.ts"));
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "--v8-flags=--expose-gc", measure, "1500"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(success, new TextDecoder().decode(stderr));
  const perRequest = Number(new TextDecoder().decode(stdout).trim());
  // A request's session, held, is some 8 KB; what the heap's own noise leaves is under 1 KB.
  assert.ok(perRequest < 2048, `${perRequest} bytes held for each request answered`);
});

/** A shell word. */
const quoted = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

Deno.test("a subscription whose stdio server is started again as a 2025-11-25 one ends naming that version", async () => {
  const log = await Deno.makeTempFile();
  // Modern until it has crashed once (its log then holds a line), 2025-11-25 after.
  const [modern, legacy] = [crashPeer("modern", log), crashPeer("2025-11-25", log)]
    .map((command) => command.map(quoted).join(" "));
  const client = new Client(
    ["sh", "-c", `if [ -s ${quoted(log)} ]; then exec ${legacy}; else exec ${modern}; fi`],
    { versions: MCP_VERSIONS, allowed: ["crash", "pid"], timeoutMs: 20_000 },
  );
  const pids: number[] = [];
  try {
    await client.initialize();
    pids.push(client.pid);
    assert.equal(client.protocolVersion, "2026-07-28");
    await client.listTools();
    const subscription = await client.listen({ toolsListChanged: true });
    await assert.rejects(client.callTool("crash"), /exited with status 3/);
    await assert.rejects(
      subscription[Symbol.asyncIterator]().next(),
      (error: unknown) =>
        error instanceof ProtocolError && /2025-11-25/.test(error.message) &&
        /subscriptions\/listen/.test(error.message),
    );
    pids.push(client.pid);
    assert.equal(client.protocolVersion, "2025-11-25");
    assert.equal(await client.callTool("pid"), String(client.pid));
  } finally {
    await client.close();
    for (const { pid } of commandsHolding(log)) Deno.kill(pid, "SIGKILL");
    await Deno.remove(log);
  }
  for (const pid of pids) assertGroupGone(pid);
});

Deno.test("a subscription closed while its stdio server is started again is not sent again, and nothing rejects unheard", async () => {
  const [log, wire] = [await Deno.makeTempFile(), await Deno.makeTempFile()];
  const client = new Client(tapped(wire, crashPeer("modern", log)), {
    versions: MCP_VERSIONS,
    allowed: ["crash", "pid"],
    timeoutMs: 20_000,
  });
  const pids: number[] = [];
  try {
    await client.initialize();
    pids.push(client.pid);
    await client.listTools();
    const subscription = await client.listen({ toolsListChanged: true });
    await assert.rejects(client.callTool("crash"), /exited with status 3/);
    subscription.close(); // while the server is started again
    // Started again: a subscription sent again would have gone before this call.
    assert.equal(await client.callTool("pid"), await client.callTool("pid"));
    pids.push(client.pid);
    assert.notEqual(pids[1], pids[0], "the server was not started again");
    assert.equal((await subscription[Symbol.asyncIterator]().next()).done, true);
    const sent = Deno.readTextFileSync(wire).split("\n")
      .filter((line) => / > .*"subscriptions\/listen"/.test(line));
    assert.equal(sent.length, 1, "the closed subscription was sent again");
  } finally {
    await client.close();
    for (const { pid } of commandsHolding(log)) Deno.kill(pid, "SIGKILL");
    await Promise.all([Deno.remove(log), Deno.remove(wire)]);
  }
  for (const pid of pids) assertGroupGone(pid);
});

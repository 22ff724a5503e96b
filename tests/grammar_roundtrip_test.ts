// Lab 02's named tests (Block H of the seed), against the grammar server over
// real stdio: the handshake, the four tools, a ToolError that is not a
// ProtocolError, cleanup when the caller throws, the transcript, and that no
// grammar server outlives the suite.

import assert from "node:assert/strict";
import { Client, type ClientOptions } from "../lib/client.ts";
import { Connection } from "../lib/connection.ts";
import { ProtocolError, ToolError } from "../lib/errors.ts";
import { grammarCommand } from "../lib/course.ts";
import { readStat } from "../lib/process_group.ts";
import { roundTrips } from "../lib/round_trips.ts";
import { forwardStderr } from "../lib/stderr_forwarder.ts";
import { Transcript } from "../lib/transcript.ts";
import { unwrap } from "../lib/unwrap.ts";
import { assertGroupGone } from "./_helpers.ts";
import { fileURLToPath } from "node:url";

const TOOLS = [
  "check_subject_verb_agreement",
  "conjugate",
  "lookup_irregular_verb",
  "lookup_spanish",
];
const EAT = { verb: "eat", tense: "past_simple", person: "3sg" };

/** Every server these tests start, for the last test to check. */
const started: number[] = [];

/** A client of a new grammar server that may call all four tools. */
function grammarClient(options: ClientOptions = {}): Client {
  const client = new Client(grammarCommand(), { allowed: TOOLS, timeoutMs: 10_000, ...options });
  started.push(client.pid);
  return client;
}

/** A grammar client after the handshake and the tool list. */
async function readyClient(options: ClientOptions = {}): Promise<Client> {
  const client = grammarClient(options);
  try {
    await client.initialize();
    await client.listTools();
    return client;
  } catch (error) {
    await client.close();
    throw error;
  }
}

Deno.test("initialize returns the tools capability", async () => {
  await using client = grammarClient();
  const result = await client.initialize();
  assert.equal(result.protocolVersion, "2025-06-18");
  assert.deepEqual((result.capabilities as { tools: unknown }).tools, { listChanged: false });
});

Deno.test("initialize refuses a server whose capabilities lack tools", async () => {
  const script = fileURLToPath(new URL("./fixtures/no_tools.sh", import.meta.url));
  await using client = new Client(["sh", script], { allowed: TOOLS });
  await assert.rejects(client.initialize(), /offers no tools/);
  await assert.rejects(client.listTools(), /Call initialize\(\) before listTools\(\)/);
});

Deno.test("listTools returns exactly the four grammar tools, each with a schema", async () => {
  await using client = grammarClient();
  await client.initialize();
  const tools = await client.listTools();
  assert.deepEqual(Object.keys(tools).sort(), TOOLS);
  for (const tool of Object.values(tools)) assert.equal(tool.inputSchema.type, "object");
});

Deno.test("conjugate eat past_simple 3sg returns ate", async () => {
  await using client = await readyClient();
  assert.equal(await client.callTool("conjugate", EAT), "ate");
});

// The seed calls this test_call_with_invalid_args_raises_protocol_error, yet
// expects a ToolError: `run` passes the schema and fails the tool's own check.
Deno.test("conjugate run is a ToolError: in the schema's enum, outside the tool's scope", async () => {
  await using client = await readyClient();
  const { conjugate } = await client.listTools();
  const verbs = (conjugate.inputSchema.properties as { verb: { enum: string[] } }).verb.enum;
  assert.ok(verbs.includes("run"), "run must be in the verb enum for this to be a ToolError");
  await assert.rejects(client.callTool("conjugate", { ...EAT, verb: "run" }), (error: Error) => {
    assert.ok(error instanceof ToolError, `expected a ToolError, got ${error}`);
    assert.match(error.message, /run is outside this unit's verbs/);
    return true;
  });
  assert.equal(
    await client.callTool("conjugate", EAT),
    "ate",
    "a ToolError leaves the link usable",
  );
});

Deno.test("a verb outside the enum is a ProtocolError, and nothing is sent", async () => {
  const transcript = new Transcript();
  await using client = await readyClient({ transcript: transcript.record });
  await assert.rejects(
    client.callTool("conjugate", { ...EAT, verb: "fly" }),
    (error: Error) =>
      error instanceof ProtocolError && /\/verb must be equal to one of/.test(error.message),
  );
  assert.ok(!transcript.lines().some((line) => line.includes('"tools/call"')));
});

Deno.test("an unknown tool is a ProtocolError", async () => {
  await using client = await readyClient();
  await assert.rejects(client.callTool("not_a_tool"), (error: Error) => {
    assert.ok(error instanceof ProtocolError, `expected a ProtocolError, got ${error}`);
    assert.match(error.message, /has not advertised a tool named "not_a_tool"/);
    return true;
  });
});

Deno.test("a JSON-RPC error response is a ProtocolError that keeps its code", async () => {
  // Past the client's own check: the server itself answers an unknown tool with an error.
  const connection = new Connection(grammarCommand());
  started.push(connection.pid);
  try {
    await assert.rejects(
      connection.request("tools/call", { name: "not_a_tool", arguments: {} }),
      (error: Error) => error instanceof ProtocolError && error.code === -32602,
    );
  } finally {
    await connection.close();
  }
});

Deno.test("the server exits even when the block using the client throws", async () => {
  let pid = 0;
  await assert.rejects(async () => {
    await using client = await readyClient();
    pid = client.pid;
    await client.callTool("conjugate", EAT);
    throw new Error("the caller failed after a call");
  }, /the caller failed after a call/);
  assert.notEqual(pid, 0);
  assertGroupGone(pid);
});

Deno.test("the server exits 0 after a clean close", async () => {
  const client = await readyClient();
  await client.callTool("conjugate", EAT);
  const status = await client.close();
  assert.deepEqual({ code: status.code, signal: status.signal }, { code: 0, signal: null });
  assertGroupGone(client.pid);
});

Deno.test("the four calls give ate, comió and two objects once unwrapped", async () => {
  await using client = await readyClient();
  assert.equal(unwrap(await client.callTool("conjugate", EAT)), "ate");
  assert.equal(unwrap(await client.callTool("lookup_spanish", { english_form: "ate" })), "comió");
  assert.deepEqual(unwrap(await client.callTool("lookup_irregular_verb", { verb: "go" })), {
    verb: "go",
    irregular: true,
    past_simple: "went",
    past_participle: "gone",
  });
  const agreement = { subject: "he", verb_form: "go" };
  assert.deepEqual(unwrap(await client.callTool("check_subject_verb_agreement", agreement)), {
    subject: "he",
    verb_form: "go",
    agrees: false,
    expected: "goes",
  });
});

/** The transcript of the canonical flow: the handshake, the tool list and one call to each tool. */
async function canonicalTranscript(): Promise<Transcript> {
  const transcript = new Transcript();
  const client = await readyClient({ transcript: transcript.record });
  try {
    await client.callTool("conjugate", EAT);
    await client.callTool("lookup_spanish", { english_form: "ate" });
    await client.callTool("lookup_irregular_verb", { verb: "go" });
    await client.callTool("check_subject_verb_agreement", { subject: "he", verb_form: "go" });
  } finally {
    await client.close();
  }
  return transcript;
}

Deno.test("a transcript holds a complete handshake, tools/list and four tools/call round trips", async () => {
  const transcript = await canonicalTranscript();
  const exchanges = roundTrips(transcript.text());
  assert.deepEqual(exchanges.map(({ method, reply }) => [method, reply]), [
    ["initialize", "result"],
    ["notifications/initialized", undefined],
    ["tools/list", "result"],
    ...Array.from({ length: 4 }, () => ["tools/call", "result"]),
  ]);
  assert.equal(transcript.lines().length, 13);
  assert.ok(transcript.lines().every((line) => /^[<>] \{/.test(line)));
});

Deno.test("the canonical transcript is the same byte for byte on every run", async () => {
  const first = await canonicalTranscript();
  const second = await canonicalTranscript();
  assert.equal(first.text(), second.text());
});

Deno.test("the server's stderr lines are forwarded with a [server] prefix", async () => {
  const shown: string[] = [];
  const client = await readyClient({
    onStderrLine: forwardStderr({ write: (line) => shown.push(line) }),
  });
  await client.callTool("conjugate", EAT);
  await client.close();
  assert.deepEqual(shown, [
    "[server] grammar: ready with 4 tools",
    '[server] grammar: call conjugate {"verb":"eat","tense":"past_simple","person":"3sg"}',
    "[server] grammar: input ended, exiting",
  ]);
});

Deno.test("no grammar server process remains after the suite", () => {
  assert.ok(started.length > 0);
  for (const pid of started) assertGroupGone(pid);
  assert.deepEqual(grammarServersRunning(), [], "grammar servers are still running");
});

/** The live processes running this checkout's grammar server (zombies do not count). */
function grammarServersRunning(): number[] {
  const script = grammarCommand().at(-1)!;
  const running: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    const state = /^\d+$/.test(entry.name) ? readStat(entry.name)?.state : undefined;
    if (state === undefined || state === "Z" || state === "X") continue;
    try {
      const argv = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0");
      if (argv.includes(script)) running.push(Number(entry.name));
    } catch {
      // It ended while we looked.
    }
  }
  return running;
}

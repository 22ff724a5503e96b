// Lab 02's grammar server over real stdio, and the worked edition's client
// on it: the server's answers (judged by the course's careful client), the
// in-process server the autograder uses giving the same bytes as the process
// in either era, the flags that choose its era, the worked client passing its
// six named tests against the real process and giving the reference
// transcript of each era over either transport, and no grammar server
// outliving the suite.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client, type ClientOptions } from "../lib/mcp/client/client.ts";
import { Connection } from "../lib/mcp/client/connection.ts";
import { dualEraGrammarCommand, grammarCommand } from "../lib/course/course.ts";
import { ToolError } from "../lib/mcp/shared/errors.ts";
import { startInProcess } from "../lib/mcp/server/in_process_server.ts";
import { Transcript } from "../lib/mcp/client/transcript.ts";
import {
  LEGACY_REFERENCE_TRANSCRIPT,
  REFERENCE_TRANSCRIPT,
  transcriptDifferences,
} from "../lib/course/transcript_check.ts";
import { MCP_VERSIONS } from "../lib/mcp/shared/versions.ts";
import { spawnServer } from "../lib/mcp/client/spawn_server.ts";
import type { Transport } from "../lib/mcp/shared/transport.ts";
import { grammarInProcess } from "../servers/grammar_in_process.ts";
import { type NamedTest, runTest } from "../tools/grading/drivers/lab_02_tests.ts";
import { referenceModule } from "../tools/grading/scratch.ts";
import { UNITS } from "../tools/grading/units/mod.ts";
import { assertGroupGone } from "./_helpers.ts";

const TOOLS = [
  "check_subject_verb_agreement",
  "conjugate",
  "lookup_irregular_verb",
  "lookup_spanish",
];
const EAT = { verb: "eat", tense: "past_simple", person: "3sg" };

/** The worked edition's graded cells: its client's layers and its named tests. */
const source = await referenceModule(UNITS.get("lab-02")!, new URL("../", import.meta.url));
const worked = (await import(`data:application/typescript,${encodeURIComponent(source!)}`))
  .graded as Record<string, unknown>;
type WorkedClient = {
  connect(): Promise<Record<string, unknown>>;
  initialize(): Promise<Record<string, unknown>>;
  listTools(): Promise<{ name: string }[]>;
  callTool(name: string, args?: Record<string, unknown>): Promise<unknown>;
  close(): Promise<{ code: number; signal: string | null }>;
};
const McpClient = worked.McpClient as new (server: Transport, options?: object) => WorkedClient;

/** Every process these tests start (the careful client's, by pid; spawned ones by transport). */
const started: number[] = [];
const spawned: Transport[] = [];

function grammarProcess(command = grammarCommand()): Transport {
  const server = spawnServer(command);
  spawned.push(server);
  return server;
}

/** A careful client of a new grammar server that may call all four tools. */
function carefulClient(options: ClientOptions = {}): Client {
  const client = new Client(grammarCommand(), { allowed: TOOLS, timeoutMs: 10_000, ...options });
  started.push(client.pid);
  return client;
}

Deno.test("the grammar server answers initialize with the tools capability", async () => {
  await using client = carefulClient();
  const result = await client.initialize();
  assert.equal(result.protocolVersion, "2025-06-18");
  assert.deepEqual((result.capabilities as { tools: unknown }).tools, { listChanged: false });
});

Deno.test("the careful client connects to a server whose capabilities lack tools, and lists none", async () => {
  const script = fileURLToPath(new URL("./fixtures/no_tools.sh", import.meta.url));
  await using client = new Client(["sh", script], { allowed: TOOLS });
  await assert.rejects(client.listTools(), /Call initialize\(\) before listTools\(\)/);
  await client.initialize();
  await assert.rejects(client.listTools(), /The server offers no tools/);
});

Deno.test("the grammar server lists exactly four tools, each with an object schema", async () => {
  await using client = carefulClient();
  await client.initialize();
  const tools = await client.listTools();
  assert.deepEqual(Object.keys(tools).sort(), TOOLS);
  for (const tool of Object.values(tools)) assert.equal(tool.inputSchema.type, "object");
});

Deno.test("run is in the conjugate schema's enum, and the tool refuses it with isError", async () => {
  await using client = carefulClient();
  await client.initialize();
  const { conjugate } = await client.listTools();
  const verbs = (conjugate.inputSchema.properties as { verb: { enum: string[] } }).verb.enum;
  assert.ok(verbs.includes("run"), "run must be in the verb enum for this to be a ToolError");
  await assert.rejects(
    client.callTool("conjugate", { ...EAT, verb: "run" }),
    (error: Error) =>
      error instanceof ToolError && /run is outside this unit's verbs/.test(error.message),
  );
  assert.equal(
    await client.callTool("conjugate", EAT),
    "ate",
    "a ToolError leaves the link usable",
  );
});

Deno.test("the grammar server answers an unknown tool with a JSON-RPC error -32602", async () => {
  const connection = new Connection(grammarCommand());
  started.push(connection.pid);
  try {
    await assert.rejects(
      connection.request("tools/call", { name: "not_a_tool", arguments: {} }),
      (error: Error) => (error as { code?: number }).code === -32602,
    );
  } finally {
    await connection.close();
  }
});

Deno.test("the grammar server running in process writes the very bytes the process writes", async () => {
  const lines = [
    '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}',
    "not json",
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    '{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"conjugate","arguments":{"verb":"be","tense":"past_simple","person":"2pl"}}}',
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lookup_spanish","arguments":{"english_form":"xyz"}}}',
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope"}}',
    '{"jsonrpc":"2.0","id":4,"method":"no/such/method"}',
    "[1]",
  ];
  const real = await conversation(grammarProcess(), lines);
  const inProcess = await conversation(startInProcess(grammarInProcess()), lines);
  assert.deepEqual(inProcess, real);
  assert.equal(
    real.stdout.split("\n").length,
    9,
    "one answer for each request, none for the notification",
  );
});

/** A modern request's `_meta`, at `version`. */
const meta = (version: string) => ({
  "io.modelcontextprotocol/protocolVersion": version,
  "io.modelcontextprotocol/clientCapabilities": {},
});

/** What a grammar server writes (stdout, stderr) and how it exits, given `lines` and the end of its input. */
async function conversation(server: Transport, lines: readonly string[]) {
  const writer = server.writable.getWriter();
  await writer.write(new TextEncoder().encode(lines.map((line) => line + "\n").join("")));
  await writer.close();
  const [stdout, stderr] = await Promise.all([
    new Response(server.readable).text(),
    new Response(server.stderr).text(),
  ]);
  return { stdout, stderr, status: await server.status };
}

Deno.test("the grammar server of both eras in process writes the very replies its process writes", async () => {
  const lines = [
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "server/discover",
      params: { _meta: meta("2026-07-28") },
    }),
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "server/discover",
      params: { _meta: meta("2099-01-01") },
    }),
    JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "conjugate", arguments: EAT, _meta: meta("2026-07-28") },
    }),
    JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      method: "initialize",
      params: { protocolVersion: "2025-06-18" },
    }),
  ];
  // Each request is answered when it is done, so the order of the replies may differ.
  const sorted = (run: { stdout: string }) => run.stdout.trimEnd().split("\n").toSorted();
  const real = await conversation(grammarProcess(dualEraGrammarCommand()), lines);
  const inProcess = await conversation(
    startInProcess(grammarInProcess({ versions: MCP_VERSIONS })),
    lines,
  );
  assert.deepEqual(sorted(inProcess), sorted(real));
  assert.deepEqual([inProcess.stderr, inProcess.status], [real.stderr, real.status]);
  const replies = sorted(real).map((line) => JSON.parse(line));
  assert.deepEqual(replies.map((reply) => reply.id), [0, 1, 2, 3]);
  assert.deepEqual(replies[0].result.supportedVersions, [...MCP_VERSIONS]);
  assert.equal(replies[1].error.code, -32022);
  assert.equal(replies[2].result.content[0].text, "ate");
  assert.equal(replies[3].result.protocolVersion, "2025-06-18");
});

Deno.test("the grammar server's flags choose how it meets a probe: -32601, its list, or silence", async () => {
  const probe = JSON.stringify({
    jsonrpc: "2.0",
    id: 0,
    method: "server/discover",
    params: { _meta: meta("2026-07-28") },
  });
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18" },
  });
  const replies = async (command: string[]) =>
    (await conversation(grammarProcess(command), [probe, initialize])).stdout.trimEnd().split("\n")
      .map((line) => JSON.parse(line));
  const [refused] = await replies(grammarCommand());
  assert.equal(refused.error.code, -32601);
  const [listed] = await replies(grammarCommand({ versions: ["2025-11-25", "2025-06-18"] }));
  assert.deepEqual(listed.error.data, {
    supported: ["2025-11-25", "2025-06-18"],
    requested: "2026-07-28",
  });
  const silent = await replies(grammarCommand({ silentBeforeInitialize: true }));
  assert.deepEqual(silent.map((reply) => reply.id), [1], "only initialize is answered");
  const wrong = await conversation(
    grammarProcess(grammarCommand({ versions: ["1999-01-01"] })),
    [],
  );
  assert.equal(wrong.status.code, 2);
  assert.match(wrong.stderr, /names no version MCP has: 1999-01-01/);
});

Deno.test("the worked client passes its six named tests against the real grammar server", async () => {
  const connect = () => {
    const server = grammarProcess();
    return { client: new McpClient(server, { log: () => {} }), server };
  };
  const names = Object.keys(worked).filter((name) => name.startsWith("test"));
  assert.equal(names.length, 6);
  for (const name of names) {
    assert.deepEqual(await runTest(worked[name] as NamedTest, connect), {
      status: "passed",
      message: "",
    }, name);
  }
});

/** The worked client's canonical flow on `server`, as a transcript, and the server's exit. */
async function canonicalFlow(server: Transport) {
  const transcript = new Transcript();
  const shown: string[] = [];
  const client = new McpClient(server, {
    transcript: transcript.record,
    log: (line: string) => shown.push(line),
  });
  await client.connect();
  assert.equal((await client.listTools()).length, 4);
  const values = [
    await client.callTool("conjugate", EAT),
    await client.callTool("lookup_spanish", { english_form: "ate" }),
    await client.callTool("lookup_irregular_verb", { verb: "go" }),
    await client.callTool("check_subject_verb_agreement", { subject: "he", verb_form: "go" }),
  ];
  return { transcript: transcript.text(), values, status: await client.close(), shown };
}

Deno.test("the worked client's canonical flow gives the reference transcript of 2026-07-28, over a process or in process", async () => {
  const reference = await Deno.readTextFile(REFERENCE_TRANSCRIPT);
  const real = await canonicalFlow(grammarProcess(dualEraGrammarCommand()));
  const inProcess = await canonicalFlow(
    startInProcess(grammarInProcess({ versions: MCP_VERSIONS })),
  );
  assert.deepEqual(transcriptDifferences(real.transcript, reference), []);
  assert.equal(real.transcript, reference, "byte for byte");
  assert.deepEqual(inProcess, real);
  assert.deepEqual(real.values, [
    "ate",
    "comió",
    { verb: "go", irregular: true, past_simple: "went", past_participle: "gone" },
    { subject: "he", verb_form: "go", agrees: false, expected: "goes" },
  ]);
  assert.deepEqual(real.status, { code: 0, signal: null });
  assert.deepEqual(real.shown, [
    "[server] grammar: ready with 4 tools",
    '[server] grammar: call conjugate {"verb":"eat","tense":"past_simple","person":"3sg"}',
    '[server] grammar: call lookup_spanish {"english_form":"ate"}',
    '[server] grammar: call lookup_irregular_verb {"verb":"go"}',
    '[server] grammar: call check_subject_verb_agreement {"subject":"he","verb_form":"go"}',
    "[server] grammar: input ended, exiting",
  ]);
});

Deno.test("on a server of the handshake era the worked client's flow gives the legacy reference", async () => {
  const reference = await Deno.readTextFile(LEGACY_REFERENCE_TRANSCRIPT);
  const real = await canonicalFlow(grammarProcess());
  const inProcess = await canonicalFlow(startInProcess(grammarInProcess()));
  assert.equal(real.transcript, reference, "byte for byte");
  assert.deepEqual(inProcess, real);
  assert.match(reference, /^< .*"code":-32601.*\n> .*"method":"initialize"/m);
});

Deno.test("no grammar server these tests started remains", () => {
  assert.ok(started.length > 0 && spawned.length > 0);
  for (const pid of started) assertGroupGone(pid);
  assert.ok(spawned.every((server) => server.exited), "a spawned server has not exited");
});

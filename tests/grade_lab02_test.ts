// The grader on Lab 02's client and tests, re-run in the sandbox: the worked
// client and tests, and a differently written correct client, get full marks;
// every faulty client in the catalogue loses marks for the layer it breaks;
// and a test suite that passes a faulty client loses marks for that test.
// Each learner here is a module made from the worked edition's graded cells,
// changed in one place.

import assert from "node:assert/strict";
import { parseNotebook } from "../tools/editions/notebook.ts";
import { gradeLearner } from "../tools/grading/grade_learner.ts";
import { learnerModule } from "../tools/grading/scratch.ts";
import { loadHoldouts, UNITS } from "../tools/grading/units/mod.ts";

const scratch = await Deno.makeTempDir({ prefix: "grade-lab02-" });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));
const holdouts = await loadHoldouts();
const spec = UNITS.get("lab-02")!;
const WORKED = learnerModule(
  parseNotebook(
    await Deno.readTextFile(new URL("../solutions/lab-02.ipynb", import.meta.url)),
    "worked",
  ),
  spec,
);

/** Each graded name's marks for the module `source`, and the most it could get. */
async function marks(source: string): Promise<Map<string, [number, number]>> {
  const module = `${scratch}/${crypto.randomUUID()}.ts`;
  await Deno.writeTextFile(module, source);
  const learner = {
    name: module,
    submissions: [{ unit: "lab-02", code: { kind: "module" as const, path: module } }],
  };
  const [results] = await gradeLearner(learner, holdouts);
  const byName = new Map<string, [number, number]>();
  for (const test of results.tests) {
    const name = test.name.slice(0, test.name.indexOf(":"));
    const [score, max] = byName.get(name) ?? [0, 0];
    byName.set(name, [score + test.score, max + test.max_score]);
  }
  return byName;
}

/** `WORKED` with each `[from, to]` applied, failing when a `from` is not in it exactly once. */
function changed(...edits: [string, string][]): string {
  let source = WORKED;
  for (const [from, to] of edits) {
    assert.equal(source.split(from).length, 2, `not exactly once in the worked module: ${from}`);
    source = source.replace(from, to);
  }
  return source;
}

Deno.test("the worked client and tests get full marks, hidden cases included", async () => {
  const all = await marks(WORKED);
  assert.deepEqual([...all.keys()], spec.functions.map((fn) => fn.name));
  for (const [name, [score, max]] of all) assert.equal(score, max, name);
});

// The same layers written another way: the server's stdout split into frames
// by hand with splitFrames (and a refused frame turned into a ProtocolError),
// a tool's failure rejected rather than thrown, and a test that catches the
// error itself rather than with assert.rejects.
const ANOTHER_WAY = 'import { splitFrames } from "../lib/framing.ts";\n' + changed(
  [
    "    this.#frames = readFrames(server.readable);",
    `    this.#frames = (async function* () {
      let rest = new Uint8Array(0);
      for await (const chunk of server.readable) {
        let frames: Uint8Array[];
        try {
          [frames, rest] = splitFrames(new Uint8Array([...rest, ...chunk]), 65536);
        } catch (error) {
          throw new ProtocolError(\`a frame the framing refused: \${(error as Error).message}\`);
        }
        if (frames.length > 0) yield frames;
      }
    })();`,
  ],
  [
    "    if (result.isError === true) throw new ToolError(first.text);\n    return unwrap(first.text);",
    "    return result.isError === true\n      ? Promise.reject(new ToolError(first.text))\n      : unwrap(first.text);",
  ],
  [
    '  await assert.rejects(client.callTool("conjugate", { ...ATE, verb: "run" }), ToolError);',
    `  try {
    await client.callTool("conjugate", { ...ATE, verb: "run" });
  } catch (error) {
    assert.ok(error instanceof ToolError, \`a ToolError, not \${error}\`);
    return;
  }
  assert.fail("run was not refused");`,
  ],
);

Deno.test("a client and tests written another way get full marks too", async () => {
  for (const [name, [score, max]] of await marks(ANOTHER_WAY)) assert.equal(score, max, name);
});

/** Faulty clients: the layer that must lose marks, and the edits that break it. */
const FAULTY_CLIENTS: Record<string, [string, ...[string, string][]]> = {
  "stderr never shown": ["ServerLink", [
    "      for (const line of lines) this.log(`[server] ${line}`);",
    "",
  ]],
  "stderr shown without its mark": [
    "ServerLink",
    ["this.log(`[server] ${line}`);", "this.log(line);"],
  ],
  "a last line without a newline lost": [
    "ServerLink",
    ['    if (rest !== "") this.log(`[server] ${rest}`);', ""],
  ],
  "no kill after the grace period": ["ServerLink", ["      this.server.kill();\n", ""]],
  "the grace period option ignored": [
    "ServerLink",
    ["const graceMs = this.options.graceMs ?? GRACE_MS;", "const graceMs = GRACE_MS;"],
  ],
  "close does not wait for the last stderr line": [
    "ServerLink",
    ["    await this.#stderrShown;\n", ""],
  ],
  "a non-zero exit not logged": [
    "ServerLink",
    ["    if (status.code !== 0) this.log(`the server exited with code ${status.code}`);", ""],
  ],
  "killed at once, with no grace period": [
    "ServerLink",
    ["    const exited = await Promise.race([", "    const exited = false && await Promise.race(["],
  ],
  "ids from 1": ["RpcLink", ["  #nextId = 0;", "  #nextId = 1;"]],
  "no params when there are none": [
    "RpcLink",
    [
      '    await this.#send({ jsonrpc: "2.0", id, method, params });',
      '    await this.#send({ jsonrpc: "2.0", id, method, ...(Object.keys(params).length ? { params } : {}) });',
    ],
  ],
  "a notification taken for the reply": [
    "RpcLink",
    [
      '      if (!("method" in message)) return correlate(id, message);',
      "      return correlate(id, message as JsonRpcResponse);",
    ],
  ],
  "a request from the server skipped": [
    "RpcLink",
    ['      if ("id" in message) {', '      if ("id" in message && false) {'],
  ],
  "one read taken as one message": [
    "RpcLink",
    ["      this.#unread = read.value;", "      this.#unread = read.value.slice(0, 1);"],
  ],
  "received lines missing from the transcript": [
    "RpcLink",
    ['    this.options.transcript?.("<", decoder.decode(frame));', ""],
  ],
  "any protocol version accepted": [
    "HandshakeClient",
    ["    if (result.protocolVersion !== PROTOCOL_VERSION) {", "    if (false) {"],
  ],
  "a server without tools accepted": [
    "HandshakeClient",
    [
      "!isObject(result.capabilities) || !isObject(result.capabilities.tools)",
      "!isObject(result.capabilities)",
    ],
  ],
  "a refused server told that the session started": [
    "HandshakeClient",
    ['    await this.notify("notifications/initialized");\n', ""],
    [
      "    if (result.protocolVersion !== PROTOCOL_VERSION) {",
      '    await this.notify("notifications/initialized");\n    if (result.protocolVersion !== PROTOCOL_VERSION) {',
    ],
  ],
  "capabilities not kept": [
    "HandshakeClient",
    ["    this.serverCapabilities = result.capabilities;", ""],
  ],
  "the old protocol version": [
    "HandshakeClient",
    ['const PROTOCOL_VERSION = "2025-06-18";', 'const PROTOCOL_VERSION = "2024-11-05";'],
  ],
  "the whole tool kept, not its schema": [
    "ListingClient",
    [
      "this.toolSchemas.set(tool.name, tool.inputSchema);",
      "this.toolSchemas.set(tool.name, tool);",
    ],
  ],
  "any tools/list answer accepted": ["ListingClient", ["    if (!valid) {", "    if (false) {"]],
  "arguments never checked": [
    "McpClient",
    ["    const problems = schemaProblems(schema, args);", "    const problems: string[] = [];"],
  ],
  "an unknown tool sent anyway": [
    "McpClient",
    ["    if (schema === undefined) {", "    if (false) {"],
    [
      "    const problems = schemaProblems(schema, args);",
      "    const problems = schema ? schemaProblems(schema, args) : [];",
    ],
  ],
  "a tool's failure returned as a value": [
    "McpClient",
    ["    if (result.isError === true) throw new ToolError(first.text);", ""],
  ],
  "a tool's failure called a ProtocolError": [
    "McpClient",
    ["throw new ToolError(first.text);", "throw new ProtocolError(first.text);"],
  ],
  "the text never unwrapped": [
    "McpClient",
    ["    return unwrap(first.text);", "    return first.text;"],
  ],
  "a result without text read anyway": [
    "McpClient",
    [
      '    if (!isObject(first) || first.type !== "text" || typeof first.text !== "string") {',
      "    if (false) {",
    ],
  ],
};

Deno.test("every faulty client in the catalogue loses marks for the layer it breaks", async (t) => {
  for (const [label, [layer, ...edits]] of Object.entries(FAULTY_CLIENTS)) {
    await t.step(label, async () => {
      const [score, max] = (await marks(changed(...edits))).get(layer)!;
      assert.ok(score < max, `${label}: ${layer} got full marks (${score}/${max})`);
    });
  }
});

/** Weak tests: the test that must lose marks, and the edits that weaken it. */
const WEAK_TESTS: Record<string, [string, ...[string, string][]]> = {
  "an initialize test that checks nothing": [
    "testInitializeReturnsToolsCapability",
    ["  assert.ok(isObject(result.capabilities) && isObject(result.capabilities.tools));\n", ""],
  ],
  "a list test that only counts": [
    "testListToolsReturnsFour",
    [
      "  assert.deepEqual(tools.map((tool) => tool.name).sort(), GRAMMAR_TOOLS);",
      "  assert.equal(tools.length, 4);",
    ],
  ],
  "an ate test that looks for the letters anywhere": [
    "testCallConjugateReturnsAte",
    [
      '  assert.equal(await client.callTool("conjugate", ATE), "ate");',
      '  assert.ok(JSON.stringify(await client.callTool("conjugate", ATE)).includes("ate"));',
    ],
  ],
  "an out-of-scope test that takes any error": [
    "testCallOutOfScopeRaisesToolError",
    [
      '  await assert.rejects(client.callTool("conjugate", { ...ATE, verb: "run" }), ToolError);',
      '  await assert.rejects(client.callTool("conjugate", { ...ATE, verb: "run" }));',
    ],
  ],
  "an unknown-tool test that takes any error": [
    "testUnknownToolRaisesProtocolError",
    [
      '  await assert.rejects(client.callTool("not_a_tool"), ProtocolError);',
      '  await assert.rejects(client.callTool("not_a_tool"));',
    ],
  ],
  "a cleanup test that never looks at the server": [
    "testClientCleansUpOnException",
    ["  assert.equal(server.exited, true);\n", ""],
  ],
  "a cleanup test that closes in finally, not with await using": [
    "testClientCleansUpOnException",
    [
      "    await using held = client;\n    await held.initialize();",
      "    await client.initialize();",
    ],
    ["  }, /the caller failed/);", "  }, /the caller failed/).finally(() => client.close());"],
  ],
  "a test that always fails": [
    "testCallConjugateReturnsAte",
    ['  assert.equal(await client.callTool("conjugate", ATE), "ate");', '  assert.fail("no");'],
  ],
};

Deno.test("a test that passes a faulty client, or fails a working one, loses marks", async (t) => {
  for (const [label, [test, ...edits]] of Object.entries(WEAK_TESTS)) {
    await t.step(label, async () => {
      const all = await marks(changed(...edits));
      const [score, max] = all.get(test)!;
      assert.ok(score < max, `${label}: ${test} got full marks (${score}/${max})`);
      assert.deepEqual(
        all.get("McpClient")![0],
        all.get("McpClient")![1],
        "the client kept its marks",
      );
    });
  }
});

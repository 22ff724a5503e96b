// Lab 01's cases, visible and hidden, against the course's reference server
// side: the handshake's against lib/mcp/server/dispatch.ts, today's against
// the library's dual-era ServerSession. Every expected reply is what the rules
// the notebook teaches give, which are the specification's, and the library
// gives each of them; the reply shape compares what it should.

import assert from "node:assert/strict";
import { CASES, replyShape, SUPPORTED } from "../cases/lab_01.ts";
import { HOLDOUTS } from "../holdouts/lab_01.ts";
import { gradeCases } from "../lib/grading/grading.ts";
import { isObject } from "../lib/mcp/shared/jsonrpc.ts";
import { isModernRequest } from "../lib/mcp/shared/meta.ts";
import { handleLine, negotiateVersion } from "../lib/mcp/server/dispatch.ts";
import { ServerSession } from "../lib/mcp/server/session.ts";
import { stdioServerTransport } from "../lib/mcp/server/stdio_server.ts";
import { GRAMMAR_TOOLS } from "../lib/course/grammar_tools.ts";

const GRAMMAR = { name: "grammar", version: "1.0.0", tools: GRAMMAR_TOOLS };

/** Whether `line` is a request of today's protocol: its _meta names a version, or it discovers. */
function isToday(line: string): boolean {
  try {
    const message = JSON.parse(line);
    return isObject(message) && isModernRequest(message.method, message.params);
  } catch {
    return false;
  }
}

/** The library's dual-era server's reply to `line`, in a session of its own. */
async function libraryReply(line: string): Promise<string | undefined> {
  let written = "";
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => void (written += new TextDecoder().decode(chunk)),
  });
  const input = ReadableStream.from([new TextEncoder().encode(line + "\n")]);
  const spec = { ...GRAMMAR, versions: SUPPORTED, cache: { ttlMs: 60_000, cacheScope: "public" } };
  await new ServerSession(spec as never, stdioServerTransport({ input, output })).done;
  return written === "" ? undefined : written.trimEnd();
}

Deno.test("the reference server side passes every case of Lab 01, hidden ones included", async () => {
  const all = [...CASES.handleMessage, ...HOLDOUTS.handleMessage];
  const legacy = all.filter((c) => !isToday(c.args[0] as string));
  const today = all.filter((c) => isToday(c.args[0] as string));
  const replies = new Map<string, string | undefined>();
  for (const c of today) replies.set(c.args[0] as string, await libraryReply(c.args[0] as string));
  const rows = [
    ...gradeCases(negotiateVersion, [...CASES.negotiateVersion, ...HOLDOUTS.negotiateVersion]),
    ...gradeCases((line: string) => handleLine(line, GRAMMAR), legacy, { normalize: replyShape }),
    ...gradeCases((line: string) => replies.get(line), today, { normalize: replyShape }),
  ];
  const failed = rows.filter((row) => row.status !== "PASS").map((row) => row.case);
  assert.deepEqual(failed, []);
  assert.ok(today.length >= 30, `${today.length} cases of today`);
});

Deno.test("every case label is used once per function", () => {
  for (const name of ["negotiateVersion", "handleMessage"] as const) {
    const labels = [...CASES[name], ...HOLDOUTS[name]].map((c) => c.label);
    assert.equal(new Set(labels).size, labels.length, name);
  }
});

Deno.test("the reply shape keeps what a client relies on", () => {
  // An error's words are the server's; its code, id and jsonrpc are compared.
  assert.deepEqual(
    replyShape('{"jsonrpc":"2.0","id":"7","error":{"code":-32602,"message":"Unknown tool: x"}}'),
    { jsonrpc: "2.0", id: "7", error: { code: -32602 } },
  );
  // An error without a message text keeps what it has, so it fails.
  assert.deepEqual(replyShape('{"jsonrpc":"2.0","id":1,"error":{"code":-32602}}'), {
    jsonrpc: "2.0",
    id: 1,
    error: { code: -32602, message: undefined },
  });
  // A result without isError is a success; the words of a failure are not compared.
  assert.deepEqual(
    replyShape('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ate"}]}}'),
    { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "ate" }], isError: false } },
  );
  // A result of today keeps its resultType, whether it names its server, and a list its hints.
  assert.deepEqual(
    replyShape(JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      result: {
        tools: [],
        resultType: "complete",
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "g", version: "1" } },
        ttlMs: -1,
        cacheScope: "public",
      },
    })),
    {
      jsonrpc: "2.0",
      id: 2,
      result: { tools: [], resultType: "complete", serverNamed: true, cacheHints: false },
    },
  );
  // A reply spread over lines, or one that is not text, cannot be framed.
  assert.throws(() => replyShape(JSON.stringify({ jsonrpc: "2.0" }, null, 2)), /one line/);
  assert.throws(() => replyShape({ jsonrpc: "2.0", id: 1, result: {} }), /not object/);
  assert.throws(() => replyShape("ok then"), /must be JSON/);
});

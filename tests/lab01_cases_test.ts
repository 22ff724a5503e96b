// Lab 01's cases, visible and hidden, against the course's reference server
// side (lib/mcp/server/dispatch.ts): every expected reply is what the rules the
// notebook teaches give, and the reply shape compares what it should.

import assert from "node:assert/strict";
import { CASES, replyShape } from "../cases/lab_01.ts";
import { HOLDOUTS } from "../holdouts/lab_01.ts";
import { gradeCases } from "../lib/grading/grading.ts";
import { handleLine, negotiateVersion } from "../lib/mcp/server/dispatch.ts";
import { GRAMMAR_TOOLS } from "../lib/course/grammar_tools.ts";

const GRAMMAR = { name: "grammar", version: "1.0.0", tools: GRAMMAR_TOOLS };

Deno.test("the reference server side passes every case of Lab 01, hidden ones included", () => {
  const rows = [
    ...gradeCases(negotiateVersion, [...CASES.negotiateVersion, ...HOLDOUTS.negotiateVersion]),
    ...gradeCases((line: string) => handleLine(line, GRAMMAR), [
      ...CASES.handleMessage,
      ...HOLDOUTS.handleMessage,
    ], { normalize: replyShape }),
  ];
  assert.deepEqual(rows.filter((row) => row.status !== "PASS"), []);
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
  // A reply spread over lines, or one that is not text, cannot be framed.
  assert.throws(() => replyShape(JSON.stringify({ jsonrpc: "2.0" }, null, 2)), /one line/);
  assert.throws(() => replyShape({ jsonrpc: "2.0", id: 1, result: {} }), /not object/);
  assert.throws(() => replyShape("ok then"), /must be JSON/);
});

import assert from "node:assert/strict";
import { answerFor } from "./answer.ts";
import { ProtocolError } from "../shared/errors.ts";
import type { JsonRpcResponse } from "../shared/jsonrpc.ts";

const reply = (id: string | number | null, result = { ok: true }): JsonRpcResponse =>
  id === null
    ? { jsonrpc: "2.0", id, error: { code: -32700, message: "Parse error" } }
    : { jsonrpc: "2.0", id, result };

Deno.test("answerFor returns the result of the reply to the waiting request", () => {
  assert.deepEqual(answerFor(7, reply(7, { ok: true })), { ok: true });
  assert.deepEqual(answerFor("req-1", reply("req-1")), { ok: true });
});

Deno.test("answerFor refuses a reply to another request", () => {
  assert.throws(() => answerFor(2, reply(1)), /id 1 does not match the request's id 2/);
});

Deno.test("answerFor never takes the string '1' for the number 1, or the reverse", () => {
  assert.throws(() => answerFor(1, reply("1")), ProtocolError);
  assert.throws(() => answerFor("1", reply(1)), ProtocolError);
});

Deno.test("answerFor turns an error response into a ProtocolError with its code", () => {
  const message: JsonRpcResponse = {
    jsonrpc: "2.0",
    id: 4,
    error: { code: -32602, message: "Unknown tool: nope", data: { tool: "nope" } },
  };
  assert.throws(() => answerFor(4, message), (error) => {
    assert.ok(error instanceof ProtocolError);
    assert.equal(error.code, -32602);
    assert.deepEqual(error.data, { tool: "nope" });
    assert.match(error.message, /Unknown tool: nope/);
    return true;
  });
  assert.throws(() => answerFor(4, reply(null)), /id null does not match/);
});

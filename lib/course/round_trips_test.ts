import assert from "node:assert/strict";
import { roundTrips } from "./round_trips.ts";

Deno.test("roundTrips marks an error reply, and leaves out the server's own messages", () => {
  const text = [
    '> {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}',
    '< {"jsonrpc":"2.0","method":"notifications/message","params":{}}',
    '< {"jsonrpc":"2.0","id":"s1","method":"ping"}',
    '> {"jsonrpc":"2.0","id":"s1","result":{}}',
    '< {"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown tool: x"}}',
    "",
  ].join("\n");
  assert.deepEqual(roundTrips(text), [{ method: "tools/call", id: 1, reply: "error" }]);
});

Deno.test("roundTrips keeps the first reply to an id, not a late copy", () => {
  const text = [
    '> {"jsonrpc":"2.0","id":1,"method":"ping"}',
    '< {"jsonrpc":"2.0","id":1,"result":{}}',
    '< {"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"late"}}',
  ].join("\n");
  assert.deepEqual(roundTrips(text), [{ method: "ping", id: 1, reply: "result" }]);
});

Deno.test("roundTrips refuses a line without a direction mark, naming it", () => {
  assert.throws(
    () => roundTrips('> {"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0"}'),
    (error: Error) => error instanceof SyntaxError && /line 2/.test(error.message),
  );
  assert.throws(() => roundTrips("> not json"), SyntaxError);
});

Deno.test("roundTrips refuses a line that is JSON but not JSON-RPC 2.0, saying why", () => {
  assert.throws(
    () => roundTrips('< {"jsonrpc":"1.0","id":1,"result":{}}'),
    (error: Error) =>
      error instanceof SyntaxError && /line 1: Expected "jsonrpc": "2.0"/.test(error.message),
  );
});

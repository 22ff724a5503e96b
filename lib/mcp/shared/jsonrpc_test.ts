import assert from "node:assert/strict";
import { ProtocolError } from "./errors.ts";
import { encodeMessage, parseMessage } from "./jsonrpc.ts";

const frame = (text: string) => new TextEncoder().encode(text);

Deno.test("parseMessage reads requests, notifications and both kinds of response", () => {
  const cases = [
    '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    '{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x"}}',
    '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}',
    '{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}',
    '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
    '{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"nope","data":[1]}}',
  ];
  for (const text of cases) assert.deepEqual(parseMessage(frame(text)), JSON.parse(text));
});

const REFUSED: [string, Uint8Array, RegExp][] = [
  ["invalid UTF-8", new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), /not valid UTF-8/],
  ["text that is not JSON", frame("starting up..."), /not JSON/],
  ["a JSON string", frame('"hello"'), /not an object/],
  ["null", frame("null"), /not an object/],
  ["a batch", frame('[{"jsonrpc":"2.0","id":1,"result":{}}]'), /batch/],
  ["jsonrpc 1.0", frame('{"jsonrpc":"1.0","id":1,"result":{}}'), /"jsonrpc": "2.0", got "1.0"/],
  ["no jsonrpc", frame('{"id":1,"result":{}}'), /got nothing/],
  ["result and error", frame('{"jsonrpc":"2.0","id":1,"result":{},"error":{}}'), /both/],
  ["neither result nor error", frame('{"jsonrpc":"2.0","id":1}'), /no method, result or error/],
  ["an object id", frame('{"jsonrpc":"2.0","id":{},"result":{}}'), /id must be/],
  ["a fractional id", frame('{"jsonrpc":"2.0","id":1.5,"result":{}}'), /id must be/],
  ["a boolean request id", frame('{"jsonrpc":"2.0","id":true,"method":"ping"}'), /id must be/],
  ["a null result id", frame('{"jsonrpc":"2.0","id":null,"result":{}}'), /id must be/],
  ["a result that is not an object", frame('{"jsonrpc":"2.0","id":1,"result":4}'), /"result"/],
  ["an error without a code", frame('{"jsonrpc":"2.0","id":1,"error":{"message":"x"}}'), /code/],
  ["a method that is not a string", frame('{"jsonrpc":"2.0","method":5}'), /"method"/],
  ["params that are not an object", frame('{"jsonrpc":"2.0","method":"x","params":3}'), /params/],
];

for (const [label, input, message] of REFUSED) {
  Deno.test(`parseMessage refuses ${label}`, () => {
    assert.throws(() => parseMessage(input), (error) => {
      assert.ok(error instanceof ProtocolError);
      assert.match(error.message, message);
      return true;
    });
  });
}

Deno.test("parseMessage quotes at most 80 characters of a bad frame", () => {
  assert.throws(() => parseMessage(frame("x".repeat(5000))), (error: Error) => {
    assert.ok(error.message.length < 200);
    return true;
  });
});

Deno.test("encodeMessage writes one compact line", () => {
  const bytes = encodeMessage({ jsonrpc: "2.0", id: 1, method: "ping", params: { a: "b\nc" } });
  const text = new TextDecoder().decode(bytes);
  assert.equal(text, '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"b\\nc"}}\n');
  assert.equal(text.indexOf("\n"), text.length - 1);
});

import assert from "node:assert/strict";
import { RawLink } from "./raw_link.ts";
import { ProtocolError, TimeoutError } from "../mcp/shared/errors.ts";
import { liveMembers } from "../mcp/client/process_group.ts";

/** A server that reads one line, then runs `then` (a shell script). */
const after = (then: string) => ["sh", "-c", `read line; ${then}`];
const request = { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "t" } };

Deno.test("RawLink passes over a notification, and keeps it on the wire", async () => {
  await using link = new RawLink(after(
    `echo '{"jsonrpc":"2.0","method":"notifications/message","params":{}}'; ` +
      `echo '{"jsonrpc":"2.0","id":4,"result":{}}'; sleep 30`,
  ));
  assert.deepEqual(await link.send(request), { jsonrpc: "2.0", id: 4, result: {} });
  assert.deepEqual(link.wire.map(({ direction }) => direction), [">", "<", "<"]);
});

Deno.test("RawLink refuses a reply to another id", async () => {
  await using link = new RawLink(after(`echo '{"jsonrpc":"2.0","id":5,"result":{}}'; sleep 30`));
  await assert.rejects(link.send(request), ProtocolError, "A reply to id 5 came while request 4");
});

Deno.test("RawLink says when the server is gone before it answers", async () => {
  await using link = new RawLink(after("exit 3"));
  await assert.rejects(link.send(request), ProtocolError, "exited with status 3");
});

Deno.test("RawLink gives up on a server that never answers, and ends it", async () => {
  const link = new RawLink(after("sleep 30"), { timeoutMs: 100 });
  await assert.rejects(link.send(request), TimeoutError, "had no reply within 100 ms");
  await link.close();
  assert.deepEqual(liveMembers(link.pid) ?? [], []);
});

Deno.test("RawLink sends nothing that is not a JSON object", async () => {
  await using link = new RawLink(after("sleep 30"));
  await assert.rejects(link.send(undefined as never), TypeError, "not undefined");
  await assert.rejects(link.send({ id: 1n } as never), TypeError);
  assert.deepEqual(link.wire, []);
});

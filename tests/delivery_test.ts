// The delivery server, through the careful client: what it advertises is the
// schema of the changed-constraint task, and what breaks it never leaves.

import assert from "node:assert/strict";
import { Client } from "../lib/mcp/client/client.ts";
import { deliveryCommand, freshLog, serverCalls } from "../lib/course/course.ts";
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
import { transferProblems } from "../lib/mcp/shared/transfer_problems.ts";

Deno.test("record_delivery records valid arguments and refuses the rest before sending", async () => {
  const log = await freshLog("test-delivery");
  await using client = new Client(deliveryCommand(log), { allowed: ["record_delivery"] });
  await client.initialize();
  const { record_delivery } = await client.listTools();
  const schema = record_delivery.inputSchema;
  assert.deepEqual(schema.required, ["order_id", "tubs"]);
  assert.equal(schema.additionalProperties, false);

  const refused = [
    { order_id: "A-1043" },
    { order_id: "A-1043", tubs: "20" },
    {
      order_id: "A-1043",
      tubs: true,
    },
    { order_id: "A-1043", tubs: 20, price: 900 },
    { tubs: 2.5, note: "x" },
  ];
  for (const args of refused) {
    assert.notDeepEqual(transferProblems(schema, args), []);
    await assert.rejects(client.callTool("record_delivery", args), ProtocolError);
  }
  assert.deepEqual(await serverCalls(log), []);

  const valid = { order_id: "A-1043", tubs: 20 };
  assert.deepEqual(transferProblems(schema, valid), []);
  assert.equal(
    await client.callTool("record_delivery", valid),
    "recorded 20 tubs for order A-1043",
  );
  assert.deepEqual(await serverCalls(log), [{ name: "record_delivery", arguments: valid }]);
});

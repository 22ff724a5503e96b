// A user's answer that does not fit the server's form is never sent: the
// server's question is answered with -32603 and the caller learns why, by
// FormAnswerError; unless the server withdrew the question first, when the
// answer, whatever it holds, is dropped and nothing fails.

import assert from "node:assert/strict";
import type { JsonRpcResponse } from "../shared/jsonrpc.ts";
import { type ElicitResult, FormAnswerError } from "./elicitation.ts";
import { ServerAsks } from "./server_asks.ts";

const requestedSchema = { type: "object", properties: { code: { type: "string", maxLength: 3 } } };
const question = {
  jsonrpc: "2.0" as const,
  id: 1,
  method: "elicitation/create",
  params: { message: "Code?", requestedSchema },
};
const misfit: ElicitResult = { action: "accept", content: { code: "ABCD" } };

Deno.test("ServerAsks answers a misfit answer with -32603, and rejects with FormAnswerError", async () => {
  const sent: JsonRpcResponse[] = [];
  const asks = new ServerAsks({ elicit: () => Promise.resolve(misfit) }, (reply) => {
    sent.push(reply);
  });
  await assert.rejects(asks.ask(question, "2025-11-25"), FormAnswerError);
  assert.deepEqual(sent, [{
    jsonrpc: "2.0",
    id: 1,
    error: { code: -32603, message: "The user's answer did not fit the form: not sent" },
  }]);
});

Deno.test("ServerAsks drops a misfit answer to a question the server cancelled: nothing sent, nothing failed", async () => {
  const sent: JsonRpcResponse[] = [];
  const { promise: answer, resolve } = Promise.withResolvers<ElicitResult>();
  const asks = new ServerAsks({ elicit: () => answer }, (reply) => void sent.push(reply));
  const answered = asks.ask(question, "2025-11-25");
  asks.cancel(1);
  resolve(misfit);
  await answered;
  assert.deepEqual(sent, []);
});

// Sampling: a server asks the client's model (`sampling/createMessage`), and a
// client given a model declares `sampling` and answers with it. The teaching
// server's sampling mode asks, over stdio, as a real server process.

import assert from "node:assert/strict";
import { Client } from "../lib/mcp/client/client.ts";
import type { Sample } from "../lib/mcp/client/sampling.ts";
import { freshLog, serverCommand } from "../lib/course/course.ts";
import { standInSample } from "../lib/course/stand_in.ts";
import { ToolError } from "../lib/mcp/shared/errors.ts";
import { samplingPrompt } from "../servers/teaching.ts";

const TEXT = "vanilla stock needs review";

async function wordCount(sample?: Sample): Promise<string> {
  const log = await freshLog("sampling-test");
  await using client = new Client(serverCommand("sampling", log), {
    allowed: ["word_count"],
    timeoutMs: 10_000,
    ...(sample === undefined ? {} : { sample }),
  });
  await client.initialize();
  await client.listTools();
  return await client.callTool("word_count", { text: TEXT });
}

Deno.test("a client given a model declares sampling, and the server's question is answered by the stand-in model", async () => {
  const sample = standInSample();
  const expected = await sample({
    messages: [{ role: "user", text: samplingPrompt(TEXT) }],
    maxTokens: 24,
  });
  assert.equal(await wordCount(sample), `4 (the client's model said: ${expected.text})`);
});

Deno.test("a client without a model does not declare sampling: the server has no model to ask", async () => {
  await assert.rejects(wordCount(), ToolError, "the client did not declare sampling");
});

Deno.test("a model that fails is answered as the client's error, and the connection is kept", async () => {
  let calls = 0;
  const once: Sample = (request) =>
    ++calls === 1 ? Promise.reject(new RangeError("out of tokens")) : standInSample()(request);
  const log = await freshLog("sampling-test");
  await using client = new Client(serverCommand("sampling", log), {
    allowed: ["word_count"],
    timeoutMs: 10_000,
    sample: once,
  });
  await client.initialize();
  await client.listTools();
  await assert.rejects(
    client.callTool("word_count", { text: TEXT }),
    ToolError,
    "The client's model failed: RangeError: out of tokens",
  );
  assert.match(
    await client.callTool("word_count", { text: TEXT }),
    /^4 \(the client's model said: /,
  );
});

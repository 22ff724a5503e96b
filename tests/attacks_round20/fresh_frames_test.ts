// Round 20 of the red team, as a new learner who is a peer of the other era,
// over stdio: the learners' release reads frames with Unit B's starter
// unless given the learner's splitFrames (the Client's `splitFrames`
// option), so a wrong one is what stands between the SDK server's replies
// and the Client. A splitFrames that throws a TypeError, or gives what is not
// `[frames, rest]`, ended in "Frame refused: buffer.indexOf is not a
// function" or "Frame refused: number 42 is not iterable", as if the server's
// frame were at fault; one that gave strings as frames left the Client
// waiting out its deadline ("initialize (id 1) had no reply"). Each now ends
// at once in a ProtocolError naming splitFrames and saying to check it
// against Unit B's cases; a RangeError, the refusal of a frame, is still
// "Frame refused", and the server is stopped either way.

import assert from "node:assert/strict";
import { Client } from "../../lib/mcp/client/client.ts";
import { assertGroupGone } from "../_helpers.ts";
import { sdkFixtureCommand } from "../_interop.ts";

/** Wrong splitFrames a learner writes, by what it does. */
const WRONG: Record<string, (buffer: Uint8Array, limit: number) => unknown> = {
  "throws a TypeError": () => {
    throw new TypeError("buffer.indexOf is not a function");
  },
  "gives a number": () => 42,
  "gives strings as frames": (buffer) => [["{}"], buffer],
};

/** What one call of the SDK server's echo came to with `splitFrames`: its answer, or its error. */
async function echoed(splitFrames: unknown, text: string): Promise<string> {
  const client = new Client(sdkFixtureCommand("sdk_server.ts"), {
    allowed: ["echo"],
    splitFrames: splitFrames as never,
  });
  try {
    await client.initialize();
    await client.listTools();
    return await client.callTool("echo", { text });
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  } finally {
    await client.close();
    assertGroupGone(client.pid);
  }
}

Deno.test("a wrong splitFrames given to the Client ends in a ProtocolError that names it and says to check it, with the SDK server over stdio", async () => {
  for (const [how, splitFrames] of Object.entries(WRONG)) {
    assert.match(
      await echoed(splitFrames, "fudge"),
      /^ProtocolError: splitFrames (threw TypeError, not the RangeError that refuses a frame: buffer\.indexOf is not a function|gave something other than \[frames, rest\] [^;]*); check your splitFrames against Unit B's cases$/,
      how,
    );
  }
  // A RangeError refuses the frame, as Unit B's splitFrames does past its limit.
  const refusing = () => {
    throw new RangeError("A frame of 70000 bytes exceeds the 65536-byte limit");
  };
  assert.equal(
    await echoed(refusing, "fudge"),
    "ProtocolError: Frame refused: A frame of 70000 bytes exceeds the 65536-byte limit",
  );
});

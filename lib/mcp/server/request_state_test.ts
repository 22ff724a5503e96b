import assert from "node:assert/strict";
import { RequestStateSeal } from "./request_state.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

Deno.test("a requestState whose last character is changed is refused, though it decodes to the same bytes", async () => {
  // The MAC is 32 bytes: its 43 base64url characters end in one whose two lowest bits encode
  // nothing, so changing them leaves the bytes as they were. Lab 03 changes the last character
  // and expects a refusal: a state is echoed byte for byte, or it is not the server's.
  const seal = new RequestStateSeal();
  const call = { method: "tools/call", params: { name: "count", arguments: { text: "a b" } } };
  const state = await seal.seal({ asked: 1 }, call);
  const last = ALPHABET.indexOf(state.at(-1)!);
  const changed = `${state.slice(0, -1)}${ALPHABET[last ^ 1]}`;
  assert.notEqual(changed, state);
  assert.deepEqual(await seal.open(state, call), { asked: 1 });
  assert.match(await seal.open(changed, call) as string, /failed verification/);
});

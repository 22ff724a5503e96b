// Round 17 of the red team, second part: a hostile or careless peer against
// what changed in the library that day (a subscription opened again over
// Streamable HTTP, the server's keep-alive, its check of a model's message).
// A careless client of the course's HTTP server that asks many modern
// requests: each one's session stayed held by the server's own signal (a
// listener for its closing, never taken away), about 8 KB a request for as
// long as the server ran; measured in a process of its own with the
// collector open (tests/fixtures/round17_held_per_request.ts).

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

Deno.test("the course's HTTP server holds nothing of a modern request once it is answered", async () => {
  const measure = fileURLToPath(import.meta.resolve("../fixtures/round17_held_per_request.ts"));
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "--v8-flags=--expose-gc", measure, "1500"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(success, new TextDecoder().decode(stderr));
  const perRequest = Number(new TextDecoder().decode(stdout).trim());
  // A request's session, held, is some 8 KB; what the heap's own noise leaves is under 1 KB.
  assert.ok(perRequest < 2048, `${perRequest} bytes held for each request answered`);
});

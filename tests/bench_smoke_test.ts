// The benchmark is not a test (nothing here is timed), but it must not rot:
// its smoke run goes through every row once, with tiny sizes.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** Run `deno task TASK ARGS...` in the project; its stdout, after asserting it succeeded. */
async function task(...args: string[]): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "--config", `${ROOT}deno.json`, ...args],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stdout);
  assert.equal(code, 0, `${text}\n${new TextDecoder().decode(stderr)}`);
  return text;
}

Deno.test("deno task bench --smoke runs every row and writes its results", async () => {
  const out = await Deno.makeTempFile({ prefix: "bench-smoke-", suffix: ".json" });
  try {
    const text = await task("bench", "--smoke", "--out", out);
    const { table, results } = JSON.parse(await Deno.readTextFile(out));
    assert.deepEqual(Object.keys(results).sort(), [
      "close",
      "course",
      "flood",
      "frameReading",
      "grading",
      "httpRoundTrips",
      "inflight",
      "mask",
      "modern",
      "roundTrips",
      "sessionMemory",
    ]);
    const rows = [
      "1 round trips",
      "2 framing",
      "3 flood",
      "4 close",
      "5 course",
      "6 grading",
      "7 in flight",
      "8 HTTP",
      "9 sessions",
      "10 mask",
      "11 2026-07-28",
    ];
    for (const row of rows) {
      assert.ok(table.some((line: { row: string }) => line.row === row), `no row ${row}`);
      assert.ok(text.includes(row), `the printed table has no row ${row}`);
    }
    // What must hold whatever the machine did hold: the flood refused, nothing left running.
    assert.ok(results.flood.refusedEveryTime);
    const ours = results.close.filter((kind: { closer: string }) => kind.closer === "client");
    for (const kind of ours) {
      assert.equal(kind.left, 0, `${kind.behaviour}: the Client left ${kind.left} running`);
    }
    assert.deepEqual(results.grading.misgraded, [], "a learner was misgraded");
    assert.equal(results.sessionMemory.leftOpen, 0, "the HTTP server kept a closed session");
  } finally {
    await Deno.remove(out);
  }
});

Deno.test("deno task bench:layers --smoke measures every layer", async () => {
  const text = await task("bench:layers", "--smoke");
  const lines = text.split("\n");
  for (const layer of ["bare loop", "readFrames", "Connection", "Client"]) {
    assert.ok(lines.some((line) => line.includes(layer)), `no line for ${layer}:\n${text}`);
  }
});

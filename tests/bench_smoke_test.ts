// The benchmark is not a test (nothing here is timed), but it must not rot:
// its smoke run goes through every row once, with tiny sizes.

import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url).pathname;

Deno.test("deno task bench --smoke runs every row and writes its results", async () => {
  const out = await Deno.makeTempFile({ prefix: "bench-smoke-", suffix: ".json" });
  try {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "--config", `${ROOT}deno.json`, "bench", "--smoke", "--out", out],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(stdout);
    assert.equal(code, 0, `${text}\n${new TextDecoder().decode(stderr)}`);
    const { table, results } = JSON.parse(await Deno.readTextFile(out));
    assert.deepEqual(Object.keys(results).sort(), [
      "close",
      "course",
      "flood",
      "frameReading",
      "roundTrips",
    ]);
    for (const row of ["1 round trips", "2 framing", "3 flood", "4 close", "5 course"]) {
      assert.ok(table.some((line: { row: string }) => line.row === row), `no row ${row}`);
      assert.ok(text.includes(row), `the printed table has no row ${row}`);
    }
    // What must hold whatever the machine did hold: the flood refused, nothing left running.
    assert.ok(results.flood.refusedEveryTime);
    for (
      const kind of results.close.filter((kind: { closer: string }) => kind.closer === "client")
    ) {
      assert.equal(kind.left, 0, `${kind.behaviour}: the Client left ${kind.left} running`);
    }
  } finally {
    await Deno.remove(out);
  }
});

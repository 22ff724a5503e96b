import assert from "node:assert/strict";
import { documentProblems, readCheckedJson, writeCheckedJson } from "./checked_json.ts";
import { buildManifest } from "./manifest.ts";

const RESULTS = "lab-02-results.schema.json";
const MANIFEST = "lab-02-manifest.schema.json";
const results = { tools_discovered: 4, calls_made: 4, calls_failed: 0, transcript_path: "t.txt" };

Deno.test("the results schema refuses wrong types, extra keys and a path outside the folder", async () => {
  assert.deepEqual(await documentProblems(results, RESULTS), []);
  const problems = await documentProblems(
    { ...results, calls_failed: -1, transcript_path: "../t.txt", note: "x" },
    RESULTS,
  );
  assert.deepEqual(problems.sort(), [
    "/calls_failed must be >= 0",
    '/transcript_path must match pattern "^[A-Za-z0-9_.-]+$"',
    "the document must NOT have additional properties",
  ]);
});

Deno.test("a manifest built from real files matches its schema; one without digests does not", async () => {
  const folder = new URL(`file://${await Deno.makeTempDir()}/`);
  try {
    await Deno.writeTextFile(new URL("results.json", folder), JSON.stringify(results));
    const manifest = await buildManifest(folder, ["results.json"], { lab: "lab-02" });
    assert.deepEqual(await documentProblems(manifest, MANIFEST), []);
    const stripped = { ...manifest, files: [{ path: "results.json", bytes: 1 }] };
    assert.deepEqual(await documentProblems(stripped, MANIFEST), [
      "/files/0 must have required property 'sha256'",
    ]);
    await assert.rejects(buildManifest(folder, ["../etc"], { lab: "lab-02" }), TypeError);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("readCheckedJson refuses a file that is not JSON, or does not match, naming it", async () => {
  const path = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(path, "{not json");
    await assert.rejects(readCheckedJson(path, RESULTS), SyntaxError);
    await Deno.writeTextFile(path, JSON.stringify({ ...results, calls_made: "4" }));
    await assert.rejects(
      readCheckedJson(path, RESULTS),
      (error: Error) =>
        error instanceof TypeError && error.message.includes(path) &&
        error.message.includes("/calls_made must be integer"),
    );
    await assert.rejects(
      writeCheckedJson(path, results, "no-such.schema.json"),
      Deno.errors.NotFound,
    );
  } finally {
    await Deno.remove(path);
  }
});

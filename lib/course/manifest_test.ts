import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { evidenceProblems } from "./evidence.ts";
import { buildManifest } from "./manifest.ts";

Deno.test("a manifest built from real files matches its schema; one without digests does not", async () => {
  const folder = pathToFileURL(`${await Deno.makeTempDir()}/`);
  try {
    await Deno.writeTextFile(new URL("results.json", folder), "{}\n");
    const manifest = await buildManifest(folder, ["results.json"], { lab: "lab-02" });
    assert.deepEqual(await evidenceProblems("lab-02-manifest", manifest), []);
    const stripped = { ...manifest, files: [{ path: "results.json", bytes: 3 }] };
    assert.deepEqual(await evidenceProblems("lab-02-manifest", stripped), [
      "/files/0 must have required property 'sha256'",
    ]);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("buildManifest lists files of its own folder only, by name", async () => {
  const folder = pathToFileURL(`${await Deno.makeTempDir()}/`);
  try {
    await assert.rejects(buildManifest(folder, ["../etc"], { lab: "lab-02" }), TypeError);
    await assert.rejects(buildManifest(folder, [".."], { lab: "lab-02" }), TypeError);
    await assert.rejects(
      buildManifest(folder, ["missing.json"], { lab: "lab-02" }),
      Deno.errors.NotFound,
    );
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

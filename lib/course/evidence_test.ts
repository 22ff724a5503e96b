import assert from "node:assert/strict";
import { EvidenceError, evidenceProblems, loadEvidence, saveEvidence } from "./evidence.ts";

const results = { tools_discovered: 4, calls_made: 4, calls_failed: 0, transcript_path: "t.txt" };

Deno.test("the lab-02 results schema refuses wrong types, extra keys and a path outside the folder", async () => {
  assert.deepEqual(await evidenceProblems("lab-02-results", results), []);
  const problems = await evidenceProblems("lab-02-results", {
    ...results,
    calls_failed: -1,
    transcript_path: "../t.txt",
    note: "x",
  });
  assert.deepEqual(problems.sort(), [
    "/calls_failed must be >= 0",
    '/transcript_path must match pattern "^[A-Za-z0-9_.-]+$"',
    "the lab-02-results must NOT have additional properties (note)",
  ]);
});

Deno.test("a submission missing a field is named as the submission, not as a call's arguments", async () => {
  const problems = await evidenceProblems("ch14-b-submission", { unit: "ch14-b" });
  assert.ok(problems.length > 0);
  assert.ok(problems.some((problem) => problem.startsWith("the ch14-b-submission must have")));
  assert.ok(!problems.some((problem) => problem.includes("arguments")), problems.join("; "));
});

Deno.test("saveEvidence writes nothing when the value does not match, and says why", async () => {
  const folder = await Deno.makeTempDir();
  try {
    const path = `${folder}/results.json`;
    await assert.rejects(
      saveEvidence(path, { ...results, calls_made: "4" }, "lab-02-results"),
      (error: Error) =>
        error instanceof EvidenceError && error.message.includes("/calls_made must be integer"),
    );
    await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("loadEvidence refuses a missing file, one that is not JSON, or does not match, naming it", async () => {
  const path = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(path, "{not json");
    await assert.rejects(loadEvidence(path, "lab-02-results"), /is not JSON/);
    await Deno.writeTextFile(path, JSON.stringify({ ...results, calls_made: "4" }));
    await assert.rejects(
      loadEvidence(path, "lab-02-results"),
      (error: Error) =>
        error instanceof EvidenceError && error.message.includes(path) &&
        error.message.includes("/calls_made must be integer"),
    );
  } finally {
    await Deno.remove(path);
  }
  await assert.rejects(loadEvidence(path, "lab-02-results"), /Cannot read the lab-02-results/);
});

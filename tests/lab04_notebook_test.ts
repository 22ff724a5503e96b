// Lab 04, run by the real Deno kernel through Jupyter's executor: the worked
// edition passes every grade table and its holdouts, sees each of the
// inflight server's five modes as it should, makes its six HTTP exchanges,
// agrees with the server on every probe, and saves a schema-valid
// submission; the student edition, with nothing written, runs to its end,
// reports every part unwritten, skips what waits for it, and runs every step
// that waits for nothing the learner writes (the probes, Block K, the version
// tour, Block J's recorded verdict).

import assert from "node:assert/strict";
import { evidenceProblems } from "../lib/course/evidence.ts";
import { reportLine, run, statuses } from "./_notebooks.ts";

/** The grade tables the notebook prints, by cell, with how many cases each shows. */
const TABLES: Record<string, number> = {
  "route-reply-cases": 6,
  "expired-ids-cases": 5,
  "progress-of-cases": 7,
  "post-headers-cases": 3,
  "reply-kind-cases": 7,
  "sse-data-cases": 6,
  "origin-allowed-cases": 5,
  "session-check-cases": 5,
};

const read = async (path: string) => JSON.parse(await Deno.readTextFile(path));

Deno.test("the worked Lab 04 passes every table and its holdouts, and sees each server as it should", async () => {
  const { text, outputs, work } = await run("solutions/lab-04.ipynb", undefined, { busy: true });
  for (const [cell, count] of Object.entries(TABLES)) {
    assert.deepEqual(statuses(outputs.get(cell)!), Array(count).fill("PASS"), cell);
  }
  assert.deepEqual(reportLine(text, "HOLDOUT_RESULT"), { status: "PASSED", unit: "lab-04" });
  assert.match(text, /INSTRUCTOR_CHECKS PASSED/);
  assert.match(text, /LAB_04 DONE/);
  assert.match(outputs.get("mode-normal")!, /answers 1 2 3 4, finished 4 3 2 1/);
  assert.match(outputs.get("progress")!, /1 of 4: counted 1 of 4[\s\S]*4 of 4[\s\S]*answer: 4/);
  assert.match(outputs.get("mode-late")!, /TimeoutError, then answers 4 and 2/);
  assert.match(
    outputs.get("http-session")!,
    /progress, notifications\/progress, notifications\/progress, reply to 3/,
  );
  const submission = await read(`${work}/lab-04/lab-04-submission-v1.json`);
  assert.deepEqual(await evidenceProblems("lab-04-submission", submission), []);
  assert.equal(submission.status, "PASSED");
  assert.deepEqual(submission.exchanges.map((e: { kind: string }) => e.kind), [
    "json",
    "accepted",
    "json",
    "events",
    "session-ended",
    "session-ended",
  ]);
  assert.deepEqual(
    submission.probes.map((p: { server: number }) => p.server),
    [403, 404, 400, 400, 413],
  );
  assert.deepEqual(
    submission.predictions.find((p: { name: string }) => p.name === "streamed"),
    { name: "streamed", predicted: 4, observed: 4, matched: true },
  );
  assertTransportSteps(outputs);
});

/** Block K, the version tour and Block J: steps that wait for nothing the learner writes. */
function assertTransportSteps(outputs: Map<string, string>): void {
  assert.match(outputs.get("dropped-stream")!, /before the drop: notifications\/progress 0/);
  assert.match(outputs.get("dropped-stream")!, /answered 200/);
  assert.match(
    outputs.get("dropped-stream")!,
    /resumed stream: notifications\/progress 50, notifications\/progress 100, reply to 2/,
  );
  assert.match(outputs.get("get-405")!, /offers a GET stream: GET answered 200 text\/event-stream/);
  assert.match(outputs.get("get-405")!, /offers none: GET answered 405/);
  assert.match(
    outputs.get("get-405")!,
    /the library's Client on it: This is a simple text response/,
  );
  assert.match(outputs.get("bad-version")!, /2025-11-25 → 200/);
  assert.match(outputs.get("bad-version")!, /2099-01-01 → 400 .*Unsupported MCP-Protocol-Version/);
  for (const version of ["2024-11-05", "2025-03-26", "2025-06-18"]) {
    assert.match(outputs.get("version-tour")!, new RegExp(`${version}\\W+${version}`));
  }
  assert.match(outputs.get("version-tour")!, /2099-01-01\W+2025-11-25/);
  assert.match(outputs.get("conformance")!, /2025-11-25\W+32 of 32 passed\W+18 of 18 passed/);
}

Deno.test("the student Lab 04 runs to its end with nothing written, and reports every part unwritten", async () => {
  const { text, outputs, work } = await run("notebooks/lab-04.ipynb", undefined, { busy: true });
  assert.ok(!text.includes("HOLDOUT_RESULT"));
  assert.ok(!text.includes("INSTRUCTOR_CHECKS"));
  for (const [cell, count] of Object.entries(TABLES)) {
    assert.deepEqual(statuses(outputs.get(cell)!), Array(count).fill("UNFINISHED"), cell);
  }
  for (const part of ["ROUTE_REPLY", "EXPIRED_IDS", "PROGRESS_OF", "SSE_DATA", "SESSION_CHECK"]) {
    assert.match(text, new RegExp(`^${part} NEEDS_WORK$`, "m"));
  }
  assert.match(outputs.get("mode-die")!, /↷ This step waits for routeReply/);
  assert.match(outputs.get("http-session")!, /↷ This step waits for postHeaders/);
  // The probes run with nothing written, and their table (the server's answers beside "not
  // written yet") waits for the prediction of the first.
  assert.match(outputs.get("probes")!, /↷ This step shows what you predict \(other_origin\)/);
  assert.ok(!outputs.get("probes")!.includes("the server's answers beside yours"));
  assertTransportSteps(outputs);
  assert.match(text, /LAB_04 NOT DONE YET/);
  assert.ok(
    !text.includes("You wrote no prediction first"),
    "a step revealed before its prediction",
  );
  const submission = await read(`${work}/lab-04/lab-04-submission-v1.json`);
  assert.deepEqual(await evidenceProblems("lab-04-submission", submission), []);
  assert.equal(submission.status, "NEEDS_WORK");
  assert.equal(submission.edition, "student");
  assert.equal(submission.modes.normal, "NOT_RUN");
});

// Lab 04, run by the real Deno kernel through Jupyter's executor: the worked
// edition passes every grade table and its holdouts, sees each of the
// inflight server's five modes as it should, makes its nine HTTP exchanges
// (today's five, then a legacy session's four), agrees with the server on
// every probe of both eras, re-issues today's broken stream with a new id and
// resumes the legacy one, hears on a subscription only what it asked for, and
// saves a schema-valid submission; the student edition, with nothing written,
// runs to its end, reports every part unwritten, skips what waits for it, and
// runs every step that waits for nothing the learner writes (the probes, the
// GET stream, the version tour, Block K's recorded verdict).

import assert from "node:assert/strict";
import { evidenceProblems } from "../lib/course/evidence.ts";
import { reportLine, run, statuses } from "./_notebooks.ts";

/** The grade tables the notebook prints, by cell, with how many cases each shows. */
const TABLES: Record<string, number> = {
  "route-reply-cases": 6,
  "expired-ids-cases": 5,
  "progress-of-cases": 7,
  "post-headers-cases": 7,
  "reply-kind-cases": 7,
  "sse-data-cases": 6,
  "origin-allowed-cases": 5,
  "header-check-cases": 8,
  "session-check-cases": 5,
  "recover-stream-cases": 5,
};

const read = async (path: string) => JSON.parse(await Deno.readTextFile(path));

Deno.test("the worked Lab 04 passes every table and its holdouts, and sees each server as it should", async () => {
  const { text, outputs, work } = await run("solutions/lab-04.ipynb");
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
  type Seen = { kind: string; status: number; code: number | null };
  assert.deepEqual(submission.exchanges.map((e: Seen) => [e.status, e.kind, e.code]), [
    [200, "json", null],
    [200, "json", null],
    [200, "events", null],
    [400, "refused", -32022],
    [404, "refused", -32601],
    [200, "json", null],
    [202, "accepted", null],
    [404, "session-ended", -32000],
    [404, "session-ended", -32000],
  ]);
  assert.deepEqual(
    submission.probes.map((p: { server: string }) => p.server),
    ["403", "400 -32020", "400 -32020", "400 -32022", "200", "404", "400", "400", "413"],
  );
  assert.ok(submission.probes.every((p: { agree: boolean }) => p.agree));
  assert.deepEqual(submission.streams, {
    dropped_today: "re-issued; call 1: step 1, cancelled; call 2: step 1, step 2, step 3, finished",
    dropped_legacy: "resumed; call 1: step 1, step 2, step 3, finished",
    subscription: "1 change delivered; ended by the server, with its result",
  });
  const predicted = (name: string) =>
    submission.predictions.find((p: { name: string }) => p.name === name);
  assert.deepEqual(predicted("streamed"), {
    name: "streamed",
    predicted: 3,
    observed: 3,
    matched: true,
  });
  const answers = [["progress_first", "before"], ["dropped_today", "no"], [
    "dropped_legacy",
    "yes",
  ]];
  for (const [name, answer] of answers) {
    assert.deepEqual(predicted(name), { name, predicted: answer, observed: answer, matched: true });
  }
  assert.deepEqual(predicted("delivered"), {
    name: "delivered",
    predicted: 1,
    observed: 1,
    matched: true,
  });
  assertBrokenStreams(outputs);
  assertTransportSteps(outputs);
});

/** Block J's broken streams and subscription, each as the server's own account tells it. */
function assertBrokenStreams(outputs: Map<string, string>): void {
  const today = outputs.get("dropped-today")!;
  assert.match(today, /before the drop: progress 1\n/);
  assert.match(today, /your recoverStream: \{"reissue":\{"jsonrpc":"2.0","id":3,/);
  assert.match(today, /what followed \(HTTP 200\): progress 1, progress 2, progress 3, reply to 3/);
  assert.match(today, /call 1: step 1, cancelled\ncall 2: step 1, step 2, step 3, finished/);
  const legacy = outputs.get("dropped-legacy")!;
  assert.match(legacy, /your recoverStream: \{"resume":"[^"]+"\}/);
  assert.match(legacy, /what followed \(HTTP 200\): progress 2, progress 3, reply to 2/);
  assert.match(legacy, /call 1: step 1, step 2, step 3, finished/);
  const listened = outputs.get("subscription")!;
  assert.match(
    listened,
    /first came notifications\/subscriptions\/acknowledged \{"toolsListChanged":true\}/,
  );
  assert.match(
    listened,
    /delivered: notifications\/tools\/list_changed \(subscription 1\)\n/,
  );
  assert.match(listened, /the reply to request 1: resultType "complete", subscription 1/);
}

/** The GET stream, the version tour and Block K: steps that wait for nothing the learner writes. */
function assertTransportSteps(outputs: Map<string, string>, sseData = true): void {
  assert.match(outputs.get("get-405")!, /offers a GET stream: GET answered 200 text\/event-stream/);
  assert.match(outputs.get("get-405")!, /offers none: GET answered 405/);
  // The library's Client reads event streams with the learner's sseData: it waits for it.
  assert.match(
    outputs.get("get-405")!,
    sseData
      ? /the library's Client on it: This is a simple text response/
      : /↷ The library's Client waits for sseData \(not written yet/,
  );
  for (const version of ["2024-11-05", "2025-03-26", "2025-06-18"]) {
    assert.match(outputs.get("version-tour")!, new RegExp(`${version}\\W+${version}`));
  }
  assert.match(outputs.get("version-tour")!, /2099-01-01\W+2025-11-25/);
  assert.match(outputs.get("conformance")!, /2025-11-25\W+32 of 32 passed\W+18 of 18 passed/);
  assert.match(outputs.get("conformance")!, /2026-07-28\W+40 of 40 passed\W+33 of 33 passed/);
}

Deno.test("the student Lab 04 runs to its end with nothing written, and reports every part unwritten", async () => {
  const { text, outputs, work } = await run("notebooks/lab-04.ipynb");
  assert.ok(!text.includes("HOLDOUT_RESULT"));
  assert.ok(!text.includes("INSTRUCTOR_CHECKS"));
  for (const [cell, count] of Object.entries(TABLES)) {
    assert.deepEqual(statuses(outputs.get(cell)!), Array(count).fill("UNFINISHED"), cell);
  }
  const parts = ["ROUTE_REPLY", "EXPIRED_IDS", "PROGRESS_OF", "SSE_DATA", "HEADER_CHECK"];
  for (const part of [...parts, "SESSION_CHECK", "RECOVER_STREAM"]) {
    assert.match(text, new RegExp(`^${part} NEEDS_WORK$`, "m"));
  }
  assert.match(outputs.get("mode-die")!, /↷ This step waits for routeReply/);
  assert.match(outputs.get("http-session")!, /↷ This step waits for postHeaders/);
  for (const step of ["dropped-today", "dropped-legacy"]) {
    assert.match(
      outputs.get(step)!,
      /↷ This step waits for postHeaders .* and recoverStream .* and sseData/,
    );
  }
  assert.match(outputs.get("subscription")!, /↷ This step waits for postHeaders/);
  // The probes run with nothing written, and their table (the server's answers beside "not
  // written yet") waits for the prediction of the first.
  assert.match(outputs.get("probes")!, /↷ This step shows what you predict \(other_origin\)/);
  assert.ok(!outputs.get("probes")!.includes("the server's answers beside yours"));
  assertTransportSteps(outputs, false);
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
  assert.deepEqual(Object.values(submission.streams), ["NOT_RUN", "NOT_RUN", "NOT_RUN"]);
});

Deno.test("a learner who writes a header name in capitals is told that names are lower case here", async () => {
  // Issue 40, item 8: before, the table said only "Accept: expected nothing, got …".
  const worked = await Deno.readTextFile(new URL("../solutions/lab-04.ipynb", import.meta.url));
  const from = JSON.stringify('    accept: "application/json, text/event-stream",\n');
  const mistaken = worked.replace(
    from,
    JSON.stringify('    Accept: "application/json, text/event-stream",\n'),
  );
  assert.notEqual(mistaken, worked, "the postHeaders cell's accept line was not found");
  const copy = `solutions/.header-case-${crypto.randomUUID()}.ipynb`;
  await Deno.writeTextFile(new URL(`../${copy}`, import.meta.url), mistaken);
  try {
    const { outputs } = await run(copy, undefined, { allowErrors: true });
    const table = outputs.get("post-headers-cases")!;
    assert.match(
      table,
      /Accept: header names are lower case here, as the Fetch API gives them: write accept/,
    );
    assert.match(table, /POST_HEADERS NEEDS_WORK/);
  } finally {
    await Deno.remove(new URL(`../${copy}`, import.meta.url));
  }
});

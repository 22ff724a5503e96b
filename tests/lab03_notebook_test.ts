// Lab 03, run by the real Deno kernel through Jupyter's executor: the worked
// edition passes every grade table and its holdouts, its masks agree with
// the library's on o200k_base, the four tools answer calls written under its
// mask, the agent tries again after a ToolError and stops at a
// ProtocolError, the learner's retry of a multi round-trip request is
// answered while every changed requestState is refused, a server's sampling
// request is answered in both eras, and the submission is schema-valid; the
// student edition, with nothing written, runs to its end, reports every part
// unwritten, and runs every step that waits for nothing the learner writes
// (Block A, the first round, sampling).

import assert from "node:assert/strict";
import { evidenceProblems } from "../lib/course/evidence.ts";
import { reportLine, run, statuses } from "./_notebooks.ts";

/** The grade tables the notebook prints, by cell, with how many cases each shows. */
const TABLES: Record<string, number> = {
  "char-step-cases": 17,
  "token-mask-cases": 4,
  "trie-cases": 7,
  "decode-cases": 3,
  "next-move-cases": 4,
  "retry-request-cases": 6,
};

const read = async (path: string) => JSON.parse(await Deno.readTextFile(path));

Deno.test("the worked Lab 03 passes every table and its holdouts, calls each tool under its mask, and runs both agent paths", async () => {
  const { text, outputs, work } = await run("solutions/lab-03.ipynb");
  for (const [cell, count] of Object.entries(TABLES)) {
    assert.deepEqual(statuses(outputs.get(cell)!), Array(count).fill("PASS"), cell);
  }
  assert.deepEqual(reportLine(text, "HOLDOUT_RESULT"), { status: "PASSED", unit: "lab-03" });
  assert.match(text, /INSTRUCTOR_CHECKS PASSED/);
  // Each table leads with what its cases test; a schema is shown by its name, whole a click away.
  const heads: Record<string, string> = {
    "char-step-cases": "text schema",
    "token-mask-cases": "text tokens schema",
    "trie-cases": "text tree schema",
    "decode-cases": "maxTokens model the rest",
    "next-move-cases": "outcome attempt of attempts",
    "retry-request-cases": "id result the rest",
  };
  for (const [cell, columns] of Object.entries(heads)) {
    const head = new RegExp(
      `^case\\s+status\\s+${columns.replaceAll(" ", "\\s+")}\\s+expected`,
      "m",
    );
    assert.match(outputs.get(cell)!, head, cell);
  }
  assert.match(outputs.get("char-step-cases")!, /'\{"verb":"ea'\s+conjugate's schema\s/);
  assert.match(outputs.get("decode-cases")!, /\s2\s+prefers "eat" after the first piece\s/);
  assert.match(text, /LAB_03 DONE/);
  // Masked, no call fails; the timing table's masks agree with the library's.
  assert.match(outputs.get("unmasked")!, /conjugate\s+\d+ of 10\s+0 of 10/);
  const visited: Record<string, number> = {};
  for (const tool of ["conjugate", "lookup_spanish", "lookup_irregular_verb"]) {
    const row = new RegExp(`${tool}\\s+[\\d.]+\\s+[\\d.]+\\s+(\\d+)\\s+[\\d.]+\\s+0\\b`);
    const [, nodes] = outputs.get("timing")!.match(row) ?? assert.fail(`no row for ${tool}`);
    visited[tool] = Number(nodes);
  }
  // The prediction is answered from the nodes visited, which no load changes.
  assert.ok(visited.conjugate < visited.lookup_spanish, JSON.stringify(visited));
  assert.match(outputs.get("timing")!, /✓ For which tool .* it was "conjugate"/);
  assert.match(outputs.get("agent-tool-error")!, /→ ToolError: conjugate: run is outside/);
  assert.match(outputs.get("agent-protocol-error")!, /stopped: a ProtocolError/);
  // Block G: the first round asks, the learner's retry is answered, and every changed state refused.
  assert.match(outputs.get("mrtr-first")!, /input_required: asks sampling-1, with a requestState/);
  assert.match(
    outputs.get("mrtr-retry")!,
    /tools\/call word_count, with inputResponses and requestState/,
  );
  assert.match(outputs.get("mrtr-retry")!, /^result: 4 \(the client's model said: /m);
  for (
    const refused of [
      "one character changed",
      "a state the client wrote",
      "this call's state on another call",
    ]
  ) {
    assert.match(outputs.get("mrtr-state")!, new RegExp(`${refused}\\s+error -32602: `), refused);
  }
  assert.match(outputs.get("mrtr-state")!, /the same retry once more\s+result: 4 /);
  assert.match(outputs.get("mrtr-state")!, /You predicted "an error"; it was "an error"/);
  assertSampling(outputs.get("sampling")!);
  const submission = await read(`${work}/lab-03/lab-03-submission-v1.json`);
  assert.deepEqual(await evidenceProblems("lab-03-submission", submission), []);
  assert.equal(submission.status, "PASSED");
  assert.deepEqual(
    submission.calls.map((call: { tool: string }) => call.tool),
    ["conjugate", "lookup_spanish", "lookup_irregular_verb", "check_subject_verb_agreement"],
  );
  for (const call of submission.calls) assert.doesNotMatch(call.answer, /Error: /);
  // The agent answers only the question it was asked, with the arguments the request states.
  const { answered, tool_error, protocol_error } = submission.agent as Record<string, string[]>;
  assert.deepEqual(argumentsSent(answered), [{ verb: "write", tense: "past_simple" }]);
  assert.equal(answered.at(-1), "answer: wrote");
  const refused = argumentsSent(tool_error);
  assert.ok(
    refused.length >= 1 &&
      refused.every((args) => args.verb === "run" && args.tense === "past_simple"),
  );
  assert.match(
    tool_error.at(-1)!,
    /^no answer: the tool refuses verb "run", which the request states/,
  );
  assert.ok(
    !tool_error.some((line) => line.startsWith("answer: ")),
    "an answer to another question",
  );
  assert.deepEqual(argumentsSent(protocol_error), [{ text: "vanilla stock needs review" }]);
  assert.match(submission.multi_round.retried, /^result: 4 /);
  assert.equal(Object.keys(submission.multi_round.states).length, 5);
});

/** word_count asked the client's model in both eras, and said so when there was no model. */
function assertSampling(table: string): void {
  assert.match(
    table,
    /2026-07-28, with the stand-in model\s+2026-07-28: 4 \(the client's model said: /,
  );
  assert.match(
    table,
    /2026-07-28, with no model\s+2026-07-28: ToolError: the client did not declare/,
  );
  assert.match(
    table,
    /\(legacy\), with the stand-in model\s+2025-\d\d-\d\d: 4 \(the client's model said: /,
  );
  assert.match(
    table,
    /\(legacy\), with no model\s+2025-\d\d-\d\d: ToolError: the client did not declare/,
  );
}

/** The arguments of each call an agent's steps record, without those the request leaves open. */
function argumentsSent(steps: string[]): Record<string, unknown>[] {
  return steps.flatMap((line) => {
    const call = /^attempt \d+: \S+ (\{.*\}) → /.exec(line);
    if (call === null) return [];
    const { person: _open, ...stated } = JSON.parse(call[1]);
    return [stated];
  });
}

Deno.test("the student Lab 03 runs to its end with nothing written, and reports every part unwritten", async () => {
  const { text, outputs, work } = await run("notebooks/lab-03.ipynb");
  assert.ok(!text.includes("HOLDOUT_RESULT"));
  assert.ok(!text.includes("INSTRUCTOR_CHECKS"));
  for (const [cell, count] of Object.entries(TABLES)) {
    assert.deepEqual(statuses(outputs.get(cell)!), Array(count).fill("UNFINISHED"), cell);
  }
  assert.match(outputs.get("char-step-cases")!, /^case\s+status\s+what differs\s+text\s+schema\s/m);
  for (
    const part of [
      "PREFIX_STATUS",
      "TOKEN_MASK",
      "TRIE_MASK",
      "DECODE",
      "NEXT_MOVE",
      "RETRY_REQUEST",
    ]
  ) {
    assert.match(text, new RegExp(`^${part} NEEDS_WORK$`, "m"));
  }
  assert.match(outputs.get("timing")!, /↷ Timing the masks waits for tokenMask/);
  assert.match(outputs.get("e2e")!, /↷ The end-to-end calls waits for prefixStatus/);
  assert.match(outputs.get("agent-tool-error")!, /↷ The agent waits for decode/);
  assert.match(outputs.get("mrtr-retry")!, /↷ The retry waits for retryRequest/);
  assert.match(outputs.get("mrtr-state")!, /↷ The hostile retries waits for retryRequest/);
  // Block A and the first round wait for nothing the learner writes; the sampling step's Client
  // waits for the learner's Unit A functions (beside the handouts, Unit A's starter).
  assert.match(outputs.get("unmasked")!, /↷ This step shows what you predict/);
  assert.match(outputs.get("mrtr-first")!, /input_required: asks sampling-1, with a requestState/);
  assert.match(
    outputs.get("sampling")!,
    /↷ The sampling step waits for answerFor \(not written yet, in the ✏️ cell of section 1 of notebooks\/ch14-a\.ipynb\) and authorize/,
  );
  assert.match(text, /LAB_03 NOT DONE YET/);
  const submission = await read(`${work}/lab-03/lab-03-submission-v1.json`);
  assert.deepEqual(await evidenceProblems("lab-03-submission", submission), []);
  assert.equal(submission.status, "NEEDS_WORK");
  assert.equal(submission.edition, "student");
});

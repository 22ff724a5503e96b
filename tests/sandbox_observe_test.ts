// A case the grader observes (Chapter 15's sandbox, run with the intruder in
// it) whose observation timed out is a time limit's decision, as a case that
// ran out of time is: on a busy machine it is run again alone before it
// fails. It failed at once (a correct bwrapCommand lost a mark while two test
// suites ran side by side).

import assert from "node:assert/strict";
import { TimeoutError } from "../lib/mcp/shared/errors.ts";
import { unitACase } from "./_sandbox_case.ts";

Deno.test("an observation that timed out is run again alone, and passes when it answers", async () => {
  let tries = 0;
  const observe = (returned: unknown) => {
    // The first observation, beside others, times out; the second, alone, answers.
    if (++tries === 1) {
      return Promise.reject(new TimeoutError("the observed server did not answer in time"));
    }
    return Promise.resolve(returned);
  };
  const result = await unitACase(
    "export function answerFor(id, message) { return message.result; }\n" +
      "export function authorize() { return true; }\n",
    "answerFor",
    {
      label: "observed",
      args: [1, { jsonrpc: "2.0", id: 1, result: { ok: true } }],
      expected: { ok: true },
      hidden: false,
      observe,
    },
  );
  assert.equal(tries, 2, "observed once beside others, once alone");
  assert.equal(result.status, "PASS", result.observed);
});

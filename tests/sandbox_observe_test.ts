// A case the grader observes (Chapter 15's sandbox, run with the intruder in
// it) whose observation timed out is a time limit's decision, as a case that
// ran out of time is: on a busy machine it is run again alone before it
// fails. It failed at once (a correct bwrapCommand lost a mark while two test
// suites ran side by side).

import assert from "node:assert/strict";
import { TimeoutError } from "../lib/mcp/shared/errors.ts";
import { runSandbox } from "../tools/grading/sandbox.ts";
import { makeScratch } from "../tools/grading/scratch.ts";
import { UNITS } from "../tools/grading/units/mod.ts";

Deno.test("an observation that timed out is run again alone, and passes when it answers", async () => {
  const folder = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${folder}/ch14-a.ts`,
      "export function answerFor(id, message) { return message.result; }\n" +
        "export function authorize() { return true; }\n",
    );
    let tries = 0;
    const observe = (returned: unknown) => {
      // The first observation, beside others, times out; the second, alone, answers.
      if (++tries === 1) {
        return Promise.reject(new TimeoutError("the observed server did not answer in time"));
      }
      return Promise.resolve(returned);
    };
    await using scratch = await makeScratch(
      [{ unit: "ch14-a", code: { kind: "module", path: `${folder}/ch14-a.ts` } }],
      UNITS,
    );
    const [result] = await runSandbox(scratch, [{
      unit: "ch14-a",
      functions: [{
        name: "answerFor",
        cases: [{
          label: "observed",
          args: [1, { jsonrpc: "2.0", id: 1, result: { ok: true } }],
          expected: { ok: true },
          hidden: false,
          observe,
        }],
      }],
    }]);
    assert.equal(tries, 2, "observed once beside others, once alone");
    assert.equal(result.status, "PASS", result.observed);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

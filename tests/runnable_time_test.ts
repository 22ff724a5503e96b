// A case that waited past the wall-clock backstop fails in place, as a stop,
// when it waited on its own (runnable_time.ts), and is run again alone only
// when it waited for a core: a case starved of the CPU still is (round 11's
// sleeping classmate held every other sandbox for 20 s of Unit A).

import assert from "node:assert/strict";
import { gradeLearner } from "../tools/grading/grade_learner.ts";
import { tree } from "./_grading.ts";

Deno.test("a case starved of the CPU past the backstop is still run again alone", async () => {
  // Eight spinners on the one core this process (and the sandbox it starts) may use, each in
  // a session of its own, as the sandbox is: the kernel shares a core between sessions.
  const cpus =
    (await Deno.readTextFile("/proc/self/status")).match(/^Cpus_allowed_list:\s*(\S+)/m)![1];
  const core = cpus.split(/[,-]/)[0];
  const pin = (list: string) =>
    new Deno.Command("/usr/bin/taskset", {
      args: ["-a", "-p", "-c", list, `${Deno.pid}`],
      stdout: "null",
    }).output();
  const spinners = Array.from(
    { length: 8 },
    () =>
      new Deno.Command("/usr/bin/setsid", {
        args: ["/usr/bin/taskset", "-c", core, "sh", "-c", "while :; do :; done"],
      }).spawn(),
  );
  try {
    await pin(core);
    const folder = await tree({
      "ch14-a.ts": `
export function answerFor(requestId, message) {
  let sum = 0;
  for (let i = 0; i < 2e9; i++) sum += i;
  return sum > 0 ? message.result : undefined;
}
export function authorize() { return false; }
`,
    });
    const [results] = await gradeLearner(
      {
        name: "starved",
        submissions: [{ unit: "ch14-a", code: { kind: "module", path: `${folder}/ch14-a.ts` } }],
      },
      undefined,
      // CPU time enough that only the wall-clock backstop stops a case.
      { caseWallMs: 500, caseCpuMs: 10_000, learnerWallMs: 20_000, functions: ["answerFor"] },
    );
    const outputs = results.tests.map((t) => t.output).join("\n");
    assert.match(outputs, /did not finish within 0\.5 s/);
    assert.doesNotMatch(outputs, /waiting with a core free to it/);
    // Run again alone, where it timed out again: the cases after it were not tried there.
    assert.match(outputs, /a case before it ran out of time, alone/);
  } finally {
    for (const spinner of spinners) spinner.kill("SIGKILL");
    await Promise.all(spinners.map((spinner) => spinner.status));
    await pin(cpus);
  }
});

// Shared by the sandbox's tests: one case of Unit A, run in the sandbox on a module written at test
// time.

import { type CaseResult, runSandbox, type SandboxOptions } from "../tools/grading/sandbox.ts";
import { makeScratch } from "../tools/grading/scratch.ts";
import type { GradedCase } from "../tools/grading/spec.ts";
import { UNITS } from "../tools/grading/units/mod.ts";

/** The result of `testCase` of Unit A's function `fn`, run in the sandbox on `module` (its text). */
export async function unitACase(
  module: string,
  fn: string,
  testCase: GradedCase,
  options: SandboxOptions = {},
): Promise<CaseResult> {
  const folder = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${folder}/ch14-a.ts`, module);
    await using scratch = await makeScratch(
      [{ unit: "ch14-a", code: { kind: "module", path: `${folder}/ch14-a.ts` } }],
      UNITS,
    );
    const jobs = [{ unit: "ch14-a", functions: [{ name: fn, cases: [testCase] }] }];
    const [result] = await runSandbox(scratch, jobs, options);
    return result;
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
}

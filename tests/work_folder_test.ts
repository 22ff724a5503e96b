// Where the notebooks save: a learner's copy (its kernel runs in work/) saves
// under work/; a handout run where it is (notebooks/) under work/handouts/,
// and a worked edition (its kernel runs in solutions/) under work/worked/, so
// that neither overwrites a learner's submission; COURSE_WORK overrides all.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const course = new URL("../lib/course/course.ts", import.meta.url).href;

/** The work folder lib/course/course.ts chooses for a kernel running in `folder`. */
async function workFrom(folder: string, env: Record<string, string> = {}): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", `import { WORK } from "${course}"; console.log(WORK.href);`],
    cwd: `${root}${folder}`,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return new TextDecoder().decode(stdout).trim();
}

Deno.test("a worked edition, or a handout, saves apart from the learner's work", async () => {
  // A new learner who opened the handout notebooks/ch14-a.ipynb and ran it had their COMPLETED
  // work/ch14-a/ch14-unit-a-handoff-v1.json, saved by their own copy, replaced by an INCOMPLETE one.
  const work = new URL("../work/", import.meta.url).href;
  assert.equal(await workFrom("notebooks"), `${work}handouts/`);
  assert.equal(await workFrom("work"), work);
  assert.equal(await workFrom("solutions"), `${work}worked/`);
  assert.equal(
    await workFrom("solutions", { COURSE_WORK: "/tmp/elsewhere" }),
    "file:///tmp/elsewhere/",
  );
});

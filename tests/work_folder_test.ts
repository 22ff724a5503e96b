// Where the notebooks save: a student edition (its kernel runs in notebooks/,
// a learner's copy in work/) saves under work/; a worked edition (its kernel
// runs in solutions/) under work/worked/, so an instructor's run never
// overwrites a learner's submission; COURSE_WORK overrides both.

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

Deno.test("a worked edition saves apart from the learner's work", async () => {
  const work = new URL("../work/", import.meta.url).href;
  assert.equal(await workFrom("notebooks"), work);
  assert.equal(await workFrom("work"), work);
  assert.equal(await workFrom("solutions"), `${work}worked/`);
  assert.equal(
    await workFrom("solutions", { COURSE_WORK: "/tmp/elsewhere" }),
    "file:///tmp/elsewhere/",
  );
});

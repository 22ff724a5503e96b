// The grader's end (a run's, or Ctrl-C's, which tools/grade.ts turns into one) leaves nothing of
// its own behind: not its scratch folders, nor a process it started that would make one again.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { plainTemp } from "../lib/course/plain_temp.ts";
import { nestedSuiteMark, SUITE_MARK } from "../tools/suite_mark.ts";
import { endLeftovers } from "./_busy.ts";

const root = fileURLToPath(new URL("../", import.meta.url));

Deno.test("a grader that ends while its sandbox still writes to a scratch folder leaves neither", async () => {
  // A sandbox still loading when Ctrl-C came wrote Deno's cache into the folder the grader had
  // just removed, and so made it again: `deno task grade` left grade-deno-* in TMPDIR 3 times in 10.
  const tmp = await Deno.makeTempDir({ dir: plainTemp(), prefix: "grader-end-" });
  const mark = nestedSuiteMark();
  const grader = `
    import { tempFolder } from "${root}lib/course/temp_folders.ts";
    import { spawnInOwnSession } from "${root}tools/grading/own_session.ts";
    const folder = tempFolder("grade-deno-");
    // As a sandbox's Deno does with its DENO_DIR: makes it, and what is in it, as it goes.
    spawnInOwnSession(["sh", "-c", 'while :; do mkdir -p "$0/gen"; done', folder], {
      stdout: "null",
      stderr: "null",
    });
    while (!Deno.readDirSync(folder).some(({ name }) => name === "gen")) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    Deno.exit(130);
  `;
  try {
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["eval", grader],
      env: { TMPDIR: tmp, [SUITE_MARK]: mark },
      stdout: "null",
    }).output();
    assert.equal(code, 130, new TextDecoder().decode(stderr));
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(await endLeftovers(mark, 0), [], "a process outlived the grader");
    assert.deepEqual([...Deno.readDirSync(tmp)].map(({ name }) => name), []);
  } finally {
    await endLeftovers(mark, 0);
    await Deno.remove(tmp, { recursive: true });
  }
});

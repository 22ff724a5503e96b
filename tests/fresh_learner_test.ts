// A new learner's ordinary mistakes with the course's tasks, run as a learner
// runs them (`deno task ...` in a terminal), with no network.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { basename } from "node:path";
import { withoutTypedIn } from "../tools/grading/typed_path.ts";

const root = fileURLToPath(new URL("../", import.meta.url));

/**
 * `deno task ARGS` typed in `folder`, as in a learner's own terminal: with no
 * INIT_CWD of a `deno task` this test may run under (a task keeps one it inherits).
 */
async function typedIn(folder: string, ...args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", ...args],
    cwd: folder,
    clearEnv: true,
    env: { ...withoutTypedIn(Deno.env.toObject()), NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const said = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  return { code, said };
}

Deno.test("deno task grade, typed in a sub-folder of the course, takes its paths from there", async () => {
  // Typed in work/, `deno task grade ch14-a.ipynb` said "no such file or folder" of the file
  // beside the learner, and `deno task grade .` graded the whole course folder instead.
  const mine = await Deno.makeTempDir({ dir: `${root}work`, prefix: "learner's folder " });
  const shown = `work/${basename(mine)}`;
  try {
    await Deno.copyFile(`${root}notebooks/ch14-a.ipynb`, `${mine}/unit a.ipynb`);
    const one = await typedIn(mine, "grade", "unit a.ipynb", "--json", "mine.json");
    assert.equal(one.code, 0, one.said);
    assert.match(one.said, new RegExp(`^ch14-a  ${shown}/unit a\\.ipynb  0/\\d+$`, "m"));
    const written = JSON.parse(await Deno.readTextFile(`${mine}/mine.json`));
    assert.equal(written.unit, "ch14-a");
    await Deno.remove(`${mine}/mine.json`); // a JSON in the folder would be graded with it

    const here = await typedIn(mine, "grade", ".");
    assert.equal(here.code, 0, here.said);
    const graded = [...here.said.matchAll(/^(\S+) {2}(.+) {2}\d+\/\d+$/gm)].map((m) =>
      `${m[1]} ${m[2]}`
    );
    assert.deepEqual(graded, [`ch14-a ${shown}`]);
  } finally {
    await Deno.remove(mine, { recursive: true });
  }
});

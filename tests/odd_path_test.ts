// The course from a folder whose path has a space, `#`, `%`, a comma and a
// non-ASCII letter: a copy of the repository there runs the worked Unit A
// through the kernel, grades it to full marks, and passes the library's
// path-handling tests. (`URL.pathname` used as a path once failed all three.)

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { reportLine } from "./_notebooks.ts";
import { runNotebook } from "../tools/run_notebook.ts";

const repository = fileURLToPath(new URL("../", import.meta.url));
const scratch = await Deno.makeTempDir({ prefix: "odd-path-" });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));
const course = `${scratch}/my course #1, 100% José`;

/** Copy every file git tracks into `course`. */
async function copyCourse() {
  const listed = await new Deno.Command("git", {
    args: ["ls-files", "-z"],
    cwd: repository,
    stdout: "piped",
  }).output();
  assert.equal(listed.code, 0);
  const files = new TextDecoder().decode(listed.stdout).split("\0").filter((file) => file !== "");
  for (const file of files) {
    const target = `${course}/${file}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.copyFile(`${repository}${file}`, target).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error; // deleted, not yet committed
    });
  }
}
await copyCourse();

Deno.test("from an oddly named folder, the worked Unit A passes and saves its handoff there", async () => {
  const work = `${course}/work`;
  // A TMPDIR of the test's own, which goes with its scratch folder: from a path with a comma the
  // servers' logs go to a course-logs-* folder in TMPDIR, and a kernel Jupyter shuts down leaves
  // it (its unload never runs) until the next maker of one sweeps it. It was the machine's /tmp.
  const tmp = `${scratch}/tmp`;
  await Deno.mkdir(tmp);
  const { text } = await runNotebook(`${course}/solutions/ch14-a.ipynb`, {
    env: { COURSE_WORK: work, TMPDIR: tmp },
  });
  assert.deepEqual(reportLine(text, "HOLDOUT_RESULT"), { status: "PASSED", unit: "ch14-a" });
  assert.ok([...Deno.readDirSync(tmp)].some(({ name }) => name.startsWith("course-logs-")));
  assert.match(text, new RegExp(`Saved: ${work.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  await Deno.stat(`${work}/ch14-a/ch14-unit-a-handoff-v1.json`);
});

Deno.test("from an oddly named folder, the grader grades the worked editions to full marks", async () => {
  const json = `${scratch}/results.json`;
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "grade", "solutions", "--json", json],
    cwd: course,
    stdout: "null",
  }).output();
  assert.equal(code, 0);
  const results = JSON.parse(await Deno.readTextFile(json)) as {
    score: number;
    max_score: number;
  }[];
  assert.ok(results.length >= 3);
  for (const unit of results) assert.equal(unit.score, unit.max_score);
});

Deno.test("from an oddly named folder, the library's own examples pass and leave no logs behind", async () => {
  // A comma keeps the servers' logs out of work/logs/ (a permission flag cannot name the folder):
  // they went to a folder in TMPDIR, and it stayed there after the process, one for each.
  const tmp = await Deno.makeTempDir({ dir: scratch, prefix: "tmp-" });
  const { code, stdout } = await new Deno.Command(Deno.execPath(), {
    args: [
      "test",
      "-q",
      "--allow-all",
      "--doc",
      "lib/course/course.ts",
      "lib/course/evidence.ts",
      "lib/course/manifest.ts",
    ],
    cwd: course,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", TMPDIR: tmp },
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stdout));
  const left = [...Deno.readDirSync(tmp)].map(({ name }) => name);
  assert.deepEqual(left.filter((name) => name.startsWith("course-logs-")), []);
});

Deno.test("no code takes a URL's pathname for a path", async () => {
  // `new URL(...).pathname` keeps percent-escapes (%20 for a space): use fileURLToPath. A line
  // that reads an HTTP URL's path says so in a comment.
  const PATHNAME = new RegExp(["\\.path", "name\\b"].join("")); // split, so this line is no match
  const found: string[] = [];
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(`${repository}${folder}`)) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory && entry.name !== "node_modules") await walk(path);
      if (!entry.isFile || !/\.(ts|ipynb)$/.test(entry.name)) continue;
      const lines = (await Deno.readTextFile(`${repository}${path}`)).split("\n");
      lines.forEach((line, index) => {
        const code = line.replace(/(^|\s)\/\/.*$/, "").trim(); // a comment, not a URL's //
        // An HTTP URL's path is a path of the URL, not a file's: such a line says so.
        const http = /\/\/ an HTTP URL's path/.test(line);
        if (!code.startsWith("*") && PATHNAME.test(code) && !http) {
          found.push(`${path}:${index + 1}`);
        }
      });
    }
  };
  for (
    const folder of ["lib", "tools", "tests", "bench", "servers", "cases", "holdouts", "solutions"]
  ) {
    await walk(folder);
  }
  assert.deepEqual(found, []);
});

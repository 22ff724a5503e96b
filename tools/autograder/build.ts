// `deno task autograder [FILE]`: build the autograder package for Gradescope
// (default `autograder.zip`): `setup.sh` and `run_autograder` at its root,
// and the grader with everything it runs, the hidden cases included. Besides
// the instructors' repository, this package is the one place the hidden
// cases live: give it to the grading platform, never to learners.

import { zipSync } from "fflate";
import { fileURLToPath } from "node:url";
import { learnersConfig } from "../release/deno_config.ts";
import { localImports, walk } from "../release/contents.ts";
import { libraryFiles } from "../grading/scratch.ts";
import { UNITS } from "../grading/units/mod.ts";

const root = new URL("../../", import.meta.url);
const target = Deno.args[0] ?? fileURLToPath(new URL("autograder.zip", root));
const PROGRAMS = [
  "tools/autograder/run.ts",
  "tools/grading/sandbox_runner.ts",
  "tools/grading/sandbox_worker.ts",
  "holdouts/mod.ts",
];
/** Executable entries: Gradescope runs both as programs. */
const SCRIPTS = {
  "setup.sh": "tools/autograder/setup.sh",
  "run_autograder": "tools/autograder/run_autograder",
};

try {
  const files = new Set([
    ...await localImports(root, PROGRAMS),
    // What learners' cells may import, which the grader copies beside them: read, not imported.
    ...await libraryFiles(UNITS),
    ...await walk(root, "holdouts"),
    ...await walk(root, "schemas"),
    "deno.lock",
  ]);
  const entries: Record<string, Uint8Array | [Uint8Array, { os: number; attrs: number }]> = {};
  for (const file of [...files].sort()) entries[file] = await Deno.readFile(new URL(file, root));
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  entries["deno.json"] = new TextEncoder().encode(
    JSON.stringify({ ...learnersConfig(config), tasks: {} }, null, 2) + "\n",
  );
  for (const [name, source] of Object.entries(SCRIPTS)) {
    // Unix mode bits in the high half of the external attributes: rwxr-xr-x.
    entries[name] = [await Deno.readFile(new URL(source, root)), { os: 3, attrs: 0o100755 << 16 }];
  }
  await Deno.writeFile(target, zipSync(entries, { level: 9, mtime: new Date("2026-01-01") }));
  console.log(`autograder: ${Object.keys(entries).length} files in ${target}`);
} catch (error) {
  console.error(`autograder: ${(error as Error).message}`);
  Deno.exit(1);
}

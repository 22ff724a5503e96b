// `deno task lab`: the learner's way in. Makes the learner's own copy of each
// student edition in work/ (once: an existing copy is never touched), then
// starts JupyterLab from the course's virtual environment on 127.0.0.1 with
// the course folder as its root (lib/, notebooks/ and work/ all in its file
// browser), opening the first unit. Extra arguments go to jupyter-lab, such
// as `deno task lab --no-browser`. Ctrl-C stops it.

import { fileURLToPath } from "node:url";
import { VENV } from "./jupyter/jupyter.ts";
import { learnerCopies } from "./learner_copies.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const lab = `${VENV}bin/jupyter-lab`;
const FIRST = "work/ch14-a.ipynb";

if (!await Deno.stat(lab).then(() => true, () => false)) {
  console.error(
    "JupyterLab is not installed in this course folder yet. Run `sh tools/setup.sh`:\n" +
      "it installs JupyterLab from PyPI into .venv/ (and Deno's kernel), then run `deno task lab` again.",
  );
  Deno.exit(1);
}
for (const copy of await learnerCopies({ root })) {
  if (copy.action === "made") {
    console.log(`Your copy of ${copy.unit}: ${copy.copy} (edit this one)`);
  }
}
// JupyterLab refuses to run as root unless told to (containers and CI machines often are root).
const asRoot = Deno.uid() === 0 ? ["--allow-root"] : [];
const child = new Deno.Command(lab, {
  args: ["--ip=127.0.0.1", `--ServerApp.root_dir=${root}`, ...asRoot, FIRST, ...Deno.args],
  cwd: root,
  stdin: "inherit",
  stdout: "inherit",
  stderr: "inherit",
}).spawn();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => child.kill(signal));
}
Deno.exit((await child.status).code);

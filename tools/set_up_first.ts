// `deno run --allow-read --allow-run tools/set_up_first.ts TASK`: what each of the learners'
// release's tasks (`deno task lab`, `grade`, `starter`) runs first. It says, in one line, to run
// `sh tools/setup.sh` and exits 1 unless set-up has run on this machine: the release's pins are in
// place (`deno.lock`, set-up's copy of `tools/deno.lock`) and Deno's cache holds every npm package
// they pin. The release ships no `deno.lock` for that reason: `deno task` fetches every package a
// lock file pins before it runs any task, so that a learner's first task, before set-up, fetched
// about 110 packages (offline, it printed Deno's network error instead of what to run).

import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const task = Deno.args[0] ?? "lab";

if (!await setUp()) {
  console.error(
    `${task}: the course is not set up on this machine yet: run \`sh tools/setup.sh\` in the ` +
      `course folder (once, with the network), then \`deno task ${task}\` again`,
  );
  Deno.exit(1);
}

/** Whether the pins are in place and Deno's cache holds what they pin (it fetches nothing). */
async function setUp(): Promise<boolean> {
  if (!await Deno.stat(`${root}deno.lock`).then(() => true, () => false)) return false;
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: ["install", "--cached-only", "--frozen", "--quiet"],
    cwd: root,
    stdout: "null",
    stderr: "null",
  }).output();
  return success;
}

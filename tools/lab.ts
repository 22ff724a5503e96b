// `deno task lab`: the learner's way in. Makes the learner's own copy of each
// student edition in work/ (once: an existing copy is never touched), then
// starts JupyterLab from the course's virtual environment on 127.0.0.1 with
// the course folder as its root (lib/, notebooks/ and work/ all in its file
// browser), the Deno kernel the only one offered, and its address opening
// the learner's Unit A, work/ch14-a.ipynb (or their copy of it they renamed).
// When JupyterLab already runs for this course folder, it prints that one's
// address instead of starting another on the same files. Extra arguments go to jupyter-lab, such as
// `deno task lab --no-browser`. Ctrl-C stops it, and the kernels it started; so does the end of
// this program or of the task that ran it, however it comes (a SIGKILL included).

import { fileURLToPath } from "node:url";
import { VENV } from "./jupyter/jupyter.ts";
import { learnerCopies } from "./learner_copies.ts";
import { withoutTypedIn } from "./grading/typed_path.ts";
import { isRunning, signalGroup } from "../lib/mcp/client/process_group.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const lab = `${VENV}bin/jupyter-lab`;
/** JupyterLab for as long as its standard input stays open (see the file). */
const HELD = fileURLToPath(new URL("jupyter/held_lab.py", import.meta.url));
/** The unit whose copy the address opens: Unit A, the first. */
const FIRST = "ch14-a";
/** The only kernel offered: Deno's, as `deno jupyter --install` names it. */
const KERNEL = "deno";

if (!await Deno.stat(lab).then(() => true, () => false)) {
  // One line, as each task's word on set-up (tools/set_up_first.ts).
  console.error(
    "lab: JupyterLab is not installed in this course folder yet: run `sh tools/setup.sh` (it " +
      "installs JupyterLab into .venv/ from PyPI, and Deno's kernel), then `deno task lab` again",
  );
  Deno.exit(1);
}
const copies = await learnerCopies({ root });
for (const copy of copies) {
  if (copy.note !== undefined) console.log(copy.note);
  else if (copy.action === "made") {
    console.log(`Your copy of ${copy.unit}: ${copy.copy} (edit this one)`);
  }
}
/** The page that opens the learner's Unit A (under a name of their own, if they renamed it). */
const OPENS = `/lab/tree/${
  encodeURI(copies.find(({ unit }) => unit === FIRST)?.copy ?? `work/${FIRST}.ipynb`)
}`;
const running = await runningFor(root);
if (running !== undefined) {
  console.log(
    `JupyterLab already runs for this course folder (process ${running.pid}); open it here:\n` +
      `    ${running.address}\n` +
      "A second one on the same files would let two notebooks save over each other: stop the " +
      "first (Ctrl-C in its terminal) to start it again.",
  );
  Deno.exit(0);
}
// JupyterLab refuses to run as root unless told to (containers and CI machines often are root).
const asRoot = Deno.uid() === 0 ? ["--allow-root"] : [];
const child = new Deno.Command(`${VENV}bin/python`, {
  args: [
    HELD,
    "--ip=127.0.0.1",
    `--ServerApp.root_dir=${root}`,
    `--LabApp.default_url=${OPENS}`,
    // The course is TypeScript on Deno: the Python kernel the environment brings is not offered,
    // nor named the default (a new notebook, or /api/kernelspecs, would ask for python3).
    `--KernelSpecManager.allowed_kernelspecs=${KERNEL}`,
    "--KernelSpecManager.ensure_native_kernel=False",
    `--MappingKernelManager.default_kernel_name=${KERNEL}`,
    ...asRoot,
    ...Deno.args,
  ],
  cwd: root,
  // Without `deno task`'s INIT_CWD (the folder this task was typed in): a `deno task` typed in one
  // of JupyterLab's terminals would inherit it, and `deno task grade` take its paths from there.
  clearEnv: true,
  env: withoutTypedIn(Deno.env.toObject()),
  // In a session of its own, JupyterLab hears no Ctrl-C from the terminal or the task's process
  // group, only the SIGTERM below, on which it stops its kernels, then itself. Without a terminal
  // on its stdin (an editor running the task), Jupyter takes SIGINT for KeyboardInterrupt and
  // leaves with its kernels still running; with one, it asks whether to shut down.
  detached: true,
  // A pipe this program holds and never writes to: its end, when this program ends however it
  // ends, is JupyterLab's SIGTERM (held_lab.py).
  stdin: "piped",
  stdout: "inherit",
  stderr: "inherit",
}).spawn();
let stopping = false;
/** JupyterLab told to stop, once. */
const stop = () => {
  if (!stopping) child.kill("SIGTERM");
  stopping = true;
};
// Ctrl-C, a stop, or the terminal closed.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) Deno.addSignalListener(signal, stop);
// The task that ran this program ended (SIGKILLed, it told nothing): this program's parent is then
// another process.
const parent = Deno.ppid;
setInterval(() => {
  if (Deno.ppid !== parent) stop();
}, 1000);
const ended = await child.status;
if (ended.signal !== null) {
  // Killed (SIGKILL, say, or the machine short of memory), JupyterLab stopped none of its kernels:
  // each runs on in a session of its own until stopped here.
  for (const kernel of kernelsOf(child.pid)) signalGroup(kernel, "SIGTERM");
  if (!stopping) {
    console.error(
      `lab: JupyterLab was stopped from outside (${ended.signal}), and its kernels with it: what ` +
        "the notebooks had not saved is lost; run `deno task lab` again",
    );
  }
}
Deno.exit(ended.code);

/**
 * The kernels that the JupyterLab of process `pid` started and that still run: Jupyter names it in
 * each kernel's environment (`JPY_PARENT_PID`), and starts each in a session of its own.
 */
function kernelsOf(pid: number): number[] {
  const kernels = [];
  for (const { name } of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(name) || !isRunning(name)) continue;
    try {
      const environ = Deno.readTextFileSync(`/proc/${name}/environ`).split("\0");
      if (environ.includes(`JPY_PARENT_PID=${pid}`)) kernels.push(Number(name));
    } catch {
      // Gone, or not this user's.
    }
  }
  return kernels;
}

/**
 * The JupyterLab server already running for the course folder `folder`, as
 * `jupyter server list` knows it (from the runtime folder, checking that each
 * process is alive), with the address that opens Unit A; `undefined` when
 * there is none.
 */
async function runningFor(folder: string): Promise<{ pid: number; address: string } | undefined> {
  const { code, stdout } = await new Deno.Command(`${VENV}bin/jupyter`, {
    args: ["server", "list", "--json"],
    stdout: "piped",
    stderr: "null",
  }).output();
  if (code !== 0) return undefined;
  const same = (path: unknown) =>
    typeof path === "string" && path.replace(/\/?$/, "/") === folder.replace(/\/?$/, "/");
  for (const line of new TextDecoder().decode(stdout).split("\n")) {
    let server: { pid?: number; url?: string; root_dir?: string; token?: string };
    try {
      server = JSON.parse(line);
    } catch {
      continue; // not a line of the list
    }
    if (!same(server.root_dir) || typeof server.url !== "string") continue;
    const address = new URL(OPENS.slice(1), server.url.replace(/\/?$/, "/"));
    if (server.token) address.searchParams.set("token", server.token);
    return { pid: server.pid ?? 0, address: address.href };
  }
  return undefined;
}

// Chapter 15's effect case against hostile command lines: the learner's
// bwrap line is run on the grading machine, so it must run unprivileged,
// with no path to the machine's own files, and run the grader's intruder,
// not something of the learner's. Each test builds the lines a hostile
// learner would, keyed on the grader's policy so that every other case keeps
// its marks, and checks the machine afterwards: the class's results folder,
// /tmp and the course folder as they were, nothing left running.

import assert from "node:assert/strict";
import { join } from "node:path";
import { type Results, ROOT, tree } from "./_grading.ts";
import { bwrapRuns, chapter15, HONEST_BINDS, marks } from "./_chapter15.ts";
import { processesMentioning } from "../lib/containment/process_table.ts";

/** Every file and folder under `folder` (links not followed), each with its kind, size, owner and times. */
async function snapshot(folder: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const visit = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (path === join(ROOT, ".git")) continue;
      const info = await Deno.lstat(path);
      const kind = info.isSymlink ? "link" : info.isDirectory ? "folder" : "file";
      found.set(path, `${kind} ${info.size} ${info.uid} ${info.mode} ${info.mtime?.getTime()}`);
      if (info.isDirectory) await visit(path);
    }
  };
  await visit(folder);
  return found;
}

/**
 * The places an escape would write, as they are now: `folders` whole, and in
 * /tmp each entry whose name holds `nonce` (other programs write /tmp too).
 */
async function machine(folders: string[], nonce: string): Promise<Record<string, unknown>> {
  const state: Record<string, unknown> = {};
  for (const folder of folders) state[folder] = Object.fromEntries(await snapshot(folder));
  state["/tmp"] = [...Deno.readDirSync("/tmp")].map((e) => e.name).filter((n) => n.includes(nonce));
  return state;
}

/** Grade `folders` into `results` as an instructor does; the exit code. */
async function gradeClass(results: string, ...folders: string[]): Promise<number> {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "grade", ...folders, "--json", results],
    cwd: ROOT,
    stdout: "null",
    stderr: "null",
  }).output();
  return code;
}

/** Only for the grader's own policy (its data folder is a playground's): the lesson's cases never see it. */
const GRADING = "policy.read.some((path) => /ch15-playground-/.test(path))";

Deno.test("Chapter 15: a line that reaches the machine's root through /proc/PID/root writes nothing there, and the class's results are all written", async () => {
  // Issue 38: the throw-away root bound the machine's /proc, and bwrap, run as root, made a
  // folder where the class's results go through a process's root link (here the test's own,
  // standing for one a learner guesses, such as pid 1): nobody's results were written, and the
  // learner kept 10/10.
  const nonce = crypto.randomUUID();
  const folder = await tree({ "honest/ch15.ts": chapter15(HONEST_BINDS) });
  const results = `${folder}/class results.json`;
  const through = (path: string) => JSON.stringify(`/proc/${Deno.pid}/root${path}`);
  const planting = `
  for (const path of [...policy.runtime.paths, ...policy.read]) options.push("--ro-bind", path, path);
  if (${GRADING}) {
    // No user namespace: bwrap stays root on the machine.
    options.splice(0, 1, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts");
    options.push("--bind", "/proc", "/proc", "--dir", ${through(results)});
    options.push("--dir", ${through(`/tmp/${nonce}`)}, "--dir", ${through(`${ROOT}${nonce}`)});
  }
  for (const path of policy.write) options.push("--bind", path, path);`;
  await Deno.mkdir(`${folder}/planter`);
  await Deno.writeTextFile(`${folder}/planter/ch15.ts`, chapter15(planting));
  const before = await machine([folder, ROOT], nonce);
  const code = await gradeClass(results, `${folder}/honest`, `${folder}/planter`);
  const written = await Deno.stat(results).then((info) => info.isFile, () => false);
  const list: Results[] = written ? JSON.parse(await Deno.readTextFile(results)) : [];
  await Deno.remove(results, { recursive: true }).catch(() => {});
  assert.deepEqual(await machine([folder, ROOT], nonce), before, "the machine is as it was");
  assert.ok(written, "the class's results are a file");
  assert.equal(code, 0);
  assert.deepEqual(processesMentioning([folder]), [], "nothing of the class run is left running");
  assert.equal(marks(list[0], "bwrapCommand"), "10/10");
  // Where bubblewrap runs, the planting line's sandbox does not start (no process's root is in
  // its reach), and the case judged by effect is lost.
  if (bwrapRuns) assert.equal(marks(list[1], "bwrapCommand"), "9/10");
});

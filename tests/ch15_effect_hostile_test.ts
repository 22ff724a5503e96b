// Chapter 15's effect case against hostile command lines: the learner's
// bwrap line is run on the grading machine, so it must run unprivileged,
// with no path to the machine's own files, and run the grader's intruder,
// not something of the learner's. Each test builds the lines a hostile
// learner would, keyed on the grader's policy so that every other case keeps
// its marks, and checks the machine afterwards: the class's results folder,
// /tmp and the course folder as they were, nothing left running.

import assert from "node:assert/strict";
import { join } from "node:path";
import { grade, type Results, ROOT, tree } from "./_grading.ts";
import {
  BWRAP_CASES,
  bwrapRuns,
  chapter15,
  effectLines,
  HONEST_BINDS,
  marks,
} from "./_chapter15.ts";
import { CannotJudgeError, THIS_MACHINE } from "../lib/containment/command_grants.ts";
import { EFFECT_EXPECTED, effectOf } from "../lib/containment/effect.ts";
import { isRunning } from "../lib/mcp/client/process_group.ts";
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
 * The places an escape would write, as they are now: `folders` whole (the
 * test's own), and in `shared` (the course folder, /tmp) each entry whose
 * name holds `nonce`: other tests, run beside this one, write there too.
 */
async function machine(
  folders: string[],
  shared: string[],
  nonce: string,
): Promise<Record<string, unknown>> {
  const state: Record<string, unknown> = {};
  for (const folder of folders) state[folder] = Object.fromEntries(await snapshot(folder));
  for (const folder of shared) {
    state[folder] = [...Deno.readDirSync(folder)].map((e) => e.name).filter((n) =>
      n.includes(nonce)
    );
  }
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
  const before = await machine([folder], [ROOT, "/tmp"], nonce);
  const code = await gradeClass(results, `${folder}/honest`, `${folder}/planter`);
  const written = await Deno.stat(results).then((info) => info.isFile, () => false);
  const list: Results[] = written ? JSON.parse(await Deno.readTextFile(results)) : [];
  await Deno.remove(results, { recursive: true }).catch(() => {});
  assert.deepEqual(
    await machine([folder], [ROOT, "/tmp"], nonce),
    before,
    "the machine is as it was",
  );
  assert.ok(written, "the class's results are a file");
  assert.equal(code, 0);
  assert.deepEqual(processesMentioning([folder]), [], "nothing of the class run is left running");
  assert.equal(marks(list[0], "bwrapCommand"), `${BWRAP_CASES}/${BWRAP_CASES}`);
  // Where bubblewrap runs, the planting line's sandbox does not start (no process's root is in
  // its reach), and the case judged by effect is lost.
  if (bwrapRuns) assert.equal(marks(list[1], "bwrapCommand"), `${BWRAP_CASES - 1}/${BWRAP_CASES}`);
});

/** An MCP server of the learner's own, standing for the intruder: `word_count` answers `4`, and nothing is tried. */
const IMPOSTOR = `
const encoder = new TextEncoder();
const decoder = new TextDecoder();
let buffer = "";
for await (const chunk of Deno.stdin.readable) {
  buffer += decoder.decode(chunk, { stream: true });
  for (let end = buffer.indexOf("\\n"); end >= 0; end = buffer.indexOf("\\n")) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.id === undefined) continue;
    const reply = { jsonrpc: "2.0", id: message.id };
    if (message.method === "initialize") {
      reply.result = { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "intruder", version: "1.0.0" } };
    } else if (message.method === "tools/list") {
      reply.result = { tools: [{ name: "word_count", inputSchema: { type: "object", properties: { file: { type: "string" } }, required: ["file"] } }] };
    } else if (message.method === "tools/call") {
      reply.result = { content: [{ type: "text", text: "4" }] };
    } else reply.error = { code: -32601, message: "no such method" };
    Deno.stdout.writeSync(encoder.encode(JSON.stringify(reply) + "\\n"));
  }
}
`;

/** The impostor, after it copies a hidden file out and leaves a process running. */
function impostor(folder: string): string {
  return `
const folder = ${JSON.stringify(folder)};
for (const into of [folder, ${JSON.stringify(`/proc/${Deno.pid}/root${folder}`)}]) {
  try { Deno.copyFileSync(${
    JSON.stringify(`${ROOT}holdouts/ch15.ts`)
  }, into + "/loot.txt"); } catch {}
}
try {
  new Deno.Command("/usr/bin/setsid", { args: ["/bin/sh", "-c", "sleep 300 # " + folder], stdin: "null", stdout: "null", stderr: "null" }).spawn().unref();
} catch {}
${IMPOSTOR}`;
}

Deno.test("Chapter 15: a line that shows the learner's own server at the intruder's path earns nothing, and runs none of it", async () => {
  // Issue 38: only the command's words were checked. Bound over the intruder's path, the
  // learner's module ran as root with every permission and scored 10/10; with no isolation at
  // all (--bind / /), it copied a hidden file out onto the machine through a process's root
  // link, left a process running, and passed the case judged by effect too.
  const nonce = crypto.randomUUID();
  const folder = await tree({ "honest/ch15.ts": chapter15(HONEST_BINDS) });
  await Deno.writeTextFile(`${folder}/impostor.ts`, impostor(folder));
  const impostorAt = `"--ro-bind", ${JSON.stringify(`${folder}/impostor.ts`)}, command.at(-1)`;
  const swap = (open: boolean) => `
  for (const path of [...policy.runtime.paths, ...policy.read]) options.push("--ro-bind", path, path);
  for (const path of policy.write) options.push("--bind", path, path);
  if (${GRADING}) {
    ${open ? 'options.splice(0, options.length, "--bind", "/", "/");' : ""}
    options.push(${impostorAt});
  }`;
  await Deno.mkdir(`${folder}/swap`);
  await Deno.writeTextFile(`${folder}/swap/ch15.ts`, chapter15(swap(false)));
  await Deno.mkdir(`${folder}/open`);
  await Deno.writeTextFile(`${folder}/open/ch15.ts`, chapter15(swap(true)));
  const results = `${folder}/class.json`;
  const before = await machine([folder], [ROOT, "/tmp"], nonce);
  const code = await gradeClass(results, `${folder}/honest`, `${folder}/swap`, `${folder}/open`);
  assert.equal(code, 0);
  const list: Results[] = JSON.parse(await Deno.readTextFile(results));
  await Deno.remove(results);
  assert.deepEqual(
    await machine([folder], [ROOT, "/tmp"], nonce),
    before,
    "the machine is as it was",
  );
  assert.deepEqual(processesMentioning([folder]), [], "nothing of the class run is left running");
  assert.equal(marks(list[0], "bwrapCommand"), `${BWRAP_CASES}/${BWRAP_CASES}`);
  // The swapped lines lose the case judged by effect, with or without bubblewrap: the
  // program they would run is not the one they were given.
  assert.equal(marks(list[1], "bwrapCommand"), `${BWRAP_CASES - 1}/${BWRAP_CASES}`);
  assert.equal(marks(list[2], "bwrapCommand"), `${BWRAP_CASES - 1}/${BWRAP_CASES}`);
  const lost = (results: Results) =>
    results.tests.find((t) => t.name.startsWith("bwrapCommand") && t.score === 0)!.output;
  assert.match(lost(list[1]), /intruder\.ts read-only from .*impostor\.ts: not the machine's own/);
});

Deno.test("Chapter 15: a line that shows the learner's module, as the grader's own Deno cache holds it, at the intruder's path earns nothing", async () => {
  // The grader's sandbox compiles each learner's module into Deno's cache, which the intruder's
  // runtime needs, so it is in every sandbox's reach: bound over the intruder's path, the
  // module's own server answers in its place. Only the program's paths showing the machine's
  // own files stop this, or, where the grader's sandbox compiled it into a cache of its own, that
  // it is not on this machine at all; the impostor here isolates nothing (--bind / /).
  const body = `
  for (const path of [...policy.runtime.paths, ...policy.read]) options.push("--ro-bind", path, path);
  for (const path of policy.write) options.push("--bind", path, path);
  if (${GRADING}) {
    const compiled = policy.runtime.env.DENO_DIR + "/gen/file" + import.meta.filename + ".js";
    options.splice(0, options.length, "--bind", "/", "/", "--ro-bind", compiled, command.at(-1));
  }`;
  const module = `${chapter15(body)}
if (Deno.args.includes("--mode")) {${IMPOSTOR}}
`;
  const folder = await tree({
    "honest/ch15.ts": chapter15(HONEST_BINDS),
    "cached/ch15.ts": module,
  });
  const { list } = await grade([`${folder}/honest`, `${folder}/cached`]);
  assert.deepEqual(processesMentioning([folder]), [], "nothing of the class run is left running");
  assert.equal(marks(list[0], "bwrapCommand"), `${BWRAP_CASES}/${BWRAP_CASES}`);
  assert.equal(marks(list[1], "bwrapCommand"), `${BWRAP_CASES - 1}/${BWRAP_CASES}`);
  const lost = list[1].tests.find((t) => t.name.startsWith("bwrapCommand") && t.score === 0)!;
  assert.match(
    lost.output,
    /\/gen\/file\/.*ch15[^/]*\.js: (it is not on this machine|not the machine's own)/,
  );
});

/** How a hostile line must come out: refused unrun, or run and judged a sandbox that fails. */
type Outcome = "refused" | "fails";

Deno.test("Chapter 15: new hostile lines, tried again, get no mark and leave the grading machine as it was", async (t) => {
  const nonce = `ch15-escape-${crypto.randomUUID()}`;
  const results = await tree({ "class results.json": "[]" });
  const { policy, command, root, data, env, binds, mounts, honest, line } = effectLines();
  const lines: [string, string[], Outcome][] = [
    ["isolating nothing", line("--bind", "/", "/"), "fails"],
    [
      "isolating nothing, with every capability",
      line("--cap-add", "ALL", "--bind", "/", "/"),
      "fails",
    ],
    // A folder made through a bind of the machine's is made on the machine itself, by root as
    // the lesson runs the line: refused unrun (the throw-away root would have held it).
    [
      "/ writable, a folder made in /tmp",
      line("--bind", "/", "/", "--dir", `/tmp/${nonce}`),
      "refused",
    ],
    [
      "the class's results folder writable",
      line(...honest, "--bind", results, results, "--dir", `${results}/${nonce}`),
      "refused",
    ],
    [
      "the course folder writable",
      line(...honest, "--bind", ROOT, ROOT, "--dir", `${ROOT}${nonce}`),
      "refused",
    ],
    [
      "/sys writable",
      line(...honest, "--bind", "/sys", "/sys", "--dir", `/sys/${nonce}`),
      "refused",
    ],
    // Where this machine has no such disk, bwrap would stop at the line: refused unrun.
    [
      "a disk's device",
      line(...honest, "--dev-bind", "/dev/vda", "/opt/disk"),
      THIS_MACHINE.exists("/dev/vda") ? "fails" : "refused",
    ],
    [
      "a process's root, no user namespace",
      line(
        "--unshare-pid",
        "--unshare-net",
        "--die-with-parent",
        "--clearenv",
        ...env,
        ...binds,
        "--bind",
        "/proc",
        "/proc",
        "--dir",
        `/proc/${Deno.pid}/root/tmp/${nonce}`,
      ),
      "refused",
    ],
    ["pid 1's root bound", line(...honest, "--bind", "/proc/1/root", "/opt/host"), "refused"],
    ["bwrap's own /proc descriptor", line(...honest, "--bind", "/dev/fd/3", "/opt/p"), "refused"],
    ["uid 0 inside", line(...honest, "--uid", "0"), "refused"],
    ["a user namespace by descriptor", line(...honest, "--userns", "3"), "refused"],
    ["a seccomp filter by descriptor", line(...honest, "--seccomp", "3"), "refused"],
    ["another seccomp filter by descriptor", line(...honest, "--add-seccomp-fd", "3"), "refused"],
    ["a file by descriptor", line(...honest, "--file", "3", "/etc/ld.so.preload"), "refused"],
    ["data by descriptor", line(...honest, "--bind-data", "3", `${data}/note.txt`), "refused"],
    ["an SELinux label", line(...honest, "--exec-label", "unconfined_t"), "refused"],
    ["permissions changed", line(...honest, "--chmod", "0777", data), "refused"],
    [
      "the Deno binary swapped",
      line(...honest, "--ro-bind", "/usr/bin/true", command[0]),
      "refused",
    ],
    [
      "a library swapped",
      line(...honest, "--ro-bind", `${data}/note.txt`, "/usr/lib/libc.so"),
      "refused",
    ],
    [
      "Deno's cache swapped",
      line(...honest, "--bind", data, policy.runtime.env.DENO_DIR),
      "refused",
    ],
    [
      "a preload list",
      line(...honest, "--ro-bind", `${data}/note.txt`, "/etc/ld.so.preload"),
      "refused",
    ],
    [
      "a preload list by a link",
      line(...honest, "--symlink", `${data}/note.txt`, "/etc/ld.so.preload"),
      "refused",
    ],
    ["another root under the runtime", line("--bind", root, "/", ...honest), "refused"],
    [
      "a variable that preloads",
      line(...honest, "--setenv", "LD_PRELOAD", `${data}/note.txt`),
      "refused",
    ],
    [
      // Made on the machine, in the playground: the grader, reading there, would never end.
      "a link to /dev/zero where the intruder writes",
      line(...honest, "--bind", data, data, "--symlink", "/dev/zero", `${data}/planted.txt`),
      "refused",
    ],
    [
      "a link to the class's results where the intruder writes",
      line(
        ...honest,
        "--bind",
        data,
        data,
        "--symlink",
        `${results}/class results.json`,
        `${data}/planted.txt`,
      ),
      "refused",
    ],
    [
      "a daemon's own session, no PID namespace, no --die-with-parent",
      line("--unshare-net", "--unshare-ipc", "--new-session", "--clearenv", ...env, ...mounts),
      "fails",
    ],
  ];
  const before = await machine([results], [ROOT, "/tmp"], nonce);
  const running = runningUids();
  for (const [label, argv, outcome] of lines) {
    await t.step(label, async () => {
      const effect = await effectOf(argv).catch((error) => error as Error);
      if (outcome === "refused") {
        assert.ok(effect instanceof CannotJudgeError, `${label}: ${JSON.stringify(effect)}`);
      } else if (bwrapRuns || !(effect instanceof Error)) {
        assert.ok(!(effect instanceof Error), `${label}: ${effect}`);
        assert.notDeepEqual(effect, EFFECT_EXPECTED, label);
      }
    });
  }
  assert.deepEqual(
    await machine([results], [ROOT, "/tmp"], nonce),
    before,
    "the machine is as it was",
  );
  assert.deepEqual(await stillRunning(running), [], "nothing is left running");
});

/**
 * The uids, of those running now and not in `before`, that still run 15 s
 * later. Tests beside this one start throw-away roots too, each with a new
 * uid whose processes end with its line; one this test's lines left keeps
 * running.
 */
async function stillRunning(before: readonly number[]): Promise<number[]> {
  const fresh = runningUids().filter((uid) => !before.includes(uid));
  const deadline = Date.now() + 15_000;
  let left = fresh;
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = runningUids();
    left = fresh.filter((uid) => now.includes(uid));
  }
  return left;
}

/** The uids of the processes running now. */
function runningUids(): number[] {
  const found = new Set<number>();
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name) || !isRunning(Number(entry.name))) continue;
    try {
      found.add(Deno.statSync(`/proc/${entry.name}`).uid!);
    } catch {
      // Gone meanwhile.
    }
  }
  return [...found];
}

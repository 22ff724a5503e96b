// `deno task lab`, as a learner starts it from a fresh course folder: it makes
// the learner's copies in work/, and serves JupyterLab on 127.0.0.1 with the
// course folder as its root (lib/ can be opened) and the Deno kernel alone,
// which starts for the learner's copy of Unit A; the address it prints opens
// that copy. A second `deno task lab` prints the first one's address and
// starts nothing. Ended as Ctrl-C ends it (SIGINT to each process of its
// group, here with no terminal on its stdin), it ends in JupyterLab's own
// words and leaves nothing running. All of it on a busy machine, as a
// learner's may be (held to half of one CPU): the test waits for what starts
// as long as it takes, bounded only against a hang.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { VENV } from "../tools/jupyter/jupyter.ts";
import { denoKernelEnv } from "../tools/jupyter/kernelspec.ts";
import { markedProcesses } from "./browser/lab_server.ts";
import { halfCpu } from "./_busy.ts";
import { readStat } from "../lib/mcp/client/process_group.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const installed = await Deno.stat(`${VENV}bin/jupyter-lab`).then(() => true, () => false);
const MARK = "COURSE_LAB_TASK_TEST";
/** How long the test waits for JupyterLab, or a kernel, to start: a bound against a hang, not a timing. */
const HANG_MS = 600_000;
/** How long the test waits for JupyterLab to stop once its task is gone: a bound, not a timing. */
const STOP_MS = 60_000;

/** A fresh course folder: the files `deno task lab` uses, the library and the environment linked. */
async function freshCourse(): Promise<string> {
  const course = await Deno.makeTempDir({ prefix: "course-lab-" });
  for (
    const file of [
      "deno.json",
      "tools/lab.ts",
      "tools/learner_copies.ts",
      "tools/grading/typed_path.ts",
      "tools/jupyter/jupyter.ts",
      "tools/jupyter/held_lab.py",
    ]
  ) {
    await Deno.mkdir(`${course}/${file}`.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.copyFile(`${root}${file}`, `${course}/${file}`);
  }
  await Deno.mkdir(`${course}/notebooks`);
  for await (const entry of Deno.readDir(`${root}notebooks`)) {
    if (!entry.isFile || !entry.name.endsWith(".ipynb") || entry.name.startsWith(".")) continue;
    await Deno.copyFile(`${root}notebooks/${entry.name}`, `${course}/notebooks/${entry.name}`);
  }
  await Deno.symlink(`${root}lib`, `${course}/lib`);
  await Deno.symlink(VENV, `${course}/.venv`);
  return course;
}

async function answer(url: string): Promise<Response | undefined> {
  return await fetch(url, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
}

/** Wait, as long as JupyterLab takes to start, until `base` answers, failing if `task` ends first. */
async function untilAnswering(base: string, token: string, task: Deno.ChildProcess) {
  const ended = task.status.then(() => true);
  const deadline = Date.now() + HANG_MS;
  while (!(await answer(`${base}api/status?token=${token}`))?.ok) {
    const waited = new Promise<false>((resolve) => setTimeout(() => resolve(false), 250));
    assert.ok(
      !await Promise.race([ended, waited]),
      "deno task lab ended before JupyterLab answered",
    );
    assert.ok(Date.now() < deadline, `JupyterLab did not answer within ${HANG_MS / 1000} s`);
  }
}

/** A free port on 127.0.0.1. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  listener.close();
  return (listener.addr as Deno.NetAddr).port;
}

/** The arguments of `deno task lab` on `port` alone, with `token`, and no browser. */
function labTask(port: number, token: string): string[] {
  return [
    "task",
    "lab",
    "--no-browser",
    `--port=${port}`,
    "--port-retries=0",
    `--IdentityProvider.token=${token}`,
  ];
}

/** Start `command` (a `deno task lab`) in `cwd` with `env`: the process, and all it will print. */
function startLab(command: string[], cwd: string, env: Record<string, string>) {
  const task = new Deno.Command(command[0], {
    args: command.slice(1),
    cwd,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // Both streams in one list, each chunk as it comes: what JupyterLab printed after its stop is
  // after the stop's line, whichever stream it took.
  const chunks: string[] = [];
  const output = Promise.all(
    [task.stdout, task.stderr].map(async (stream) => {
      for await (const chunk of stream.pipeThrough(new TextDecoderStream())) chunks.push(chunk);
    }),
  ).then(() => chunks);
  return { task, output };
}

/** The environment of a `deno task lab` of the test's: Jupyter's folders in `home`, and `mark`. */
async function labEnv(home: string, mark: string): Promise<Record<string, string>> {
  return {
    NO_COLOR: "1",
    ...await denoKernelEnv(),
    JUPYTER_CONFIG_DIR: `${home}/config`,
    JUPYTER_RUNTIME_DIR: `${home}/runtime`,
    JUPYTERLAB_WORKSPACES_DIR: `${home}/workspaces`,
    [MARK]: mark,
  };
}

/**
 * A `deno task lab` of `eachLab`'s, answering: the task, all it will print, its mark and group,
 * and the address of JupyterLab's REST API with its token.
 */
interface StartedLab {
  api: (path: string) => string;
  task: Deno.ChildProcess;
  output: Promise<string[]>;
  mark: string;
  group: number;
}

/**
 * For each of `rounds`, a `deno task lab` started in one fresh course, on one port and
 * runtime folder, and handed to `end` once JupyterLab answers, to be ended; any process of
 * theirs left running is killed, and the course removed, at the end.
 */
async function eachLab<T>(rounds: readonly T[], end: (round: T, lab: StartedLab) => Promise<void>) {
  const course = await freshCourse();
  const home = await Deno.makeTempDir({ prefix: "course-lab-home-" });
  const port = freePort();
  const token = crypto.randomUUID();
  const marks: string[] = [];
  try {
    for (const round of rounds) {
      const mark = crypto.randomUUID();
      marks.push(mark);
      const { task, output } = startLab(
        [Deno.execPath(), ...labTask(port, token)],
        course,
        await labEnv(home, mark),
      );
      await untilAnswering(`http://127.0.0.1:${port}/`, token, task);
      const group = readStat(task.pid)!.pgrp;
      const api = (path: string) => `http://127.0.0.1:${port}/api/${path}?token=${token}`;
      await end(round, { api, task, output, mark, group });
    }
  } finally {
    const left = marks.flatMap((mark) => markedProcesses(MARK, mark));
    for (const { pid } of left) Deno.kill(pid, "SIGKILL");
    await Deno.remove(course, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
}

/** Execute `code` in the kernel behind `url`; resolve with what it printed once it is idle. */
function runCell(url: string, code: string): Promise<string> {
  const socket = new WebSocket(url);
  const msgId = crypto.randomUUID();
  let printed = "";
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no reply from the kernel; printed ${printed}`)),
      HANG_MS,
    );
    socket.onerror = () => reject(new Error("the kernel's websocket failed"));
    socket.onopen = () =>
      socket.send(JSON.stringify({
        header: {
          msg_id: msgId,
          msg_type: "execute_request",
          session: msgId,
          username: "test",
          version: "5.3",
        },
        parent_header: {},
        metadata: {},
        content: {
          code,
          silent: false,
          store_history: true,
          user_expressions: {},
          allow_stdin: false,
        },
        channel: "shell",
      }));
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.parent_header?.msg_id !== msgId) return;
      if (message.msg_type === "stream") printed += message.content.text;
      if (message.msg_type === "status" && message.content.execution_state === "idle") {
        clearTimeout(timer);
        resolve(printed);
      }
    };
  }).finally(() => socket.close());
}

Deno.test({
  name: "deno task lab serves JupyterLab at the course's root with the Deno kernel",
  ignore: !installed,
  async fn() {
    // The task with all it starts held to half of one CPU: as busy as beside two loops on two CPUs.
    await using cpu = await halfCpu();
    const course = await freshCourse();
    const home = await Deno.makeTempDir({ prefix: "course-lab-home-" });
    const port = freePort();
    const token = crypto.randomUUID();
    const mark = crypto.randomUUID();
    // A mark of the second `deno task lab`'s own: what it starts carries it, whatever the first
    // one starts meanwhile (on a busy machine, the first one's kernel may still be starting).
    const secondMark = crypto.randomUUID();
    const env = await labEnv(home, mark);
    // Typed in a folder of the course, as `deno task` allows: INIT_CWD names it.
    const { task, output } = startLab(
      cpu.argv([Deno.execPath(), ...labTask(port, token)]),
      `${course}/notebooks`,
      env,
    );
    const base = `http://127.0.0.1:${port}/`;
    let shown = "";
    let ended: Deno.CommandStatus | undefined;
    const api = async (path: string, init?: RequestInit) => {
      const response = await fetch(`${base}api/${path}?token=${token}`, init);
      assert.ok(response.ok, `${path}: ${response.status}`);
      return await response.json();
    };
    try {
      // As long as JupyterLab takes to start on a busy machine, while the task still runs.
      await untilAnswering(base, token, task);
      const rootNames = (await api("contents/")).content.map((item: { name: string }) => item.name);
      for (const name of ["lib", "notebooks", "work"]) assert.ok(rootNames.includes(name), name);
      const work = (await api("contents/work")).content.map((item: { name: string }) => item.name);
      assert.ok(work.includes("ch14-a.ipynb"), `the learner's copies: ${work}`);
      assert.ok((await api("contents/lib/mcp/client/client.ts")).content.includes("class Client"));
      const kernelspecs = await api("kernelspecs");
      assert.deepEqual(Object.keys(kernelspecs.kernelspecs), ["deno"]);
      assert.equal(kernelspecs.default, "deno", "the default kernel is one JupyterLab offers");
      // No question about Jupyter's news over the learner's first grade tables.
      const notification = await (await fetch(
        `${base}lab/api/settings/@jupyterlab/apputils-extension:notification?token=${token}`,
      )).json();
      // The course's overrides set the default: "false" (Never) where JupyterLab's is "none" (Ask).
      assert.equal(notification.schema.properties.fetchNews.default, "false");
      const page = await fetch(`${base}lab?token=${token}`);
      assert.match(await page.text(), /JupyterLab/);
      const session = await api("sessions", {
        method: "POST",
        body: JSON.stringify({
          path: "work/ch14-a.ipynb",
          type: "notebook",
          kernel: { name: "deno" },
        }),
      });
      // Run a cell in the learner's copy through the kernel's websocket, as the page does.
      const printed = await runCell(
        `ws://127.0.0.1:${port}/api/kernels/${session.kernel.id}/channels?token=${token}`,
        // As a notebook's first cell does, import the course's display module (and its flush).
        'await import("../lib/notebook/display.ts"); console.log(`deno ${Deno.version.deno}, in ${Deno.cwd()}, typed in ${Deno.env.get("INIT_CWD")}`)',
      );
      // JupyterLab's kernels and terminals have no INIT_CWD: a `deno task grade` typed in one of its
      // terminals would inherit it (a task keeps one it inherits) and take its paths from there.
      assert.match(printed, /^deno 2\.9\.\d+, in .*\/work, typed in undefined\n$/);

      // A second `deno task lab` on the same folder starts nothing, and says where the first is.
      const second = await new Deno.Command(Deno.execPath(), {
        args: ["task", "lab", "--no-browser", "--port-retries=0"],
        cwd: course,
        env: { ...env, [MARK]: secondMark },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const said = new TextDecoder().decode(second.stdout);
      assert.equal(second.code, 0, new TextDecoder().decode(second.stderr));
      assert.match(said, /JupyterLab already runs for this course folder/);
      assert.ok(
        said.includes(`http://127.0.0.1:${port}/lab/tree/work/ch14-a.ipynb?token=${token}`),
        said,
      );
      assert.deepEqual(markedProcesses(MARK, secondMark), [], "the second one started something");
    } finally {
      // The task runs tools/lab.ts, which runs jupyter-lab, which runs the kernel. Ctrl-C in a
      // terminal, or a stop from an editor that runs the task, sends SIGINT to each process of the
      // task's group: JupyterLab, which took SIGINT without a terminal for KeyboardInterrupt and
      // left, its kernel running, must hear of it only from tools/lab.ts.
      const group = readStat(task.pid)?.pgrp;
      for (const { pid } of markedProcesses(MARK, mark)) {
        if (group === undefined || readStat(pid)?.pgrp !== group) continue;
        try {
          Deno.kill(pid, "SIGINT");
        } catch { /* gone already */ }
      }
      for (const { pid } of markedProcesses(MARK, secondMark)) {
        try {
          Deno.kill(pid, "SIGTERM");
        } catch { /* gone already */ }
      }
      ended = await task.status;
      // Before its output: a process left running holds the task's pipes open.
      const left = [mark, secondMark].flatMap((it) => markedProcesses(MARK, it));
      for (const { pid } of left) Deno.kill(pid, "SIGKILL");
      shown = (await output).join("");
      await Deno.remove(course, { recursive: true });
      await Deno.remove(home, { recursive: true });
      assert.deepEqual(left, [], "processes outlived deno task lab");
    }
    // The address JupyterLab prints opens the learner's Unit A, not the Launcher.
    assert.match(shown, /\/lab\/tree\/work\/ch14-a\.ipynb\?token=/);
    // Ctrl-C ends it in JupyterLab's own words. held_lab.py's thread that waits for the end of
    // JupyterLab's input held stdin's lock as JupyterLab stopped: each stop but a SIGKILL ended in
    // `Fatal Python error: _enter_buffered_busy` and a dump of threads to the learner's terminal,
    // and exit code 134. (A closed terminal, SIGHUP, or a stop, SIGTERM, takes the same way out:
    // tools/lab.ts's SIGTERM to JupyterLab.)
    assert.doesNotMatch(shown, /Fatal Python error/);
    const stop = shown.indexOf("received signal 15, stopping");
    assert.notEqual(stop, -1, shown);
    // What JupyterLab printed once stopping: its own words, no Python traceback. (A traceback of
    // JupyterLab's while it served, a language server's probe, say, is JupyterLab's to answer for,
    // not the stop's: it is shown here, with its lines, where this test's output has it.)
    assert.doesNotMatch(shown.slice(stop), /Traceback/, shown.slice(stop));
    const served = shown.slice(0, stop);
    if (served.includes("Traceback")) {
      console.warn(
        `JupyterLab printed a traceback as it served:\n${
          served.slice(served.indexOf("Traceback"))
        }`,
      );
    }
    assert.equal(ended?.code, 0, shown);
  },
});

Deno.test({
  name: "a deno task lab SIGKILLed leaves no JupyterLab running, and the next one starts",
  ignore: !installed,
  async fn() {
    // Killed, JupyterLab served on with its kernels (in a session of its own, it hears no signal of
    // the task's group), and the next `deno task lab` said to stop it with Ctrl-C in a terminal
    // that no longer ran it. First the task alone, as `kill -9 PID` kills it; then the task with
    // tools/lab.ts, as an editor's force stop kills the task's process group. Each time, on the
    // same port and runtime folder, the next one starts.
    await eachLab(["the task", "its group"], async (killed, { task, output, mark, group }) => {
      const victims = killed === "the task"
        ? [task.pid]
        : markedProcesses(MARK, mark).map(({ pid }) => pid)
          .filter((pid) => readStat(pid)?.pgrp === group);
      for (const pid of victims) Deno.kill(pid, "SIGKILL");
      await task.status;
      const deadline = Date.now() + STOP_MS;
      while (markedProcesses(MARK, mark).length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      assert.deepEqual(
        markedProcesses(MARK, mark).map(({ cmdline }) => cmdline),
        [],
        `still running ${STOP_MS / 1000} s after ${killed} was SIGKILLed`,
      );
      // Nothing holds the task's pipes open any more.
      assert.doesNotMatch((await output).join(""), /already runs/);
    });
  },
});

Deno.test("deno task lab without JupyterLab says, in one line, to run set-up", async () => {
  // Set-up stopped before JupyterLab was in, or a Python too old for its pins: the task said it
  // in two lines, the second of them the one with what to do.
  const course = await freshCourse();
  try {
    await Deno.remove(`${course}/.venv`);
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "lab", "--no-browser"],
      cwd: course,
      env: { NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(code, 1);
    assert.equal(new TextDecoder().decode(stdout), "");
    assert.deepEqual(new TextDecoder().decode(stderr).trimEnd().split("\n"), [
      "lab: JupyterLab is not installed in this course folder yet: run `sh tools/setup.sh` (it " +
      "installs JupyterLab into .venv/ from PyPI, and Deno's kernel), then `deno task lab` again",
    ]);
  } finally {
    await Deno.remove(course, { recursive: true });
  }
});

Deno.test({
  name:
    "a JupyterLab killed under its deno task lab takes its kernels with it, and the task says so",
  ignore: !installed,
  async fn() {
    // Killed from outside (SIGKILL, or the machine short of memory), JupyterLab stopped none of its
    // kernels, each in a session of its own: they ran on, and the task ended without a word.
    await eachLab(["SIGKILL"] as const, async (signal, { api, task, output, mark }) => {
      const session = await fetch(api("sessions"), {
        method: "POST",
        body: JSON.stringify({
          path: "work/ch14-a.ipynb",
          type: "notebook",
          kernel: { name: "deno" },
        }),
      });
      assert.ok(session.ok, `a kernel: ${session.status}`);
      await session.body?.cancel();
      const marked = (part: string) =>
        markedProcesses(MARK, mark).filter(({ cmdline }) => cmdline.includes(part));
      const deadline = Date.now() + HANG_MS;
      while (marked("jupyter --kernel").length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      assert.equal(marked("jupyter --kernel").length, 1, "the kernel did not start");
      for (const { pid } of marked("held_lab.py")) Deno.kill(pid, signal);
      await task.status;
      const stopped = Date.now() + STOP_MS;
      while (markedProcesses(MARK, mark).length > 0 && Date.now() < stopped) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      // Before the task's output: a kernel left running holds its pipes open.
      const left = markedProcesses(MARK, mark);
      for (const { pid } of left) Deno.kill(pid, "SIGKILL");
      const lines = (await output).join("").trimEnd().split("\n");
      assert.equal(
        lines.at(-1),
        `lab: JupyterLab was stopped from outside (${signal}), and its kernels with it: what the ` +
          "notebooks had not saved is lost; run `deno task lab` again",
      );
      assert.deepEqual(left.map(({ cmdline }) => cmdline), []);
    });
  },
});

// JupyterLab 4 from the course's virtual environment, started for the browser
// test: on 127.0.0.1, a free port and a random token, serving a folder
// read-only (see lab_config.py) with settings of its own (no autosave, every
// cell kept on the page), the kernels it starts marked in their environment,
// and stopped with every one of those kernels, whatever happened.

import { fileURLToPath } from "node:url";
import { isRunning, signalGroup } from "../../lib/mcp/client/process_group.ts";
import { VENV } from "../../tools/jupyter/jupyter.ts";
import { denoKernelEnv } from "../../tools/jupyter/kernelspec.ts";

/** Options for {@linkcode startLabServer}. */
export interface LabServerOptions {
  /** Extra environment for the server and its kernels, such as `COURSE_WORK`. @default {{}} */
  env?: Record<string, string>;
  /** Where the server's own log is written (kept for people to read). */
  log: string;
  /**
   * How long the server may take to answer: a bound against a hang, not a
   * timing (JupyterLab took over a minute to start at load 8). @default {600_000}
   */
  startMs?: number;
}

/** A running JupyterLab server. */
export interface LabServer {
  /** The address that opens the notebook at `path` (in the served folder) in JupyterLab. */
  notebookUrl(path: string): string;
  /** Stop the server and every kernel it started; the processes it had to kill. */
  close(): Promise<string[]>;
  [Symbol.asyncDispose](): Promise<void>;
}

const MARK = "COURSE_BROWSER_TEST";

/**
 * The server runs under this shell, which sends it SIGTERM when the shell's
 * input ends: when `close()` ends it, or when this process dies, however it
 * dies. The shell exits with the server's status, as soon as the server exits.
 */
const WATCHDOG = [
  'exec 3<&0; "$@" 3<&- & server=$!',
  '{ cat <&3 >/dev/null; kill -TERM "$server" 2>/dev/null; } & exec 3<&-',
  'wait "$server"',
].join("\n");

/**
 * JupyterLab's settings for the test, by plugin: nothing saved, every cell
 * rendered (not only those in view, so the whole notebook can be read and
 * photographed), and no question about news.
 */
const SETTINGS: Record<string, unknown> = {
  "@jupyterlab/docmanager-extension/plugin": { autosave: false },
  "@jupyterlab/notebook-extension/tracker": { windowingMode: "none" },
  "@jupyterlab/apputils-extension/notification": { fetchNews: "false", checkForUpdates: false },
};

/** Start JupyterLab serving `root`, and resolve once it answers. */
export async function startLabServer(
  root: string,
  options: LabServerOptions,
): Promise<LabServer> {
  const port = freePort();
  const token = crypto.randomUUID().replaceAll("-", "");
  const run = crypto.randomUUID();
  const home = await Deno.makeTempDir({ prefix: "lab-server-" });
  for (const [plugin, values] of Object.entries(SETTINGS)) {
    const file = `${home}/settings/${plugin}.jupyterlab-settings`;
    await Deno.mkdir(file.slice(0, file.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(file, JSON.stringify(values));
  }
  const base = `http://127.0.0.1:${port}/`;
  // Both streams to the log, as they come (a pipe nobody reads would stall the server).
  await Deno.writeTextFile(options.log, "");
  const logs = [
    await Deno.open(options.log, { append: true }),
    await Deno.open(options.log, { append: true }),
  ];
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("sh", {
      args: [
        "-c",
        WATCHDOG,
        "sh",
        `${VENV}bin/jupyter-lab`,
        "--no-browser",
        "--allow-root",
        "--ip=127.0.0.1",
        `--port=${port}`,
        "--port-retries=0",
        `--ServerApp.root_dir=${root}`,
        `--IdentityProvider.token=${token}`,
        "--NotebookNotary.db_file=:memory:",
        `--config=${fileURLToPath(new URL("lab_config.py", import.meta.url))}`,
      ],
      // Configuration, runtime, settings and workspace folders of its own: no
      // user settings, nothing left in the user's folders.
      env: {
        ...options.env,
        ...await denoKernelEnv(),
        NO_COLOR: "1",
        JUPYTER_CONFIG_DIR: `${home}/config`,
        JUPYTER_RUNTIME_DIR: `${home}/runtime`,
        JUPYTERLAB_SETTINGS_DIR: `${home}/settings`,
        JUPYTERLAB_WORKSPACES_DIR: `${home}/workspaces`,
        [MARK]: run,
      },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
  } catch (error) {
    for (const log of logs) log.close();
    await Deno.remove(home, { recursive: true });
    throw new Error(
      `Could not start JupyterLab from ${VENV} (sh tools/setup.sh test installs it): ${error}`,
    );
  }
  const copied = Promise.all([copy(child.stdout, logs[0]), copy(child.stderr, logs[1])]);

  let closing: Promise<string[]> | undefined;
  const server: LabServer = {
    notebookUrl: (path) =>
      `${base}lab/tree/${path.split("/").map(encodeURIComponent).join("/")}?reset&token=${token}`,
    close: () => closing ??= stop(child, run, copied, home),
    [Symbol.asyncDispose]: async () => {
      await server.close();
    },
  };
  try {
    await answering(`${base}api/status?token=${token}`, child, options.startMs ?? 600_000);
  } catch (error) {
    await server.close();
    const tail = (await Deno.readTextFile(options.log)).trim().split("\n").slice(-10).join("\n");
    throw new Error(`${(error as Error).message}; its log (${options.log}) ends:\n${tail}`);
  }
  return server;
}

/**
 * Append what `stream` gives to `file` as it comes, then close the file.
 * (`pipeTo(file.writable)` held the lines back until the end, here.)
 */
async function copy(stream: ReadableStream<Uint8Array>, file: Deno.FsFile): Promise<void> {
  try {
    for await (let chunk of stream) {
      while (chunk.length > 0) chunk = chunk.subarray(await file.write(chunk));
    }
  } finally {
    file.close();
  }
}

/** A port nothing listens on now (the server is told not to try another). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Resolve when `url` answers 200; reject when the server exits or `ms` pass first. */
async function answering(url: string, child: Deno.ChildProcess, ms: number): Promise<void> {
  const deadline = AbortSignal.timeout(ms);
  let exited: Deno.CommandStatus | undefined;
  child.status.then((status) => exited = status);
  while (true) {
    if (exited) {
      throw new Error(`JupyterLab exited with code ${exited.code} before answering`);
    }
    if (deadline.aborted) throw new Error(`JupyterLab did not answer ${url} within ${ms} ms`);
    const answer = await fetch(url, {
      signal: AbortSignal.any([deadline, AbortSignal.timeout(2000)]),
    })
      .catch(() => undefined);
    await answer?.body?.cancel();
    if (answer?.ok) return;
    // Not listening yet: look again in a moment (the server announces nothing else we could await).
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Stop the server: end the watchdog's input, so that it sends the server
 * SIGTERM, on which the server shuts its kernels down and exits; SIGKILL to
 * the group if that takes over 20 s; then SIGKILL to any process still
 * carrying this run's mark (a kernel runs in a session of its own, outside
 * the server's group). Returns what had to be killed in that last step.
 */
async function stop(
  child: Deno.ChildProcess,
  run: string,
  copied: Promise<unknown>,
  home: string,
): Promise<string[]> {
  child.stdin.close().catch(() => {}); // not awaited: the watchdog may be gone already
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ended = await Promise.race([
    child.status.then(() => true),
    new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), 20_000)),
  ]);
  clearTimeout(timer);
  if (!ended) signalGroup(child.pid, "SIGKILL");
  await child.status;
  await copied.catch(() => {});
  const killed = markedProcesses(MARK, run).map(({ pid, cmdline }) => {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // It ended on its own meanwhile.
    }
    return `${pid}: ${cmdline}`;
  });
  await Deno.remove(home, { recursive: true }).catch(() => {});
  return killed;
}

/** Live processes whose environment holds `name=value`: a run's mark. */
export function markedProcesses(name: string, value: string): { pid: number; cmdline: string }[] {
  const found = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name) || Number(entry.name) === Deno.pid) continue;
    if (!isRunning(entry.name)) continue;
    try {
      const environ = Deno.readTextFileSync(`/proc/${entry.name}/environ`);
      if (!environ.split("\0").includes(`${name}=${value}`)) continue;
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`);
      found.push({ pid: Number(entry.name), cmdline: cmdline.replaceAll("\0", " ").trim() });
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

// Debian's classic Jupyter Notebook server, started for the browser test: on
// 127.0.0.1, a free port and a random token, serving a folder read-only (see
// read_only_config.py) with the kernels it starts marked in their environment,
// and stopped with every one of those kernels, whatever happened.

import { readStat, signalGroup } from "../../lib/process_group.ts";
import { fileURLToPath } from "node:url";

/** Options for {@linkcode startNotebookServer}. */
export interface NotebookServerOptions {
  /** Extra environment for the server and its kernels, such as `COURSE_WORK`. @default {{}} */
  env?: Record<string, string>;
  /** Where the server's own log is written (kept for people to read). */
  log: string;
  /** How long the server may take to answer. @default {60_000} */
  startMs?: number;
}

/** A running Notebook server. */
export interface NotebookServer {
  /** The address that opens the notebook at `path` (in the served folder), with the token. */
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

/** Start `jupyter-notebook` serving `root`, and resolve once it answers. */
export async function startNotebookServer(
  root: string,
  options: NotebookServerOptions,
): Promise<NotebookServer> {
  const port = freePort();
  const token = crypto.randomUUID().replaceAll("-", "");
  const run = crypto.randomUUID();
  const home = await Deno.makeTempDir({ prefix: "notebook-server-" });
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
        "jupyter-notebook",
        "--no-browser",
        "--allow-root",
        "--ip=127.0.0.1",
        `--port=${port}`,
        "--port-retries=0",
        `--notebook-dir=${root}`,
        `--NotebookApp.token=${token}`,
        "--NotebookNotary.db_file=:memory:",
        `--config=${fileURLToPath(new URL("read_only_config.py", import.meta.url))}`,
      ],
      // A configuration and runtime folder of its own: no user settings, no
      // connection files left in the user's folders.
      env: {
        ...options.env,
        NO_COLOR: "1",
        JUPYTER_CONFIG_DIR: `${home}/config`,
        JUPYTER_RUNTIME_DIR: `${home}/runtime`,
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
      `Could not start jupyter-notebook (sh tools/setup.sh test installs it): ${error}`,
    );
  }
  const copied = Promise.all([copy(child.stdout, logs[0]), copy(child.stderr, logs[1])]);

  let closing: Promise<string[]> | undefined;
  const server: NotebookServer = {
    notebookUrl: (path) => `${base}notebooks/${path}?token=${token}`,
    close: () => closing ??= stop(child, run, copied, home),
    [Symbol.asyncDispose]: async () => {
      await server.close();
    },
  };
  try {
    await answering(`${base}api/status?token=${token}`, child, options.startMs ?? 60_000);
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
      throw new Error(`jupyter-notebook exited with code ${exited.code} before answering`);
    }
    if (deadline.aborted) throw new Error(`jupyter-notebook did not answer ${url} within ${ms} ms`);
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
  const killed = marked(run).map(({ pid, cmdline }) => {
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

/** Live processes whose environment carries this run's mark. */
function marked(run: string): { pid: number; cmdline: string }[] {
  const found = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name) || Number(entry.name) === Deno.pid) continue;
    const state = readStat(entry.name)?.state;
    if (state === undefined || state === "Z" || state === "X") continue;
    try {
      const environ = Deno.readTextFileSync(`/proc/${entry.name}/environ`);
      if (!environ.split("\0").includes(`${MARK}=${run}`)) continue;
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`);
      found.push({ pid: Number(entry.name), cmdline: cmdline.replaceAll("\0", " ").trim() });
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

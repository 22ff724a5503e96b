/**
 * The server as a child process: started as its own process group with piped
 * stdio and a small environment, its stderr drained into a bounded tail, and
 * ended, with everything it started, in the order the MCP stdio transport
 * describes.
 *
 * @module
 */

import { drain, sleep, within } from "../shared/_async.ts";
import { leaderlessGroupAlive, signalGroup } from "./process_group.ts";
import { StderrTail } from "./stderr_tail.ts";

/** Environment variables a server inherits, as the MCP SDK's stdio transport passes on. */
// MCP_COURSE_SUITE is the course's test-run mark (tools/suite_mark.ts): a server keeps it, so
// that the run which started it can tell it is still running.
const INHERITED_ENV = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
  "TMPDIR",
  "DENO_DIR",
  "MCP_COURSE_SUITE",
];

/**
 * The small environment a server is started with: `NO_COLOR=1`, and the
 * variables the MCP SDK's stdio transport passes on, where they are set (and
 * the course's test-run mark).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const env = serverEnv();
 * assert.equal(env.NO_COLOR, "1");
 * assert.ok(Object.keys(env).every((name) => /^(NO_COLOR|HOME|LOGNAME|PATH|SHELL|TERM|USER|TMPDIR|DENO_DIR|MCP_COURSE_SUITE)$/.test(name)));
 * ```
 */
export function serverEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const name of INHERITED_ENV) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** One step of closing a server, at a `performance.now()` time. */
export interface CloseStep {
  at: number;
  what: string;
}

/** Options for {@linkcode ServerProcess}. */
export interface ServerProcessOptions {
  /** Variables added to the small inherited environment. @default {{ NO_COLOR: "1" }} */
  env?: Record<string, string>;
  /** The server's working folder. @default {the current folder} */
  cwd?: string;
  /** How long each step of closing waits before the next, harder one. @default {1000} */
  graceMs?: number;
  /** Receives each line the server writes on stderr. @default {undefined} */
  onStderrLine?: (line: string) => void;
}

/**
 * A running server. Construction starts it; {@linkcode ServerProcess.close}
 * ends it and every process left in its group.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const server = new ServerProcess(["sh", "-c", "cat >/dev/null"]);
 * const status = await server.close();
 * assert.equal(status.code, 0);
 * ```
 */
export class ServerProcess {
  /** The server's pid, which is also its process-group id. */
  readonly pid: number;
  /** What the server writes on stdout; read it once, and stop when {@linkcode closed} aborts. */
  readonly stdout: ReadableStream<Uint8Array>;
  /** Aborted when closing has ended the server and its group: reading should stop. */
  readonly closed: AbortSignal;
  /** Resolves with the server's exit status when it exits, for whatever reason. */
  readonly exited: Promise<Deno.CommandStatus>;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #tail: StderrTail;
  readonly #draining: Promise<void>;
  readonly #graceMs: number;
  readonly #stop = new AbortController();
  readonly #steps: CloseStep[] = [];
  #closing?: Promise<Deno.CommandStatus>;
  #unread = 0;

  /** Start `command` (program and arguments). Throws `Deno.errors.NotFound` if it does not exist. */
  constructor(command: readonly string[], options: ServerProcessOptions = {}) {
    if (command.length === 0) throw new TypeError("The server command is empty");
    const child = new Deno.Command(command[0], {
      args: command.slice(1),
      cwd: options.cwd,
      env: { ...serverEnv(), ...options.env },
      clearEnv: true,
      detached: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.pid = child.pid;
    this.stdout = child.stdout;
    this.exited = child.status.then((status) => {
      this.#step(`exited: ${describeExit(status)}`);
      return status;
    });
    this.closed = this.#stop.signal;
    this.#writer = child.stdin.getWriter();
    this.#graceMs = options.graceMs ?? 1000;
    this.#tail = new StderrTail({ onLine: options.onStderrLine });
    this.#draining = drain(child.stderr, this.closed, {
      onChunk: (chunk) => this.#tail.push(chunk),
    });
  }

  /** Write `bytes` to the server's stdin, after anything written before. */
  send(bytes: Uint8Array): Promise<void> {
    this.#unread += bytes.length;
    return this.#writer.write(bytes).then(() => void (this.#unread -= bytes.length));
  }

  /** How many bytes sent are still waiting for the server to read them, in this process's memory. */
  get unread(): number {
    return this.#unread;
  }

  /** The last lines the server wrote on stderr. */
  stderrLines(): string[] {
    return this.#tail.lines();
  }

  /**
   * What closing did, and when (`performance.now()` times): the input closed,
   * each signal sent to the group, the server's exit.
   */
  closeSteps(): CloseStep[] {
    return [...this.#steps];
  }

  #step(what: string): void {
    this.#steps.push({ at: performance.now(), what });
  }

  /**
   * End the server: close its stdin and give it `graceMs` to exit, then
   * SIGTERM its whole process group, then SIGKILL. Once the server has
   * exited, any process still alive in its group (a grandchild it started) is
   * ended the same way. Resolves with the server's exit status, only after it
   * has exited; calling it again returns the same promise.
   */
  close(): Promise<Deno.CommandStatus> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<Deno.CommandStatus> {
    // Not awaited: closing blocks while a server that stopped reading leaves the pipe full.
    this.#writer.close().catch(() => {});
    this.#step("stdin closed");
    let status = await within(this.exited, this.#graceMs);
    if (status === undefined) {
      signalGroup(this.pid, "SIGTERM");
      this.#step("SIGTERM to the process group");
      status = await within(this.exited, this.#graceMs);
    }
    if (status === undefined) {
      signalGroup(this.pid, "SIGKILL");
      this.#step("SIGKILL to the process group");
      status = await this.exited;
    }
    await this.#endGroup();
    this.#stop.abort();
    if (!this.stdout.locked) await this.stdout.cancel();
    await this.#draining;
    return status;
  }

  /** End what is left of the group after its leader has exited. */
  async #endGroup(): Promise<void> {
    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      if (!leaderlessGroupAlive(this.pid)) return;
      signalGroup(this.pid, signal);
      this.#step(`${signal} to what was left of the group`);
      const deadline = Date.now() + this.#graceMs;
      while (Date.now() < deadline && leaderlessGroupAlive(this.pid)) await sleep(10);
    }
  }
}

/**
 * A server's exit status in a few characters: `0`, `3`, or `143 (SIGTERM)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(describeExit({ success: false, code: 143, signal: "SIGTERM" }), "143 (SIGTERM)");
 * assert.equal(describeExit({ success: true, code: 0, signal: null }), "0");
 * ```
 */
export function describeExit(status: Deno.CommandStatus): string {
  return status.signal === null ? String(status.code) : `${status.code} (${status.signal})`;
}

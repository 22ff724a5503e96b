/**
 * A server that runs in this process, behind the same {@linkcode Transport} a
 * child process has: what the client writes is the server's stdin, what the
 * server writes is the client's readable, and the server's exit (or a kill)
 * closes its output and settles its status. The server's stderr is bounded
 * as a pipe is: a server that writes more than a pipe holds to a stderr
 * nobody reads waits until it is read. The autograder's sandbox may not
 * start processes, so it gives a learner's client its server this way.
 *
 * @module
 */

import { describeError } from "../shared/errors.ts";
import type { ServerStatus, Transport } from "../shared/transport.ts";

/** What a server running in this process reads and writes. */
export interface ServerIo {
  /** What the client writes; it ends when the client closes its side. */
  readonly stdin: ReadableStream<Uint8Array>;
  /** Send bytes to the client, as one chunk. */
  stdout(bytes: Uint8Array): void;
  /**
   * Write bytes to the server's stderr, as one chunk. Resolves once the pipe
   * has room again: at once while it holds less than
   * {@linkcode STDERR_CAPACITY} bytes, otherwise only when the client reads
   * it (or the server is killed), as a write to a full pipe blocks.
   */
  stderr(bytes: Uint8Array): Promise<void>;
  /** Aborted when the server is killed: a server that would wait forever waits on this. */
  readonly signal: AbortSignal;
}

/** A server's body: it serves `io` and resolves with its exit code. */
export type ServerMain = (io: ServerIo) => Promise<number>;

/** How many bytes the server's stderr holds unread before a write waits: a Linux pipe's 64 KiB. */
export const STDERR_CAPACITY = 65536;

/** The exit status of a killed process, as `Deno.Command` reports it. */
const KILLED: ServerStatus = { code: 137, signal: "SIGKILL" };

/**
 * Start `main` and give the client its {@linkcode Transport}. The server
 * exits with the code `main` resolves with; if `main` throws, it exits with
 * code 1 and the error on its stderr, as Deno does. After it has exited, a
 * write to its stdin fails with `Deno.errors.BrokenPipe`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const echo = startInProcess(async (io) => {
 *   for await (const chunk of io.stdin) io.stdout(chunk);
 *   return 0;
 * });
 * const writer = echo.writable.getWriter();
 * await writer.write(new TextEncoder().encode("hello\n"));
 * await writer.close();
 * assert.equal(await new Response(echo.readable).text(), "hello\n");
 * assert.deepEqual(await echo.status, { code: 0, signal: null });
 *
 * const stuck = startInProcess((io) => new Promise((resolve) => io.signal.onabort = () => resolve(0)));
 * stuck.kill();
 * assert.deepEqual(await stuck.status, { code: 137, signal: "SIGKILL" });
 * ```
 *
 * @example A server that logs more than a pipe holds waits until its stderr is read
 * ```ts
 * import assert from "node:assert/strict";
 *
 * let logged = false;
 * const chatty = startInProcess(async (io) => {
 *   await io.stderr(new Uint8Array(200_000));
 *   logged = true;
 *   return 0;
 * });
 * await new Promise((resolve) => setTimeout(resolve, 50));
 * assert.equal(logged, false, "nobody read its stderr: it still waits");
 * assert.equal((await new Response(chatty.stderr).arrayBuffer()).byteLength, 200_000);
 * assert.equal(logged, true);
 * ```
 */
export function startInProcess(main: ServerMain): Transport {
  const stdin = pipe();
  const stdout = pipe();
  const stderr = pipe({ later: true, capacity: STDERR_CAPACITY });
  const killer = new AbortController();
  let exited = false;
  let settle!: (status: ServerStatus) => void;
  const status = new Promise<ServerStatus>((resolve) => settle = resolve);
  const exit = (ended: ServerStatus) => {
    if (exited) return;
    exited = true;
    stdout.end();
    stderr.end();
    stdin.end();
    settle(ended);
  };
  const writable = new WritableStream<Uint8Array>({
    write(chunk) {
      if (exited) throw new Deno.errors.BrokenPipe("Broken pipe: the server has exited");
      stdin.push(chunk);
    },
    close: () => stdin.end(),
  });
  queueMicrotask(() => {
    main({ stdin: stdin.readable, stdout: stdout.push, stderr: stderr.push, signal: killer.signal })
      .then(
        (code) => exit({ code, signal: null }),
        (error) => {
          stderr.push(new TextEncoder().encode(`error: ${describeError(error)}\n`));
          exit({ code: 1, signal: null });
        },
      );
  });
  return {
    readable: stdout.readable,
    writable,
    stderr: stderr.readable,
    status,
    get exited() {
      return exited;
    },
    kill() {
      if (exited) return;
      killer.abort();
      stderr.release();
      exit(KILLED);
    },
  };
}

/**
 * One direction of a pipe: bytes pushed in one end come out of `readable`, in
 * the same chunks, until it ends or its reader cancels it. With `later`, each
 * chunk (and the end) comes a turn of the event loop after it was pushed, as
 * a pipe's last bytes may come after the process's exit status. With
 * `capacity`, a push resolves only once fewer than that many bytes wait
 * unread (or `release()` gives up waiting, as a kill does).
 */
function pipe(options: { later?: boolean; capacity?: number } = {}) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  let waiting: (() => void)[] = [];
  const release = () => {
    const woken = waiting;
    waiting = [];
    for (const wake of woken) wake();
  };
  const deliver = (step: () => void) => {
    const guarded = () => {
      if (open) step();
    };
    if (options.later) setTimeout(guarded, 0);
    else guarded();
  };
  const roomy = () => !open || (controller.desiredSize ?? 0) > 0;
  return {
    readable: new ReadableStream<Uint8Array>({
      start: (c) => void (controller = c),
      // Called whenever the reader takes a chunk and the queue is below its capacity.
      pull: () => release(),
      cancel: () => {
        open = false;
        release();
      },
    }, new ByteLengthQueuingStrategy({ highWaterMark: options.capacity ?? 1 })),
    push(bytes: Uint8Array): Promise<void> {
      const copy = bytes.slice();
      deliver(() => controller.enqueue(copy));
      if (options.capacity === undefined) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const settle = () => roomy() ? resolve() : waiting.push(settle);
        // After the chunk is delivered: a turn later when delivery is later.
        if (options.later) setTimeout(settle, 0);
        else settle();
      });
    },
    end() {
      deliver(() => {
        open = false;
        controller.close();
        release();
      });
    },
    release,
  };
}

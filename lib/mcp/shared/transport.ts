/**
 * A server as its client sees it: three byte streams (its stdin, stdout and
 * stderr), its exit status, and a way to end it at once. Lab 02's client
 * takes one of these rather than a command, as the MCP SDK's clients take a
 * `Transport`: the notebook gives it a real process (`spawn_server.ts`), the
 * autograder a server running in its own process (`in_process_server.ts`),
 * since its sandbox may not start processes.
 *
 * @module
 */

/** How a server ended: its exit code, and the signal that ended it, if one did. */
export interface ServerStatus {
  code: number;
  signal: Deno.Signal | null;
}

/** A running server's stdio, its exit status, and a kill switch. */
export interface Transport {
  /** The server's stdout: the bytes it sends the client. */
  readonly readable: ReadableStream<Uint8Array>;
  /** The server's stdin: the bytes the client sends it. Closing it ends the server's input. */
  readonly writable: WritableStream<Uint8Array>;
  /** The server's stderr: its diagnostics, never messages. */
  readonly stderr: ReadableStream<Uint8Array>;
  /** Resolves with the server's status once it has exited, for whatever reason. */
  readonly status: Promise<ServerStatus>;
  /** Whether the server has exited (its `status` has resolved). */
  readonly exited: boolean;
  /** End the server at once with SIGKILL; does nothing once it has exited. */
  kill(): void;
}

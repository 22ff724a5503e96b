/**
 * The stdio transport as a client sees it: a server it starts as a child
 * process, newline-delimited messages on the child's stdin and stdout, read
 * through `readFrames` with a byte limit, and the child's exit noticed at once.
 * The limit is `splitFrames`' to hold: in the learners' release, whose
 * `splitFrames` is Unit B's starter, only a learner's own passed in holds it.
 *
 * @module
 */

import { drain, within } from "../shared/_async.ts";
import { ProtocolError } from "../shared/errors.ts";
import { readFrames, type SplitFrames, splitFrames } from "../shared/framing.ts";
import type { JsonRpcMessage } from "../shared/jsonrpc.ts";
import type { ClientTransport, Incoming } from "./client_transport.ts";
import {
  type CloseStep,
  describeExit,
  ServerProcess,
  type ServerProcessOptions,
} from "./server_process.ts";

/** Options for {@linkcode StdioTransport}; the process options are passed to its server. */
export interface StdioTransportOptions extends ServerProcessOptions {
  /** The most bytes one incoming frame may take, newline included. @default {65536} */
  limit?: number;
  /** Splits incoming bytes into frames. @default {splitFrames} */
  splitFrames?: SplitFrames;
}

/** How much is read, and dropped, after the client stopped reading what a server sent. */
const DRAIN_AFTER_REFUSAL = 1 << 20;

const encoder = new TextEncoder();

/**
 * A server started as a child process (its own process group), spoken to
 * over its stdin and stdout.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const echo = new StdioTransport(["cat"]);
 * await echo.send({ jsonrpc: "2.0", method: "ping" }, '{"jsonrpc":"2.0","method":"ping"}');
 * for await (const batch of echo.incoming) {
 *   assert.equal(new TextDecoder().decode(batch[0] as Uint8Array), '{"jsonrpc":"2.0","method":"ping"}');
 *   break;
 * }
 * assert.equal((await echo.close()).code, 0);
 * ```
 */
export class StdioTransport implements ClientTransport<Deno.CommandStatus> {
  readonly #server: ServerProcess;
  readonly #limit: number;
  readonly #split: SplitFrames;
  readonly #gone = Promise.withResolvers<ProtocolError>();
  readonly #reading = Promise.withResolvers<void>();
  #read = false;

  /** Start the server `command` (program and arguments). */
  constructor(command: readonly string[], options: StdioTransportOptions = {}) {
    this.#server = new ServerProcess(command, options);
    this.#limit = options.limit ?? 65536;
    this.#split = options.splitFrames ?? splitFrames;
    void this.#watchExit();
  }

  /** The server's process id, which is also its process-group id. */
  get pid(): number {
    return this.#server.pid;
  }

  /** The last lines the server wrote on stderr. */
  stderrLines(): string[] {
    return this.#server.stderrLines();
  }

  /** What closing the server did, and when (see `ServerProcess.closeSteps`). */
  closeSteps(): CloseStep[] {
    return this.#server.closeSteps();
  }

  /** Resolves, once the server has exited or closed its stdout, with the error that says so. */
  get gone(): Promise<ProtocolError> {
    return this.#gone.promise;
  }

  /** Bytes written that the server has not read yet. */
  get unread(): number {
    return this.#server.unread;
  }

  /**
   * The frames the server writes on stdout, a batch per read. It ends when the
   * client closes the transport; throws a `ProtocolError` for a frame past the
   * limit, a stream that ends inside a frame, or a stdout that closes while the
   * server runs on. When the reader stops early, a little more is read and
   * dropped, so that a server part-way through a long reply can finish it and
   * exit when its input ends.
   */
  get incoming(): AsyncIterable<readonly Incoming[]> {
    if (this.#read) throw new TypeError("A transport's incoming messages can be read once");
    this.#read = true;
    return this.#frames();
  }

  async *#frames(): AsyncGenerator<readonly Incoming[]> {
    const { stdout, closed } = this.#server;
    try {
      yield* readFrames(stdout, { limit: this.#limit, split: this.#split, signal: closed });
      if (!closed.aborted) {
        const status = await within(this.#server.exited, 100);
        const error = new ProtocolError(
          status === undefined
            ? `The server closed its stdout but is still running${this.context()}`
            : exitMessage(status, this.context()),
        );
        this.#gone.resolve(error);
        throw error;
      }
    } finally {
      // In the background, so that what ended the reading reaches the reader first.
      void drain(stdout, closed, { maxBytes: DRAIN_AFTER_REFUSAL })
        .finally(() => this.#reading.resolve());
    }
  }

  /** Write `line` and its newline to the server's stdin. */
  send(_message: JsonRpcMessage, line: string): Promise<void> {
    return this.#server.send(encoder.encode(line + "\n")).catch((error) => {
      throw new ProtocolError(`Could not write to the server${this.context()}`, { cause: error });
    });
  }

  /** The server's last stderr lines, for an error message. */
  context(): string {
    const lines = this.#server.stderrLines().slice(-5);
    return lines.length === 0 ? "" : `; its last stderr lines:\n  ${lines.join("\n  ")}`;
  }

  /**
   * End the server and everything in its process group (see
   * `ServerProcess.close`). Resolves with its exit status; calling it again is safe.
   */
  async close(): Promise<Deno.CommandStatus> {
    const status = await this.#server.close();
    if (!this.#read) this.#reading.resolve();
    await this.#reading.promise;
    return status;
  }

  async #watchExit(): Promise<void> {
    const status = await this.#server.exited;
    // Let the reader take the last bytes the server wrote before it went.
    await within(this.#reading.promise, 100);
    this.#gone.resolve(new ProtocolError(exitMessage(status, this.context())));
  }
}

function exitMessage(status: Deno.CommandStatus, context: string): string {
  return `The server exited with status ${describeExit(status)}${context}`;
}

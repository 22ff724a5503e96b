// In a learner's realm: a server, as Lab 02's client classes take one (a
// `Transport`), whose bytes travel over a MessagePort to the sandbox's main
// thread, where the real grammar server runs and what it receives is
// recorded. What the server got is then observed where the learner's code
// cannot reach it. Its stderr is read across the port only as the learner's
// code reads it, so a server that logs more than a pipe holds waits, as a
// process does.

import type { ServerStatus, Transport } from "../../../lib/mcp/shared/transport.ts";

/** Messages on the port, both ways. */
export type PortMessage =
  | { in: Uint8Array }
  | { inEnd: true }
  | { kill: true }
  | { out: Uint8Array }
  | { outEnd: true }
  | { err: Uint8Array }
  | { errEnd: true }
  | { errPull: true }
  | { sync: number }
  | { synced: number }
  | { exit: ServerStatus };

/**
 * A `Transport` whose server is at the other end of `port`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const { port1, port2 } = new MessageChannel();
 * port2.onmessage = () => {
 *   port2.postMessage({ outEnd: true });
 *   port2.postMessage({ errEnd: true });
 *   port2.postMessage({ exit: { code: 0, signal: null } });
 * };
 * const server = portTransport(port1);
 * server.kill();
 * assert.deepEqual(await server.status, { code: 0, signal: null });
 * assert.equal(server.exited, true);
 * port1.close();
 * ```
 */
export function portTransport(port: MessagePort): Transport {
  let exited = false;
  let settle!: (status: ServerStatus) => void;
  const status = new Promise<ServerStatus>((resolve) => settle = resolve);
  let out!: ReadableStreamDefaultController<Uint8Array>;
  let err!: ReadableStreamDefaultController<Uint8Array>;
  let errCame = () => {};
  const readable = new ReadableStream<Uint8Array>({ start: (c) => void (out = c) });
  // One chunk asked for at a time, when the reader wants one: nothing is read ahead.
  const stderr = new ReadableStream<Uint8Array>({
    start: (c) => void (err = c),
    pull: () =>
      new Promise<void>((resolve) => {
        errCame = resolve;
        port.postMessage({ errPull: true });
      }),
  }, { highWaterMark: 0 });
  const quietly = (step: () => void) => {
    try {
      step();
    } catch {
      // The reader cancelled the stream: what comes after is dropped.
    }
  };
  port.onmessage = ({ data }: MessageEvent<PortMessage>) => {
    if ("out" in data) quietly(() => out.enqueue(data.out));
    else if ("outEnd" in data) quietly(() => out.close());
    else if ("err" in data) {
      quietly(() => err.enqueue(data.err));
      errCame();
    } else if ("errEnd" in data) {
      quietly(() => err.close());
      errCame();
    } else if ("sync" in data) port.postMessage({ synced: data.sync });
    else if ("exit" in data) {
      exited = true;
      settle(data.exit);
    }
  };
  const writable = new WritableStream<Uint8Array>({
    write(chunk) {
      if (exited) throw new Deno.errors.BrokenPipe("Broken pipe: the server has exited");
      port.postMessage({ in: chunk.slice() });
    },
    close: () => port.postMessage({ inEnd: true }),
    abort: () => port.postMessage({ inEnd: true }),
  });
  return {
    readable,
    writable,
    stderr,
    status,
    get exited() {
      return exited;
    },
    kill: () => {
      if (!exited) port.postMessage({ kill: true });
    },
  };
}

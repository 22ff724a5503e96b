// In the sandbox's main thread, a realm no learner code runs in: the grammar
// server (as a case's script makes it misbehave) at one end of a
// MessagePort, the learner's client at the other, and a record of every line
// the server received, which is what the grader observes.

import { startInProcess } from "../../../lib/mcp/server/in_process_server.ts";
import type { Transport } from "../../../lib/mcp/shared/transport.ts";
import { grammarInProcess, type Script } from "../../../servers/grammar_in_process.ts";
import type { PortMessage } from "../realm/port_transport.ts";

/** A grammar server serving a port, and what it has received. */
export interface Bridged {
  server: Transport;
  /** Each line the server received, in order. */
  sent: string[];
  /**
   * Resolves once every byte the client wrote before now has reached the
   * server (a round trip on the port, which keeps its order), or after
   * `waitMs`, when the client's end no longer answers.
   */
  settled(waitMs?: number): Promise<void>;
}

const decoder = new TextDecoder();

/**
 * Start the grammar server of `script` and serve it on `port`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { portTransport } from "../realm/port_transport.ts";
 *
 * const { port1, port2 } = new MessageChannel();
 * const bridged = bridgeServer(port2, {});
 * const client = portTransport(port1);
 * const writer = client.writable.getWriter();
 * await writer.write(new TextEncoder().encode('{"jsonrpc":"2.0","id":0,"method":"ping"}\n'));
 * await bridged.settled();
 * assert.deepEqual(bridged.sent, ['{"jsonrpc":"2.0","id":0,"method":"ping"}']);
 * await writer.close();
 * assert.deepEqual(await client.status, { code: 0, signal: null });
 * assert.deepEqual(bridged.sent, ['{"jsonrpc":"2.0","id":0,"method":"ping"}']);
 * port1.close();
 * port2.close();
 * ```
 */
export function bridgeServer(port: MessagePort, script: Script | undefined): Bridged {
  const server = startInProcess(grammarInProcess(script));
  const sent: string[] = [];
  let pending = "";
  const post = (message: PortMessage) => port.postMessage(message);
  const stdout = (async () => {
    for await (const chunk of server.readable) post({ out: chunk });
    post({ outEnd: true });
  })();
  // stderr is read only when the client asks, one chunk at a time: what it leaves unread stays
  // in the server's bounded stderr, and a server that fills it waits, as on a pipe.
  const stderr = server.stderr.getReader();
  const pullStderr = () =>
    stderr.read().then(({ done, value }) => post(done ? { errEnd: true } : { err: value }))
      .catch(() => post({ errEnd: true }));
  // As from a process: stdout has ended by the exit status, stderr's last lines may come after it.
  Promise.all([stdout, server.status]).then(([, status]) => post({ exit: status }), () => {});
  const writer = server.writable.getWriter();
  const syncs = new Map<number, () => void>();
  let syncId = 0;
  const settled = (waitMs = 2000) =>
    new Promise<void>((resolve) => {
      const id = ++syncId;
      const done = () => {
        clearTimeout(timer);
        syncs.delete(id);
        resolve();
      };
      const timer = setTimeout(done, waitMs);
      syncs.set(id, done);
      port.postMessage({ sync: id });
    });
  port.onmessage = ({ data }: MessageEvent<PortMessage>) => {
    if ("synced" in data) syncs.get(data.synced)?.();
    else if ("in" in data) {
      const lines = (pending + decoder.decode(data.in, { stream: true })).split("\n");
      pending = lines.pop()!;
      sent.push(...lines.filter((line) => line.trim() !== ""));
      writer.write(data.in).catch(() => {});
    } else if ("errPull" in data) pullStderr();
    else if ("inEnd" in data) writer.close().catch(() => {});
    else if ("kill" in data) server.kill();
  };
  return { server, sent, settled };
}

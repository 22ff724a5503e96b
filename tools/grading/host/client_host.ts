// Where a named test's client really runs: each connection a new grammar
// server and a new client of the class given (the instructors' worked one,
// or the learner's own when the grader has no worked one), made faulty when
// the case says so. It answers the calls a test makes through
// `realm/remote_client.ts`; the test never sees this realm.

import { startInProcess } from "../../../lib/mcp/server/in_process_server.ts";
import type { Transport } from "../../../lib/mcp/shared/transport.ts";
import { grammarInProcess } from "../../../servers/grammar_in_process.ts";
import { type Fault, withFault } from "../drivers/faulty_client.ts";
import type { RemoteCall, RemoteReply } from "../realm/remote_client.ts";

// deno-lint-ignore no-explicit-any
type AnyClass = new (...args: any[]) => any;

/** The clients served, so that they can all be ended. */
export interface Hosted {
  /** Kill every server a connection started. */
  stop(): void;
}

/**
 * Serve clients of `Client` (with `fault`, when given) on `port`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { remoteConnect } from "../realm/remote_client.ts";
 *
 * class Lister {
 *   constructor(readonly server: { kill(): void }) {}
 *   async listTools() { return [{ name: "a" }, { name: "b" }]; }
 * }
 * const { port1, port2 } = new MessageChannel();
 * const hosted = hostClients(port2, Lister, { method: "listTools", change: "drop-last" });
 * const { client } = remoteConnect(port1)();
 * assert.deepEqual(await client.listTools(), [{ name: "a" }]);
 * hosted.stop();
 * port1.close();
 * port2.close();
 * ```
 */
export function hostClients(port: MessagePort, Client: AnyClass, fault?: Fault): Hosted {
  const Class = fault === undefined ? Client : withFault(Client, fault);
  const connections = new Map<
    number,
    { client: Record<PropertyKey, unknown>; server: Transport }
  >();
  port.onmessage = async ({ data }) => {
    if (typeof data?.open === "number") {
      const server = startInProcess(grammarInProcess());
      const connection = data.open;
      // The test may wait for the exit itself: it is told, unasked, when the server exits.
      server.status.then((status) =>
        port.postMessage({ seq: -1, connection, exited: true, status })
      );
      try {
        connections.set(data.open, {
          client: new Class(server, { log: () => {}, graceMs: 100 }),
          server,
        });
      } catch (error) {
        server.kill();
        connections.set(data.open, { client: { broken: error }, server });
      }
      return;
    }
    if (typeof data?.kill === "number") {
      connections.get(data.kill)?.server.kill();
      return;
    }
    const call = data as RemoteCall;
    const connection = connections.get(call.connection);
    const reply = (outcome: { returned: unknown } | { threw: RemoteThrown }) =>
      port.postMessage({
        seq: call.seq,
        connection: call.connection,
        exited: connection?.server.exited ?? true,
        ...outcome,
      } as RemoteReply);
    try {
      if (connection === undefined) throw new TypeError("no such connection");
      if ("broken" in connection.client) throw connection.client.broken;
      const key = call.method === "dispose" ? Symbol.asyncDispose : call.method;
      const method = connection.client[key];
      if (typeof method !== "function") {
        throw new TypeError(`the client has no method ${call.method}`);
      }
      reply({ returned: cloneable(await method.apply(connection.client, call.args)) });
    } catch (error) {
      reply({ threw: thrown(error) });
    }
  };
  return {
    stop() {
      for (const { server } of connections.values()) server.kill();
    },
  };
}

type RemoteThrown = { name: string; message: string; code?: number };

function thrown(error: unknown): RemoteThrown {
  const { name, message, code } = (error ?? {}) as Record<string, unknown>;
  return {
    name: typeof name === "string" ? name : typeof error,
    message: typeof message === "string" ? message : String(error),
    ...(typeof code === "number" ? { code } : {}),
  };
}

/** `value` as it can cross to another realm. */
function cloneable(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return `a value that cannot be copied: ${Object.prototype.toString.call(value)}`;
  }
}

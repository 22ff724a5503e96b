// In a learner's realm: the client a learner's named test is given. It is
// the same class, from the same module, with the same methods, whichever
// client the grader runs behind it (the correct one, or one of the faulty
// ones): every call goes over a MessagePort to a realm the test cannot see,
// so the only way to tell the clients apart is to test what they do.

import { ProtocolError, ToolError } from "../../../lib/mcp/shared/errors.ts";
import type { ServerStatus } from "../../../lib/mcp/shared/transport.ts";

/** A call on the port: which connection, which method, its arguments, and a number for the reply. */
export interface RemoteCall {
  connection: number;
  method: "initialize" | "listTools" | "callTool" | "close" | "dispose";
  args: unknown[];
  seq: number;
}

/** The reply to a call: what came back, or the error thrown; and whether the server has exited. */
export type RemoteReply =
  & { seq: number; connection: number; exited: boolean; status?: ServerStatus }
  & ({ returned: unknown } | { threw: { name: string; message: string; code?: number } });

/** What a test's `connect()` gives: the client, and the server's state as the test may read it. */
export interface RemoteConnection {
  client: McpClient;
  server: { readonly exited: boolean; readonly status: Promise<ServerStatus>; kill(): void };
}

/** The client of a named test: its methods are the other realm's client's. */
export class McpClient {
  #call: (method: RemoteCall["method"], args: unknown[]) => Promise<unknown>;

  /** Made by `remoteConnect`; a test never makes one itself. */
  constructor(call: (method: RemoteCall["method"], args: unknown[]) => Promise<unknown>) {
    this.#call = call;
  }

  /** The handshake. */
  initialize(...args: unknown[]): Promise<unknown> {
    return this.#call("initialize", args);
  }

  /** The tools the server advertises. */
  listTools(...args: unknown[]): Promise<unknown> {
    return this.#call("listTools", args);
  }

  /** Call a tool. */
  callTool(...args: unknown[]): Promise<unknown> {
    return this.#call("callTool", args);
  }

  /** End the server. */
  close(...args: unknown[]): Promise<unknown> {
    return this.#call("close", args);
  }

  /** End the server, for `await using`. */
  [Symbol.asyncDispose](): Promise<unknown> {
    return this.#call("dispose", []);
  }
}

/**
 * A `connect` for named tests whose clients live at the other end of `port`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const { port1, port2 } = new MessageChannel();
 * port2.onmessage = ({ data }) => {
 *   if (data.method) port2.postMessage({ seq: data.seq, exited: false, returned: [{ name: "a" }] });
 * };
 * const { client } = remoteConnect(port1)();
 * assert.deepEqual(await client.listTools(), [{ name: "a" }]);
 * port1.close();
 * port2.close();
 * ```
 */
export function remoteConnect(port: MessagePort): () => RemoteConnection {
  let connections = 0;
  let seq = 0;
  const waiting = new Map<number, (reply: RemoteReply) => void>();
  const exited = new Map<number, boolean>();
  const statuses = new Map<number, PromiseWithResolvers<ServerStatus>>();
  port.onmessage = ({ data }: MessageEvent<RemoteReply>) => {
    // Once exited, a server stays exited, whatever a reply sent before the kill says.
    exited.set(data.connection, data.exited || (exited.get(data.connection) ?? false));
    if (data.status !== undefined) statuses.get(data.connection)?.resolve(data.status);
    waiting.get(data.seq)?.(data);
    waiting.delete(data.seq);
  };
  return () => {
    const connection = connections++;
    exited.set(connection, false);
    const status = Promise.withResolvers<ServerStatus>();
    statuses.set(connection, status);
    port.postMessage({ open: connection });
    const call = (method: RemoteCall["method"], args: unknown[]) =>
      new Promise<unknown>((resolve, reject) => {
        const mine = seq++;
        waiting.set(mine, (reply) => {
          if ("returned" in reply) resolve(reply.returned);
          else reject(rebuilt(reply.threw));
        });
        try {
          port.postMessage({ connection, method, args, seq: mine } satisfies RemoteCall);
        } catch (error) {
          waiting.delete(mine);
          reject(error);
        }
      });
    return {
      client: new McpClient(call),
      server: {
        get exited() {
          return exited.get(connection) ?? false;
        },
        status: status.promise,
        // As a Transport's kill: the server has exited once it returns.
        kill: () => {
          exited.set(connection, true);
          port.postMessage({ kill: connection });
        },
      },
    };
  };
}

/** The error thrown in the other realm, as one of this realm's classes. */
function rebuilt(threw: { name: string; message: string; code?: number }): Error {
  if (threw.name === "ProtocolError") return new ProtocolError(threw.message, { code: threw.code });
  if (threw.name === "ToolError") return new ToolError(threw.message);
  if (threw.name === "TypeError") return new TypeError(threw.message);
  const error = new Error(threw.message);
  error.name = threw.name;
  return error;
}

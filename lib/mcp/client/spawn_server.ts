/**
 * A server as a child process, given to a client as a {@linkcode Transport}.
 *
 * @module
 */

import { serverEnv } from "./server_process.ts";
import type { Transport } from "../shared/transport.ts";

/** A {@linkcode Transport} to a child process, with its process id. */
export interface ProcessTransport extends Transport {
  readonly pid: number;
}

/**
 * Start `command` (program and arguments) as a child process with piped
 * stdin, stdout and stderr and a small environment (the variables the MCP
 * SDK's stdio transport passes on), and give its {@linkcode Transport}.
 * Throws `Deno.errors.NotFound` when the program does not exist.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const server = spawnServer(["sh", "-c", "echo ready >&2; cat"]);
 * const writer = server.writable.getWriter();
 * await writer.write(new TextEncoder().encode("hello\n"));
 * await writer.close();
 * assert.equal(await new Response(server.readable).text(), "hello\n");
 * assert.equal(await new Response(server.stderr).text(), "ready\n");
 * assert.deepEqual(await server.status, { code: 0, signal: null });
 * assert.equal(server.exited, true);
 * ```
 */
export function spawnServer(command: readonly string[]): ProcessTransport {
  if (command.length === 0) throw new TypeError("The server command is empty");
  const child = new Deno.Command(command[0], {
    args: command.slice(1),
    env: serverEnv(),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let exited = false;
  const status = child.status.then(({ code, signal }) => {
    exited = true;
    return { code, signal };
  });
  return {
    pid: child.pid,
    readable: child.stdout,
    writable: child.stdin,
    stderr: child.stderr,
    status,
    get exited() {
      return exited;
    },
    kill() {
      if (exited) return;
      try {
        child.kill("SIGKILL");
      } catch {
        // It exited in the meantime.
      }
    },
  };
}

/**
 * The stdio transport as a server sees it: the client's messages, one a
 * line, read from this process's stdin with a byte limit (none in the
 * learners' release, whose `splitFrames` is Unit B's starter), and its own
 * written to stdout, one a line. A `ServerSession` over it serves the same as
 * over HTTP.
 *
 * @module
 */

import { readFrames } from "../shared/framing.ts";
import type { JsonObject } from "../shared/jsonrpc.ts";
import { ServerSession } from "./session.ts";
import type { SessionSpec } from "./session_spec.ts";
import { type ServerTransport, Unparsed } from "./server_transport.ts";

/** Options for {@linkcode stdioServerTransport}. */
export interface StdioServerOptions {
  /** Where the client's messages come from. @default {Deno.stdin.readable} */
  input?: ReadableStream<Uint8Array>;
  /** Where the server's go. @default {Deno.stdout.writable} */
  output?: WritableStream<Uint8Array>;
  /** The most bytes one incoming line may take, newline included. @default {65536} */
  limit?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A {@linkcode ServerTransport} over stdin and stdout (or the streams given).
 * A line past the limit ends the input, as nothing after it can be framed.
 *
 * @example A ping in, its reply out
 * ```ts
 * import assert from "node:assert/strict";
 * import { ServerSession } from "./session.ts";
 *
 * const input = ReadableStream.from([new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"}\n')]);
 * let written = "";
 * const output = new WritableStream<Uint8Array>({ write: (chunk) => void (written += new TextDecoder().decode(chunk)) });
 * const spec = { name: "s", version: "1", tools: [] };
 * await new ServerSession(spec, stdioServerTransport({ input, output })).done;
 * assert.equal(written, '{"jsonrpc":"2.0","id":1,"result":{}}\n');
 * ```
 */
export function stdioServerTransport(options: StdioServerOptions = {}): ServerTransport {
  const input = options.input ?? Deno.stdin.readable;
  const writer = (options.output ?? Deno.stdout.writable).getWriter();
  let writing = Promise.resolve();
  async function* incoming(): AsyncGenerator<unknown> {
    try {
      for await (const frames of readFrames(input, { limit: options.limit })) {
        for (const frame of frames) {
          const text = decoder.decode(frame);
          if (text.trim() === "") continue;
          try {
            yield JSON.parse(text);
          } catch {
            yield new Unparsed(text);
          }
        }
      }
    } catch {
      // A line past the limit, or one cut off: nothing after it can be read.
    }
    await writing;
  }
  return {
    incoming: incoming(),
    send(message: JsonObject) {
      const line = encoder.encode(JSON.stringify(message) + "\n");
      writing = writing.then(() => writer.write(line)).catch(() => {});
    },
  };
}

/**
 * Serve `spec` on this process's stdin and stdout until stdin ends.
 *
 * @example
 * ```ts ignore
 * await serveStdio({ name: "grammar", version: "1.0.0", tools: GRAMMAR_TOOLS });
 * ```
 */
export function serveStdio(spec: SessionSpec, options: StdioServerOptions = {}): Promise<void> {
  return new ServerSession(spec, stdioServerTransport(options)).done;
}

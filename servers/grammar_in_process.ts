/**
 * The grammar server as a function of its stdio, to run in the client's own
 * process (`lib/mcp/server/in_process_server.ts`): the same answers and the same stderr
 * lines as `grammar.ts`, of the handshake era by default, or of the versions
 * a script names (both eras, as `grammar.ts --versions` serves them). A
 * {@linkcode Script} makes it misbehave on purpose, as the teaching server's
 * modes do, so that the autograder can try a learner's client on servers
 * that answer wrongly, crash, stay silent or never exit.
 *
 * @module
 */

import { readFrames } from "../lib/mcp/shared/framing.ts";
import type { ServerMain } from "../lib/mcp/server/in_process_server.ts";
import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { handleLine } from "../lib/mcp/server/dispatch.ts";
import { ServerSession } from "../lib/mcp/server/session.ts";
import { Unparsed } from "../lib/mcp/server/server_transport.ts";
import { GRAMMAR, GRAMMAR_NOTES } from "./grammar.ts";

/**
 * One thing a scripted server does in answer to a request. In `send`, the
 * string `"{{id}}"` stands for the request's id, `"{{idText}}"` for it as a
 * string and `"{{previous}}"` for the id before it; in `raw` and `chunks`,
 * `{{id}}` and `{{previous}}` are replaced in the text. `stderrBytes` writes
 * that many bytes of log lines on stderr, and goes on only once they fit in
 * the pipe, as a real server blocks on a full one.
 */
export type Action =
  | { grammar: true }
  | { result: JsonObject }
  | { error: { code: number; message: string } }
  | { send: unknown }
  | { raw: string }
  | { chunks: string[] }
  | { stderr: string }
  | { stderrBytes: number }
  | { exit: number };

/** How a scripted grammar server departs from the real one. */
export interface Script {
  /** Text written on stderr after the ready line, as it is. @default {""} */
  stderr?: string;
  /**
   * Text written on stderr after that in two writes, the first ending inside
   * its first character of more than one byte in UTF-8, so that a reader sees
   * that character split across two reads. @default {""}
   */
  stderrSplit?: string;
  /** How many bytes of log lines to write on stderr after that, before reading anything. @default {0} */
  stderrBytes?: number;
  /** Exit with this code right after starting, before reading anything. @default {undefined} */
  exitAtStart?: number;
  /** What to do on each request of a method, in place of the grammar server's answer. @default {{}} */
  on?: Record<string, Action[]>;
  /** What to do on the first request of a method only, in place of `on` or the answer. @default {{}} */
  first?: Record<string, Action[]>;
  /** At the end of its input: exit with this code, or `"ignore"` it (only a kill ends it). @default {0} */
  atEnd?: number | "ignore";
  /**
   * Serve these protocol versions (newest first) as the library's
   * `ServerSession` does, of both eras: `server/discover` and modern
   * requests for a modern version, an `UnsupportedProtocolVersionError`
   * listing them for any other. @default {undefined} (the handshake era's
   * dispatcher: 2025-06-18 and 2024-11-05, and -32601 for `server/discover`)
   */
  versions?: readonly string[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The grammar server, as `script` changes it (by default, not at all).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startInProcess } from "../lib/mcp/server/in_process_server.ts";
 *
 * const server = startInProcess(grammarInProcess({ on: { ping: [{ raw: "not json" }] } }));
 * const writer = server.writable.getWriter();
 * await writer.write(new TextEncoder().encode('{"jsonrpc":"2.0","id":0,"method":"ping"}\n'));
 * await writer.close();
 * assert.equal(await new Response(server.readable).text(), "not json\n");
 * assert.deepEqual(await server.status, { code: 0, signal: null });
 * ```
 */
export function grammarInProcess(script: Script = {}): ServerMain {
  return async (io) => {
    const note = (line: string) => io.stderr(encoder.encode(`${line}\n`));
    await note(GRAMMAR_NOTES.ready);
    if (script.stderr) await io.stderr(encoder.encode(script.stderr));
    if (script.stderrSplit) {
      const bytes = encoder.encode(script.stderrSplit);
      // A lead byte of a character of two bytes or more is 0xc0 or above: cut just after it.
      const cut = bytes.findIndex((byte) => byte >= 0xc0) + 1;
      await io.stderr(bytes.subarray(0, cut));
      await io.stderr(bytes.subarray(cut));
    }
    if (script.stderrBytes) await io.stderr(logLines(script.stderrBytes));
    if (script.exitAtStart !== undefined) return script.exitAtStart;
    const grammar = {
      ...GRAMMAR,
      onCall: (name: string, args: unknown) => void note(GRAMMAR_NOTES.call(name, args)),
    };
    const send = (message: unknown) => io.stdout(encoder.encode(`${JSON.stringify(message)}\n`));
    const session = script.versions === undefined
      ? undefined
      : sessionOf({ ...grammar, versions: script.versions }, send);
    const answer = session?.take ?? ((line: string) => {
      const reply = handleLine(line, grammar);
      if (reply !== undefined) io.stdout(encoder.encode(`${reply}\n`));
    });
    /** The methods of the requests received so far. */
    const seen = new Set<string>();
    for await (const frames of readFrames(io.stdin)) {
      for (const frame of frames) {
        const line = decoder.decode(frame).trim();
        if (line === "") continue;
        const request = requestOf(line);
        const method = request?.method ?? "";
        const actions = request === undefined
          ? undefined
          : seen.has(method)
          ? script.on?.[method]
          : script.first?.[method] ?? script.on?.[method];
        seen.add(method);
        if (actions === undefined) {
          answer(line);
          continue;
        }
        const id = request!.id;
        const fill = (text: string) =>
          text.replaceAll("{{id}}", JSON.stringify(id)).replaceAll("{{previous}}", previous(id));
        for (const action of actions) {
          if ("exit" in action) return action.exit;
          if ("grammar" in action) answer(line);
          if ("result" in action) send({ jsonrpc: "2.0", id, result: action.result });
          if ("error" in action) send({ jsonrpc: "2.0", id, error: action.error });
          if ("send" in action) send(placeholders(action.send, id));
          if ("raw" in action) io.stdout(encoder.encode(`${fill(action.raw)}\n`));
          if ("chunks" in action) action.chunks.forEach((c) => io.stdout(encoder.encode(fill(c))));
          if ("stderr" in action) await note(action.stderr);
          if ("stderrBytes" in action) await io.stderr(logLines(action.stderrBytes));
        }
      }
    }
    await session?.end();
    if (script.atEnd === "ignore") return await new Promise<number>(() => {});
    await note(GRAMMAR_NOTES.end);
    return script.atEnd ?? 0;
  };
}

/**
 * A `ServerSession` of `spec` fed one line at a time (`take`), sending what it
 * answers with `send`; `end()` ends its input and resolves once it is done.
 */
function sessionOf(
  spec: ConstructorParameters<typeof ServerSession>[0],
  send: (message: unknown) => void,
): { take: (line: string) => void; end: () => Promise<void> } {
  let lines!: ReadableStreamDefaultController<unknown>;
  const incoming = new ReadableStream<unknown>({
    start: (controller) => void (lines = controller),
  });
  const session = new ServerSession(spec, { incoming, send });
  return {
    take(line) {
      try {
        lines.enqueue(JSON.parse(line));
      } catch {
        lines.enqueue(new Unparsed(line));
      }
    },
    async end() {
      lines.close();
      await session.done;
    },
  };
}

/** `size` bytes of numbered log lines, as a chatty server writes them. */
function logLines(size: number): Uint8Array {
  const lines = Array.from(
    { length: Math.ceil(size / 40) },
    (_, i) =>
      `grammar: diagnostic line ${String(i).padStart(6, "0")} of a chatty server\n`.slice(-40),
  );
  return encoder.encode(lines.join("")).slice(0, size);
}

/** The method and id of a request, or `undefined` for anything else. */
function requestOf(line: string): { method: string; id: unknown } | undefined {
  try {
    const message = JSON.parse(line);
    const isRequest = typeof message?.method === "string" && "id" in message;
    return isRequest ? { method: message.method, id: message.id } : undefined;
  } catch {
    return undefined;
  }
}

/** The id before `id`, as JSON text. */
function previous(id: unknown): string {
  return JSON.stringify(typeof id === "number" ? id - 1 : `${id}-previous`);
}

/** `value` with each placeholder string replaced (see {@linkcode Action}). */
function placeholders(value: unknown, id: unknown): unknown {
  if (value === "{{id}}") return id;
  if (value === "{{idText}}") return String(id);
  if (value === "{{previous}}") return JSON.parse(previous(id));
  if (Array.isArray(value)) return value.map((item) => placeholders(item, id));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, placeholders(v, id)]));
  }
  return value;
}

/**
 * The course's reference grammar server (Labs 01 and 02): the four tools of
 * `lib/course/grammar_tools.ts` over stdio. It needs no permissions, and says
 * on stderr what it does, so that a client can show the server's side of the
 * conversation.
 *
 *     deno run servers/grammar.ts [--versions V,V,...] [--silent-before-initialize]
 *
 * By itself it is a server of the handshake era (2025-06-18 and 2024-11-05,
 * through `lib/mcp/server/dispatch.ts`), which answers a `server/discover`
 * probe with -32601. With `--versions` it serves those versions, newest
 * first, as the library's `ServerSession` serves both eras: with 2026-07-28
 * among them it answers `server/discover` and modern requests; without it, a
 * modern request gets an `UnsupportedProtocolVersionError` that lists them.
 * With `--silent-before-initialize` it answers nothing before `initialize`,
 * as some legacy servers do. Lab 02 shows a client's probe meeting each.
 *
 * Lab 01's learners build their own; this one is what Lab 02 starts unless a
 * learner's own server has passed Lab 01. `grammar_in_process.ts` serves the
 * same, with the same stderr lines, inside the autograder's sandbox.
 *
 * @module
 */

import { parseArgs } from "node:util";
import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { GRAMMAR_TOOLS } from "../lib/course/grammar_tools.ts";
import { PROTOCOL_VERSIONS } from "../lib/mcp/server/dispatch.ts";
import { ServerSession } from "../lib/mcp/server/session.ts";
import type { ServerTransport } from "../lib/mcp/server/server_transport.ts";
import { stdioServerTransport } from "../lib/mcp/server/stdio_server.ts";
import { isMcpVersion } from "../lib/mcp/shared/versions.ts";
import { serve, writeStderr } from "./_mcp_server.ts";

/** The grammar server: its name and version, and its tools. */
export const GRAMMAR = { name: "grammar", version: "1.0.0", tools: GRAMMAR_TOOLS };

/** What the grammar server says on stderr: when it starts, for each call, and when its input ends. */
export const GRAMMAR_NOTES = {
  ready: `grammar: ready with ${GRAMMAR_TOOLS.length} tools`,
  call: (name: string, args: unknown): string => `grammar: call ${name} ${JSON.stringify(args)}`,
  end: "grammar: input ended, exiting",
};

/**
 * `transport` with every message before the first `initialize` request
 * dropped unanswered, as a legacy server that ignores what comes before its
 * handshake does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const incoming = ReadableStream.from([
 *   { jsonrpc: "2.0", id: 0, method: "server/discover" },
 *   { jsonrpc: "2.0", id: 1, method: "initialize" },
 *   { jsonrpc: "2.0", id: 2, method: "tools/list" },
 * ]);
 * const kept = [];
 * for await (const message of silentBeforeInitialize({ incoming, send: () => {} }).incoming) {
 *   kept.push((message as { id: number }).id);
 * }
 * assert.deepEqual(kept, [1, 2]);
 * ```
 */
export function silentBeforeInitialize(transport: ServerTransport): ServerTransport {
  async function* incoming(): AsyncGenerator<unknown> {
    let initialized = false;
    for await (const message of transport.incoming) {
      initialized ||= (message as { method?: unknown })?.method === "initialize";
      if (initialized) yield message;
    }
  }
  return {
    incoming: incoming(),
    send: (message, relatedTo) => transport.send(message, relatedTo),
    abandon: (id) => transport.abandon?.(id),
  };
}

if (import.meta.main) {
  const flags = parseArgs({
    args: Deno.args,
    options: { versions: { type: "string" }, "silent-before-initialize": { type: "boolean" } },
  });
  const versions = flags.values.versions?.split(",") ?? [...PROTOCOL_VERSIONS];
  const unknown = versions.filter((version) => !isMcpVersion(version));
  if (versions.length === 0 || unknown.length > 0) {
    writeStderr(`grammar: --versions names no version MCP has: ${unknown.join(", ")}\n`);
    Deno.exit(2);
  }
  writeStderr(`${GRAMMAR_NOTES.ready}\n`);
  const onCall = (name: string, args: unknown) =>
    writeStderr(`${GRAMMAR_NOTES.call(name, args)}\n`);
  const onEnd = () => {
    writeStderr(`${GRAMMAR_NOTES.end}\n`);
    Deno.exit(0);
  };
  const silent = flags.values["silent-before-initialize"] === true;
  if (flags.values.versions === undefined && !silent) {
    serve({ ...GRAMMAR, onCall: (name: string, args: JsonObject) => onCall(name, args), onEnd });
  } else {
    const stdio = stdioServerTransport();
    const transport = silent ? silentBeforeInitialize(stdio) : stdio;
    await new ServerSession({ ...GRAMMAR, versions, onCall }, transport).done;
    onEnd();
  }
}

// A small synchronous MCP server over stdio, shared by the course's servers.
// It reads stdin with readSync and writes stdout with writeSync: simple, fast,
// and easy to make misbehave on purpose, which the teaching server does
// through the `reply` hook. What it answers is lib/mcp/server/dispatch.ts's.

import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { handleLine, respond } from "../lib/mcp/server/dispatch.ts";
import { fitError } from "../lib/mcp/server/version_fit.ts";
import { declaredVersion } from "../lib/mcp/shared/meta.ts";
import type { ServerTool } from "../lib/mcp/server/tool.ts";
import type { ServerPrompt } from "../lib/mcp/server/prompt.ts";
import type { ServerResource, ServerResourceTemplate } from "../lib/mcp/server/resource.ts";

export type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
export type { ServerTool, ToolOutcome } from "../lib/mcp/server/tool.ts";

/** How to run a server. */
export interface ServeOptions {
  name: string;
  version: string;
  /** Its tools; without them it offers none. */
  tools?: readonly ServerTool[];
  /** Its resources, resource templates and prompts (see `ServerSpec`); none by default. */
  resources?: readonly ServerResource[];
  resourceTemplates?: readonly ServerResourceTemplate[];
  prompts?: readonly ServerPrompt[];
  /** The most items on one page of each list. Defaults to every item on one page. */
  pageSize?: number;
  /** The version the server answers `initialize` with. Defaults to 2025-06-18. */
  protocolVersion?: string;
  /** The `tools/list` result for a cursor. Defaults to every tool on one page. */
  list?(cursor: string | undefined): JsonObject;
  /** Called with every `tools/call` received, before it is answered. */
  onCall?(name: string, args: JsonObject): void;
  /**
   * Sends the response to a `tools/call`, `resources/read` or `prompts/get`
   * (an answer a client takes content from); a misbehaving server replaces
   * it. Defaults to `writeMessage`.
   */
  reply?(response: JsonObject, request: JsonObject): void;
  /** Called when stdin ends. Defaults to exiting with status 0. */
  onEnd?(): void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The methods whose responses go through the `reply` hook. */
const ANSWERS = new Set<unknown>(["tools/call", "resources/read", "prompts/get"]);

/** Write all of `bytes` to stdout. */
export function writeBytes(bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += Deno.stdout.writeSync(bytes.subarray(written));
}

/** Write `message` to stdout as one line of JSON. */
export function writeMessage(message: JsonObject): void {
  writeBytes(encoder.encode(JSON.stringify(message) + "\n"));
}

/** Write `text` to stderr, all of it. */
export function writeStderr(text: string): void {
  const bytes = encoder.encode(text);
  let written = 0;
  while (written < bytes.length) written += Deno.stderr.writeSync(bytes.subarray(written));
}

/** Serve MCP on stdin and stdout until stdin ends. */
export function serve(options: ServeOptions): void {
  const reply = options.reply ?? writeMessage;
  const spec = {
    ...options,
    versions: options.protocolVersion === undefined ? undefined : [options.protocolVersion],
  };
  // The version agreed at `initialize`: an error is answered with the code it gives it.
  let agreed: string | undefined;
  const fitted = (response: JsonObject, request: JsonObject): JsonObject => {
    const result = response.result as JsonObject | undefined;
    if (request.method === "initialize" && typeof result?.protocolVersion === "string") {
      agreed = result.protocolVersion;
    }
    const version = declaredVersion(request.params) ?? agreed;
    const error = response.error as JsonObject | undefined;
    if (typeof version !== "string" || typeof request.method !== "string" || !error) {
      return response;
    }
    return { ...response, error: fitError(request.method, error, version) };
  };
  readLines((line) => {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return writeBytes(encoder.encode(handleLine(line, spec) + "\n")); // the parse error
    }
    const answer = respond(message, spec);
    if (answer === undefined) return;
    const response = fitted(answer, message as JsonObject);
    if (ANSWERS.has((message as JsonObject).method)) reply(response, message as JsonObject);
    else writeMessage(response);
  });
  (options.onEnd ?? (() => Deno.exit(0)))();
}

/** Read stdin line by line until it ends. */
function readLines(onLine: (line: string) => void): void {
  const buffer = new Uint8Array(65536);
  let pending = new Uint8Array(0);
  while (true) {
    const count = Deno.stdin.readSync(buffer);
    if (count === null) return;
    let chunk: Uint8Array = buffer.subarray(0, count);
    if (pending.length > 0) {
      chunk = concat(pending, chunk);
    }
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      const line = decoder.decode(chunk.subarray(start, end)).trim();
      start = end + 1;
      if (line !== "") onLine(line);
    }
    pending = chunk.slice(start);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

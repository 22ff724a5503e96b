// A small synchronous MCP server over stdio, shared by the course's servers.
// It reads stdin with readSync and writes stdout with writeSync: simple, fast,
// and easy to make misbehave on purpose, which the teaching server does
// through the `reply` hook.

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** What a tool returns: its text, and whether it reports a failure. */
export interface ToolOutcome {
  text: string;
  isError?: boolean;
}

/** One tool a server offers. */
export interface ServerTool {
  name: string;
  description: string;
  inputSchema: JsonObject;
  call(args: JsonObject): ToolOutcome;
}

/** How to run a server. */
export interface ServeOptions {
  name: string;
  version: string;
  tools: ServerTool[];
  /** The version the server answers `initialize` with. Defaults to 2025-06-18. */
  protocolVersion?: string;
  /** The `tools/list` result for a cursor. Defaults to every tool on one page. */
  list?(cursor: string | undefined): JsonObject;
  /** Called with every `tools/call` received, before it is answered. */
  onCall?(name: string, args: JsonObject): void;
  /** Sends a `tools/call` response; a misbehaving server replaces it. Defaults to `writeMessage`. */
  reply?(response: JsonObject, request: JsonObject): void;
  /** Called when stdin ends. Defaults to exiting with status 0. */
  onEnd?(): void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

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

/** A text result for `tools/call`. */
export function toolResult(outcome: ToolOutcome): JsonObject {
  return { content: [{ type: "text", text: outcome.text }], isError: outcome.isError ?? false };
}

/** Serve MCP on stdin and stdout until stdin ends. */
export function serve(options: ServeOptions): void {
  const reply = options.reply ?? writeMessage;
  const tools = new Map(options.tools.map((tool) => [tool.name, tool]));
  const advertised = options.tools.map(({ call: _, ...tool }) => tool);
  const handle = (line: string) => {
    let message: JsonObject;
    try {
      message = JSON.parse(line);
    } catch {
      writeMessage(failure(null, -32700, "Parse error: a line is not JSON"));
      return;
    }
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      writeMessage(failure(null, -32600, "Invalid request: not a JSON object"));
      return;
    }
    if (!("id" in message) || typeof message.method !== "string") return; // notification or reply
    const id = message.id;
    const params = (message.params ?? {}) as JsonObject;
    switch (message.method) {
      case "initialize":
        return writeMessage(success(id, {
          protocolVersion: options.protocolVersion ?? "2025-06-18",
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: options.name, version: options.version },
        }));
      case "ping":
        return writeMessage(success(id, {}));
      case "tools/list": {
        const cursor = typeof params.cursor === "string" ? params.cursor : undefined;
        return writeMessage(success(id, options.list?.(cursor) ?? { tools: advertised }));
      }
      case "tools/call": {
        const name = String(params.name);
        const args = (params.arguments ?? {}) as JsonObject;
        options.onCall?.(name, args);
        const tool = tools.get(name);
        const response = tool === undefined
          ? failure(id, -32602, `Unknown tool: ${name}`)
          : success(id, toolResult(tool.call(args)));
        return reply(response, message);
      }
      default:
        return writeMessage(failure(id, -32601, `Method not found: ${message.method}`));
    }
  };
  readLines(handle);
  (options.onEnd ?? (() => Deno.exit(0)))();
}

function success(id: unknown, result: JsonObject): JsonObject {
  return { jsonrpc: "2.0", id, result };
}

function failure(id: unknown, code: number, message: string): JsonObject {
  return { jsonrpc: "2.0", id, error: { code, message } };
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

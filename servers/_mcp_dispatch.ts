// What a course server answers to one line it reads, as a pure function:
// the process servers (`_mcp_server.ts`) write the answer to stdout, and the
// in-process grammar server (`grammar_in_process.ts`) to a stream.

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

/** What a server is: its name, its tools, and how it answers the requests that are not calls. */
export interface DispatchOptions {
  name: string;
  version: string;
  tools: ServerTool[];
  /** The version the server answers `initialize` with. Defaults to 2025-06-18. */
  protocolVersion?: string;
  /** The `tools/list` result for a cursor. Defaults to every tool on one page. */
  list?(cursor: string | undefined): JsonObject;
  /** Called with every `tools/call` received, before it is answered. */
  onCall?(name: string, args: JsonObject): void;
}

/** The answer to one line: the response, and the request when it was a `tools/call`. */
export interface Dispatched {
  response: JsonObject;
  /** The `tools/call` request this answers (a misbehaving server may answer it otherwise). */
  call?: JsonObject;
}

/**
 * The server's answer to `line`: a response, or `undefined` for a
 * notification or a response (nothing answers those).
 */
export function dispatch(options: DispatchOptions, line: string): Dispatched | undefined {
  let message: JsonObject;
  try {
    message = JSON.parse(line);
  } catch {
    return { response: failure(null, -32700, "Parse error: a line is not JSON") };
  }
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return { response: failure(null, -32600, "Invalid request: not a JSON object") };
  }
  if (!("id" in message) || typeof message.method !== "string") return undefined;
  const id = message.id;
  const params = (message.params ?? {}) as JsonObject;
  switch (message.method) {
    case "initialize":
      return {
        response: success(id, {
          protocolVersion: options.protocolVersion ?? "2025-06-18",
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: options.name, version: options.version },
        }),
      };
    case "ping":
      return { response: success(id, {}) };
    case "tools/list": {
      const cursor = typeof params.cursor === "string" ? params.cursor : undefined;
      const advertised = options.tools.map(({ call: _, ...tool }) => tool);
      return { response: success(id, options.list?.(cursor) ?? { tools: advertised }) };
    }
    case "tools/call": {
      const name = String(params.name);
      const args = (params.arguments ?? {}) as JsonObject;
      options.onCall?.(name, args);
      const tool = options.tools.find((tool) => tool.name === name);
      const response = tool === undefined
        ? failure(id, -32602, `Unknown tool: ${name}`)
        : success(id, toolResult(tool.call(args)));
      return { response, call: message };
    }
    default:
      return { response: failure(id, -32601, `Method not found: ${message.method}`) };
  }
}

/** A text result for `tools/call`. */
function toolResult(outcome: ToolOutcome): JsonObject {
  return { content: [{ type: "text", text: outcome.text }], isError: outcome.isError ?? false };
}

function success(id: unknown, result: JsonObject): JsonObject {
  return { jsonrpc: "2.0", id, result };
}

function failure(id: unknown, code: number, message: string): JsonObject {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

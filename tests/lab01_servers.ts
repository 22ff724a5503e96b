// Lab 01's catalogue of learners' servers, as modules a learner could submit:
// correct ones written in different styles, and wrong ones written the way
// learners get a server wrong. tests/lab01_grading_test.ts grades each in the
// sandbox: every correct one keeps every mark, every wrong one loses some.
// `LIB/` stands for the library folder beside the submitted module.

const IMPORTS = `
import { GRAMMAR_TOOLS } from "LIB/server/grammar_tools.ts";
import { argumentProblems } from "LIB/server/arguments.ts";
`;

/** The worked edition's way, as a module. */
const WORKED = `${IMPORTS}
const SUPPORTED_VERSIONS = ["2025-06-18", "2024-11-05"];

export function negotiateVersion(requested) {
  return typeof requested === "string" && SUPPORTED_VERSIONS.includes(requested)
    ? requested
    : SUPPORTED_VERSIONS[0];
}

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value) => typeof value === "string" || Number.isSafeInteger(value);
const success = (id, result) => JSON.stringify({ jsonrpc: "2.0", id, result });
const failure = (id, code, message) => JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } });

export function handleMessage(line) {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return failure(null, -32700, "Parse error: the line is not JSON");
  }
  if (!isObject(message)) return failure(null, -32600, "Invalid request: not one JSON object");
  const hasId = "id" in message;
  const id = hasId && isId(message.id) ? message.id : null;
  const isResponse = !("method" in message) && ("result" in message || "error" in message);
  if (message.jsonrpc === "2.0" && isResponse) return undefined;
  if (message.jsonrpc !== "2.0" || typeof message.method !== "string" || (hasId && id === null)) {
    return failure(id, -32600, "Invalid request");
  }
  if (!hasId) return undefined;
  if ("params" in message && !isObject(message.params)) {
    return failure(id, -32602, "Invalid params: params must be an object");
  }
  const params = message.params ?? {};
  switch (message.method) {
    case "initialize":
      if (typeof params.protocolVersion !== "string") {
        return failure(id, -32602, "Invalid params: protocolVersion is missing");
      }
      return success(id, {
        protocolVersion: negotiateVersion(params.protocolVersion),
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: "grammar", version: "1.0.0" },
      });
    case "ping":
      return success(id, {});
    case "tools/list":
      return success(id, {
        tools: GRAMMAR_TOOLS.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
      });
    case "tools/call":
      return callTool(id, params);
    default:
      return failure(id, -32601, "Method not found: " + message.method);
  }
}

function callTool(id, params) {
  const tool = GRAMMAR_TOOLS.find((tool) => tool.name === params.name);
  if (tool === undefined) return failure(id, -32602, "Unknown tool: " + params.name);
  const args = params.arguments ?? {};
  const problems = argumentProblems(tool.inputSchema, args);
  if (problems.length > 0) return failure(id, -32602, "Invalid arguments: " + problems.join("; "));
  const { text, isError = false } = tool.call(args);
  return success(id, { content: [{ type: "text", text }], isError });
}
`;

/** Correct servers, each in a style of its own. */
export const RIGHT: Record<string, string> = {
  "the worked solution's way": WORKED,
  "a table of handlers and thrown errors": `${IMPORTS}
const VERSIONS = new Set(["2025-06-18", "2024-11-05"]);
export const negotiateVersion = (asked) => (VERSIONS.has(asked) ? asked : "2025-06-18");

class RpcError extends Error {
  constructor(code, message) { super(message); this.code = code; }
}
const TOOLS = new Map(GRAMMAR_TOOLS.map((tool) => [tool.name, tool]));
const HANDLERS = {
  initialize(params) {
    if (typeof params.protocolVersion !== "string") throw new RpcError(-32602, "protocolVersion?");
    return {
      protocolVersion: negotiateVersion(params.protocolVersion),
      capabilities: { tools: {} },
      serverInfo: { name: "my-grammar", version: "0.1.0" },
      instructions: "Four grammar tools.",
    };
  },
  ping: () => ({}),
  "tools/list": () => ({ tools: GRAMMAR_TOOLS.map(({ call, ...tool }) => tool) }),
  "tools/call"(params) {
    const tool = typeof params.name === "string" ? TOOLS.get(params.name) : undefined;
    if (!tool) throw new RpcError(-32602, "no such tool");
    const problems = argumentProblems(tool.inputSchema, params.arguments ?? {});
    if (problems.length) throw new RpcError(-32602, problems.join(", "));
    const outcome = tool.call(params.arguments);
    return outcome.isError
      ? { content: [{ type: "text", text: outcome.text }], isError: true }
      : { content: [{ type: "text", text: outcome.text }] };
  },
};

export function handleMessage(line) {
  const reply = (body) => JSON.stringify({ jsonrpc: "2.0", ...body });
  let msg;
  try { msg = JSON.parse(line); } catch { return reply({ id: null, error: { code: -32700, message: "parse" } }); }
  if (msg === null || typeof msg !== "object" || Array.isArray(msg)) {
    return reply({ id: null, error: { code: -32600, message: "invalid" } });
  }
  const validId = typeof msg.id === "string" || Number.isInteger(msg.id);
  if (msg.jsonrpc === "2.0" && msg.method === undefined && ("result" in msg || "error" in msg)) return;
  if (msg.jsonrpc !== "2.0" || typeof msg.method !== "string" || ("id" in msg && !validId)) {
    return reply({ id: validId ? msg.id : null, error: { code: -32600, message: "invalid" } });
  }
  if (!("id" in msg)) return;
  const params = msg.params === undefined ? {} : msg.params;
  if (params === null || typeof params !== "object" || Array.isArray(params)) {
    return reply({ id: msg.id, error: { code: -32602, message: "params" } });
  }
  if (!Object.hasOwn(HANDLERS, msg.method)) {
    return reply({ id: msg.id, error: { code: -32601, message: "no method " + msg.method } });
  }
  try {
    return reply({ id: msg.id, result: HANDLERS[msg.method](params) });
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    return reply({ id: msg.id, error: { code: error.code, message: error.message, data: { method: msg.method } } });
  }
}
`,
  "a class with early returns and its own schema walk": `${IMPORTS}
export function negotiateVersion(requested) {
  for (const version of ["2025-06-18", "2024-11-05"]) if (version === requested) return version;
  return "2025-06-18";
}

class GrammarServer {
  respond(message) {
    if (Array.isArray(message) || typeof message !== "object" || message === null) return this.error(null, -32600);
    const { jsonrpc, id, method, params } = message;
    const idOk = typeof id === "string" || (typeof id === "number" && Number.isInteger(id));
    if (method === undefined && jsonrpc === "2.0" && ("result" in message || "error" in message)) return undefined;
    if (jsonrpc !== "2.0" || typeof method !== "string") return this.error(idOk ? id : null, -32600);
    if ("id" in message && !idOk) return this.error(null, -32600);
    if (!("id" in message)) return undefined;
    if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) {
      return this.error(id, -32602);
    }
    const p = params || {};
    if (method === "ping") return this.ok(id, {});
    if (method === "initialize") {
      return typeof p.protocolVersion === "string"
        ? this.ok(id, { protocolVersion: negotiateVersion(p.protocolVersion), capabilities: { tools: { listChanged: false } }, serverInfo: { name: "g", version: "2" } })
        : this.error(id, -32602);
    }
    if (method === "tools/list") {
      return this.ok(id, { tools: GRAMMAR_TOOLS.map((t) => ({ name: t.name, title: t.name, description: t.description, inputSchema: t.inputSchema })) });
    }
    if (method !== "tools/call") return this.error(id, -32601);
    const tool = GRAMMAR_TOOLS.filter((t) => t.name === p.name)[0];
    if (!tool) return this.error(id, -32602);
    if (!this.fits(tool.inputSchema, p.arguments === undefined ? {} : p.arguments)) return this.error(id, -32602);
    const out = tool.call(p.arguments);
    return this.ok(id, { content: [{ type: "text", text: out.text }], isError: Boolean(out.isError), structuredContent: undefined });
  }
  fits(schema, args) {
    if (typeof args !== "object" || args === null || Array.isArray(args)) return false;
    for (const key of schema.required) if (!(key in args)) return false;
    for (const [key, value] of Object.entries(args)) {
      const rule = schema.properties[key];
      if (!Object.hasOwn(schema.properties, key)) return false;
      if (typeof value !== rule.type) return false;
      if (rule.enum && !rule.enum.includes(value)) return false;
      if (rule.minLength !== undefined && value.length < rule.minLength) return false;
    }
    return true;
  }
  ok(id, result) { return JSON.stringify({ jsonrpc: "2.0", id, result }); }
  error(id, code) { return JSON.stringify({ jsonrpc: "2.0", id, error: { code, message: "error " + code } }); }
}

const server = new GrammarServer();
export function handleMessage(line) {
  let parsed;
  try { parsed = JSON.parse(line); } catch (e) { return server.error(null, -32700); }
  return server.respond(parsed);
}
`,
};

/** `WORKED` with `from` replaced by `to`, checking that the change applies. */
function mutate(from: string, to: string): string {
  if (!WORKED.includes(from)) throw new Error(`The mutation does not apply: ${from}`);
  return WORKED.replace(from, to);
}

/** Wrong servers, each a mistake learners make. */
export const WRONG: Record<string, string> = {
  "answers notifications": mutate(
    "  if (!hasId) return undefined;",
    "  if (!hasId) return success(null, {});",
  ),
  "-32601 for an unknown tool": mutate(
    'if (tool === undefined) return failure(id, -32602, "Unknown tool: " + params.name);',
    'if (tool === undefined) return failure(id, -32601, "Unknown tool: " + params.name);',
  ),
  "logs to stdout": mutate(
    "  let message;\n",
    '  let message;\n  console.log("grammar server received:", line);\n',
  ),
  "echoes a string id as a number": mutate(
    "const id = hasId && isId(message.id) ? message.id : null;",
    "const id = hasId && isId(message.id) ? (Number.isNaN(Number(message.id)) ? message.id : Number(message.id)) : null;",
  ),
  "replies to a batch element by element": mutate(
    '  if (!isObject(message)) return failure(null, -32600, "Invalid request: not one JSON object");',
    `  if (Array.isArray(message) && message.length > 0) {
    return "[" + message.map((one) => handleMessage(JSON.stringify(one))).filter(Boolean).join(",") + "]";
  }
  if (!isObject(message)) return failure(null, -32600, "Invalid request: not one JSON object");`,
  ),
  "echoes whatever version the client asks for": mutate(
    "protocolVersion: negotiateVersion(params.protocolVersion),",
    "protocolVersion: params.protocolVersion,",
  ).replace(
    `  return typeof requested === "string" && SUPPORTED_VERSIONS.includes(requested)
    ? requested
    : SUPPORTED_VERSIONS[0];`,
    "  return requested;",
  ),
  "always answers its own version": mutate(
    "protocolVersion: negotiateVersion(params.protocolVersion),",
    'protocolVersion: "2025-06-18",',
  ).replace(
    `  return typeof requested === "string" && SUPPORTED_VERSIONS.includes(requested)
    ? requested
    : SUPPORTED_VERSIONS[0];`,
    '  return "2025-06-18";',
  ),
  "isError for an unknown tool, a protocol error": mutate(
    'if (tool === undefined) return failure(id, -32602, "Unknown tool: " + params.name);',
    'if (tool === undefined) return success(id, { content: [{ type: "text", text: "Unknown tool" }], isError: true });',
  ),
  "a JSON-RPC error for a tool's own failure": mutate(
    "  const { text, isError = false } = tool.call(args);",
    "  const { text, isError = false } = tool.call(args);\n  if (isError) return failure(id, -32603, text);",
  ),
  "arguments not checked against the schema": mutate(
    "  const problems = argumentProblems(tool.inputSchema, args);",
    "  const problems = [];",
  ),
  "replies pretty-printed over several lines": mutate(
    'const success = (id, result) => JSON.stringify({ jsonrpc: "2.0", id, result });',
    'const success = (id, result) => JSON.stringify({ jsonrpc: "2.0", id, result }, null, 2);',
  ),
  "a request with id 0 taken for a notification": mutate(
    "  if (!hasId) return undefined;",
    '  if (!message.id && message.id !== "") return undefined;',
  ),
  "parse errors with no id at all": mutate(
    'return failure(null, -32700, "Parse error: the line is not JSON");',
    'return JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } });',
  ),
  "tools looked up in a plain object": mutate(
    "  const tool = GRAMMAR_TOOLS.find((tool) => tool.name === params.name);",
    "  const tool = Object.fromEntries(GRAMMAR_TOOLS.map((t) => [t.name, t]))[params.name];",
  ),
  "the tool's text sent as the result itself": mutate(
    '  return success(id, { content: [{ type: "text", text }], isError });',
    "  return success(id, { content: text, isError });",
  ),
  "an unknown method answered as invalid": mutate(
    'return failure(id, -32601, "Method not found: " + message.method);',
    'return failure(id, -32600, "Method not found: " + message.method);',
  ),
  "initialize without a protocolVersion accepted": mutate(
    `      if (typeof params.protocolVersion !== "string") {
        return failure(id, -32602, "Invalid params: protocolVersion is missing");
      }
`,
    "",
  ),
  "responses from the client answered as bad requests": mutate(
    '  if (message.jsonrpc === "2.0" && isResponse) return undefined;\n',
    "",
  ),
};

// Lab 01's catalogue: whole servers as learners write them (handleMessage and
// negotiateVersion in one module), correct ones in other styles and wrong ones
// each named for its mistake, and negotiateVersion on its own.
// tests/lab01_judges_test.ts also runs some of the wrong ones as processes.

import type { Catalogue } from "./learner.ts";

const IMPORTS = `
import { GRAMMAR_TOOLS } from "../lib/course/grammar_tools.ts";
import { argumentProblems } from "../lib/mcp/server/arguments.ts";
`;

/** The worked edition's way, as a module. */
const WORKED = `${IMPORTS}
const SUPPORTED_VERSIONS = ["2025-06-18", "2024-11-05"];

export function negotiateVersion(requested) {
  return SUPPORTED_VERSIONS.includes(requested) ? requested : SUPPORTED_VERSIONS[0];
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
  if (!("method" in message) && ("result" in message || "error" in message)) return undefined;
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
        capabilities: { tools: {} },
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
const RIGHT: Record<string, string> = {
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
  "reply objects first, serialized once": `${IMPORTS}
export function negotiateVersion(version) {
  switch (version) {
    case "2025-06-18":
    case "2024-11-05":
      return version;
    default:
      return "2025-06-18";
  }
}

const error = (id, code, text) => ({ jsonrpc: "2.0", id, error: { code, message: text } });
const plain = (value) => Object.prototype.toString.call(value) === "[object Object]";

function respond(msg) {
  if (!plain(msg)) return error(null, -32600, "expected one request object");
  const { jsonrpc, id, method } = msg;
  const hasId = Object.hasOwn(msg, "id");
  if (method === undefined && (Object.hasOwn(msg, "result") || Object.hasOwn(msg, "error"))) return null;
  const goodId = typeof id === "string" || Number.isSafeInteger(id);
  if (jsonrpc !== "2.0" || typeof method !== "string" || (hasId && !goodId)) {
    return error(goodId ? id : null, -32600, "not a JSON-RPC 2.0 request");
  }
  if (!hasId) return null;
  if (Object.hasOwn(msg, "params") && !plain(msg.params)) return error(id, -32602, "params must be an object");
  const params = msg.params ?? {};
  const ok = (result) => ({ jsonrpc: "2.0", id, result });
  if (method === "ping") return ok({});
  if (method === "initialize") {
    if (typeof params.protocolVersion !== "string") return error(id, -32602, "which protocolVersion?");
    return ok({
      protocolVersion: negotiateVersion(params.protocolVersion),
      capabilities: { tools: {} },
      serverInfo: { name: "grammar-4", version: "4.0.0" },
    });
  }
  if (method === "tools/list") return ok({ tools: GRAMMAR_TOOLS.map((t) => ({ ...t, call: undefined })) });
  if (method !== "tools/call") return error(id, -32601, "unknown method " + method);
  const tool = GRAMMAR_TOOLS.find(({ name }) => name === params.name);
  if (!tool) return error(id, -32602, "unknown tool " + String(params.name));
  const args = "arguments" in params ? params.arguments : {};
  const wrong = argumentProblems(tool.inputSchema, args);
  if (wrong.length) return error(id, -32602, wrong.join("; "));
  const answer = tool.call(args);
  return ok({ content: [{ type: "text", text: answer.text }], isError: answer.isError === true });
}

export function handleMessage(line) {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return JSON.stringify(error(null, -32700, "that line is not JSON"));
  }
  const reply = respond(msg);
  return reply === null ? undefined : JSON.stringify(reply);
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
    "  return SUPPORTED_VERSIONS.includes(requested) ? requested : SUPPORTED_VERSIONS[0];",
    "  return requested;",
  ),
  "always answers its own version": mutate(
    "protocolVersion: negotiateVersion(params.protocolVersion),",
    'protocolVersion: "2025-06-18",',
  ).replace(
    "  return SUPPORTED_VERSIONS.includes(requested) ? requested : SUPPORTED_VERSIONS[0];",
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
    '  if (!("method" in message) && ("result" in message || "error" in message)) return undefined;\n',
    "",
  ),
};

/** `negotiateVersion` alone, as a learner's module. */
const version = (body: string) => `export function negotiateVersion(requested) {\n${body}\n}\n`;

/** negotiateVersion's catalogue. */
const NEGOTIATE: Catalogue = {
  unit: "lab-01",
  fn: "negotiateVersion",
  right: {
    "the worked solution's way": WORKED,
    "a set of versions": `const SPOKEN = new Set(["2025-06-18", "2024-11-05"]);
${version('  return SPOKEN.has(requested) ? requested : "2025-06-18";')}`,
    "a switch": version(`  switch (requested) {
    case "2025-06-18":
    case "2024-11-05":
      return requested;
    default:
      return "2025-06-18";
  }`),
    "find, or the newest": version(
      '  return ["2025-06-18", "2024-11-05"].find((v) => v === requested) ?? "2025-06-18";',
    ),
  },
  wrong: {
    "echoes whatever the client asks for": version("  return requested;"),
    "always its own newest": version('  return "2025-06-18";'),
    "always its oldest": version('  return "2024-11-05";'),
    "an unsupported version falls back to the oldest": version(
      '  return ["2025-06-18", "2024-11-05"].includes(requested) ? requested : "2024-11-05";',
    ),
    "a version that contains a supported one is taken as it is": version(
      '  return ["2025-06-18", "2024-11-05"].some((v) => String(requested).includes(v)) ? requested : "2025-06-18";',
    ),
    "the requested version trimmed first": version(
      '  const v = String(requested).trim();\n  return ["2025-06-18", "2024-11-05"].includes(v) ? v : "2025-06-18";',
    ),
    "any older version gets the older one": version(
      '  return requested >= "2025-06-18" ? "2025-06-18" : "2024-11-05";',
    ),
    "any date-shaped version is accepted": version(
      '  return /^\\d{4}-\\d{2}-\\d{2}/.test(String(requested)) ? requested : "2025-06-18";',
    ),
    "an unsupported version is refused": version(
      '  if (!["2025-06-18", "2024-11-05"].includes(requested)) throw new Error("unsupported version");\n  return requested;',
    ),
    "indexOf taken as a yes or no": version(
      '  return ["2025-06-18", "2024-11-05"].indexOf(requested) ? requested : "2025-06-18";',
    ),
    "the newest of the two, capped": version(
      '  return requested > "2025-06-18" ? "2025-06-18" : requested;',
    ),
    "an object instead of the version": version(
      '  return { protocolVersion: ["2025-06-18", "2024-11-05"].includes(requested) ? requested : "2025-06-18" };',
    ),
  },
};

/** Lab 01's catalogues: negotiateVersion, and handleMessage (whole servers). */
export const LAB_01: Catalogue[] = [
  NEGOTIATE,
  { unit: "lab-01", fn: "handleMessage", right: RIGHT, wrong: WRONG },
];

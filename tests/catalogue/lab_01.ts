// Lab 01's catalogue: whole servers as learners write them (handleMessage and
// negotiateVersion in one module), correct ones in other styles and wrong ones
// each named for its mistake, and negotiateVersion on its own.
// tests/lab01_judges_test.ts also runs some of the wrong ones as processes.

import { type Catalogue, mutationsOf } from "./learner.ts";

const IMPORTS = `
import { GRAMMAR_TOOLS } from "../lib/course/grammar_tools.ts";
import { argumentProblems } from "../lib/mcp/server/arguments.ts";
import { META } from "../lib/mcp/shared/meta.ts";
`;

/** The worked edition's way, as a module. */
export const WORKED = `${IMPORTS}
const SUPPORTED_VERSIONS = ["2026-07-28", "2025-06-18", "2024-11-05"];
const MODERN_VERSIONS = ["2026-07-28"];
const HANDSHAKE_VERSIONS = ["2025-06-18", "2024-11-05"];
const SERVER_INFO = { name: "grammar", version: "1.0.0" };

export function negotiateVersion(requested) {
  return HANDSHAKE_VERSIONS.includes(requested) ? requested : HANDSHAKE_VERSIONS[0];
}

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value) => typeof value === "string" || Number.isSafeInteger(value);
const success = (id, result) => JSON.stringify({ jsonrpc: "2.0", id, result });
const failure = (id, code, message, data) =>
  JSON.stringify({ jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } });

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
  return answerRequest(id, message.method, message.params ?? {});
}

function answerRequest(id, method, params) {
  const meta = params._meta;
  const today = method === "server/discover" || (isObject(meta) && META.protocolVersion in meta);
  if (!today) return answerHandshake(id, method, params);
  if (
    !isObject(meta) || typeof meta[META.protocolVersion] !== "string" ||
    !isObject(meta[META.clientCapabilities])
  ) {
    return failure(id, -32602, "Invalid params: _meta must name a version and the client's capabilities");
  }
  const version = meta[META.protocolVersion];
  if (!MODERN_VERSIONS.includes(version)) {
    return failure(id, -32022, "Unsupported protocol version: " + version, {
      supported: SUPPORTED_VERSIONS,
      requested: version,
    });
  }
  return answerToday(id, method, params);
}

function answerToday(id, method, params) {
  if (method === "tools/list" || method === "tools/call") return answerTools(id, method, params, "modern");
  if (method === "server/discover") {
    return complete(id, method, { supportedVersions: SUPPORTED_VERSIONS, capabilities: { tools: {} } });
  }
  return failure(id, -32601, "Method not found: " + method + " (2026-07-28 has no such method)");
}

function complete(id, method, result) {
  const cacheable = method === "server/discover" || method === "tools/list";
  return success(id, {
    ...result,
    resultType: "complete",
    _meta: { [META.serverInfo]: SERVER_INFO },
    ...(cacheable ? { ttlMs: 60000, cacheScope: "public" } : {}),
  });
}

function answerHandshake(id, method, params) {
  if (method === "tools/list" || method === "tools/call") return answerTools(id, method, params, "legacy");
  switch (method) {
    case "initialize":
      if (typeof params.protocolVersion !== "string") {
        return failure(id, -32602, "Invalid params: protocolVersion is missing");
      }
      return success(id, {
        protocolVersion: negotiateVersion(params.protocolVersion),
        capabilities: { tools: {} },
        serverInfo: SERVER_INFO,
      });
    case "ping":
      return success(id, {});
    default:
      return failure(id, -32601, "Method not found: " + method);
  }
}

function answerTools(id, method, params, era) {
  const reply = (result) => era === "modern" ? complete(id, method, result) : success(id, result);
  if (method === "tools/list") {
    return reply({
      tools: GRAMMAR_TOOLS.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    });
  }
  const tool = GRAMMAR_TOOLS.find((tool) => tool.name === params.name);
  if (tool === undefined) return failure(id, -32602, "Unknown tool: " + params.name);
  const args = Object.hasOwn(params, "arguments") ? params.arguments : {};
  if (!isObject(args)) return failure(id, -32602, "Invalid params: arguments must be an object");
  const problems = argumentProblems(tool.inputSchema, args);
  if (problems.length > 0) {
    const why = "Invalid arguments: " + problems.join("; ");
    if (era === "legacy") return failure(id, -32602, why);
    return reply({ content: [{ type: "text", text: why }], isError: true });
  }
  const { text, isError = false } = tool.call(args);
  return reply({ content: [{ type: "text", text }], isError });
}
`;

/** Correct servers, each in a style of its own. */
const RIGHT: Record<string, string> = {
  "the worked solution's way": WORKED,
  "a table of handlers and thrown errors": `${IMPORTS}
const VERSIONS = new Set(["2025-06-18", "2024-11-05"]);
export const negotiateVersion = (asked) => (VERSIONS.has(asked) ? asked : "2025-06-18");

class RpcError extends Error {
  constructor(code, message, data) { super(message); this.code = code; this.data = data; }
}
const TOOLS = new Map(GRAMMAR_TOOLS.map((tool) => [tool.name, tool]));
const SERVER = { name: "my-grammar", version: "0.1.0" };
const callTool = (params, lenient) => {
  const tool = typeof params.name === "string" ? TOOLS.get(params.name) : undefined;
  if (!tool) throw new RpcError(-32602, "no such tool");
  const given = "arguments" in params ? params.arguments : {};
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    throw new RpcError(-32602, "arguments must be an object");
  }
  const problems = argumentProblems(tool.inputSchema, given);
  if (problems.length) {
    if (!lenient) throw new RpcError(-32602, problems.join(", "));
    return { content: [{ type: "text", text: problems.join(", ") }], isError: true };
  }
  const outcome = tool.call(params.arguments);
  return outcome.isError
    ? { content: [{ type: "text", text: outcome.text }], isError: true }
    : { content: [{ type: "text", text: outcome.text }] };
};
const listTools = () => ({ tools: GRAMMAR_TOOLS.map(({ call, ...tool }) => tool) });
const HANDSHAKE = {
  initialize(params) {
    if (typeof params.protocolVersion !== "string") throw new RpcError(-32602, "protocolVersion?");
    return {
      protocolVersion: negotiateVersion(params.protocolVersion),
      capabilities: { tools: {} },
      serverInfo: SERVER,
      instructions: "Four grammar tools.",
    };
  },
  ping: () => ({}),
  "tools/list": listTools,
  "tools/call": (params) => callTool(params, false),
};
const TODAY = {
  "server/discover": () => ({
    supportedVersions: ["2024-11-05", "2025-06-18", "2026-07-28"],
    capabilities: { tools: { listChanged: false } },
    instructions: "Four grammar tools.",
    ttlMs: 0,
    cacheScope: "private",
  }),
  "tools/list": () => ({ ...listTools(), ttlMs: 0, cacheScope: "private" }),
  "tools/call": (params) => callTool(params, true),
};

function checked(params) {
  const meta = params._meta;
  const version = meta?.["io.modelcontextprotocol/protocolVersion"];
  const capabilities = meta?.["io.modelcontextprotocol/clientCapabilities"];
  if (typeof version !== "string" || capabilities === null || typeof capabilities !== "object" || Array.isArray(capabilities)) {
    throw new RpcError(-32602, "a request of 2026-07-28 names its version and capabilities in _meta");
  }
  if (version !== "2026-07-28") {
    throw new RpcError(-32022, "unsupported", {
      supported: ["2024-11-05", "2025-06-18", "2026-07-28"],
      requested: version,
    });
  }
}

export function handleMessage(line) {
  const reply = (body) => JSON.stringify({ jsonrpc: "2.0", ...body });
  let msg;
  try { msg = JSON.parse(line); } catch { return reply({ id: null, error: { code: -32700, message: "parse" } }); }
  if (msg === null || typeof msg !== "object" || Array.isArray(msg)) {
    return reply({ id: null, error: { code: -32600, message: "invalid" } });
  }
  const validId = typeof msg.id === "string" || Number.isSafeInteger(msg.id);
  if (msg.jsonrpc === "2.0" && msg.method === undefined && ("result" in msg || "error" in msg)) return;
  if (msg.jsonrpc !== "2.0" || typeof msg.method !== "string" || ("id" in msg && !validId)) {
    return reply({ id: validId ? msg.id : null, error: { code: -32600, message: "invalid" } });
  }
  if (!("id" in msg)) return;
  const params = msg.params === undefined ? {} : msg.params;
  if (params === null || typeof params !== "object" || Array.isArray(params)) {
    return reply({ id: msg.id, error: { code: -32602, message: "params" } });
  }
  const meta = params._meta;
  const today = msg.method === "server/discover" ||
    (meta !== null && typeof meta === "object" && !Array.isArray(meta) &&
      Object.hasOwn(meta, "io.modelcontextprotocol/protocolVersion"));
  const handlers = today ? TODAY : HANDSHAKE;
  try {
    if (today) checked(params);
    if (!Object.hasOwn(handlers, msg.method)) throw new RpcError(-32601, "no method " + msg.method);
    const result = handlers[msg.method](params);
    if (!today) return reply({ id: msg.id, result });
    return reply({
      id: msg.id,
      result: { ...result, resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": SERVER } },
    });
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    const data = error.data ?? { method: msg.method };
    return reply({ id: msg.id, error: { code: error.code, message: error.message, data } });
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
    const idOk = typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id));
    if (method === undefined && jsonrpc === "2.0" && ("result" in message || "error" in message)) return undefined;
    if (jsonrpc !== "2.0" || typeof method !== "string") return this.error(idOk ? id : null, -32600);
    if ("id" in message && !idOk) return this.error(null, -32600);
    if (!("id" in message)) return undefined;
    if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) {
      return this.error(id, -32602);
    }
    const p = params || {};
    if (this.isToday(method, p)) return this.today(id, method, p);
    if (method === "ping") return this.ok(id, {});
    if (method === "initialize") {
      return typeof p.protocolVersion === "string"
        ? this.ok(id, { protocolVersion: negotiateVersion(p.protocolVersion), capabilities: { tools: { listChanged: false } }, serverInfo: { name: "g", version: "2" } })
        : this.error(id, -32602);
    }
    if (method === "tools/list") return this.ok(id, this.list());
    if (method !== "tools/call") return this.error(id, -32601);
    return this.call(id, p, false);
  }
  isToday(method, p) {
    if (method === "server/discover") return true;
    const meta = p._meta;
    return typeof meta === "object" && meta !== null && !Array.isArray(meta) && META.protocolVersion in meta;
  }
  today(id, method, p) {
    const meta = p._meta;
    if (typeof meta !== "object" || meta === null || Array.isArray(meta)) return this.error(id, -32602);
    const version = meta[META.protocolVersion];
    const caps = meta[META.clientCapabilities];
    if (typeof version !== "string") return this.error(id, -32602);
    if (typeof caps !== "object" || caps === null || Array.isArray(caps)) return this.error(id, -32602);
    if (version !== "2026-07-28") {
      return JSON.stringify({
        jsonrpc: "2.0",
        id,
        error: { code: -32022, message: "unsupported " + version, data: { supported: ["2026-07-28", "2025-06-18", "2024-11-05"], requested: version } },
      });
    }
    const hints = { ttlMs: 3600000, cacheScope: "public" };
    if (method === "server/discover") {
      return this.done(id, { supportedVersions: ["2026-07-28", "2025-06-18", "2024-11-05"], capabilities: { tools: {} }, ...hints });
    }
    if (method === "tools/list") return this.done(id, { ...this.list(), ...hints });
    if (method === "tools/call") return this.call(id, p, true);
    return this.error(id, -32601);
  }
  list() {
    return { tools: GRAMMAR_TOOLS.map((t) => ({ name: t.name, title: t.name, description: t.description, inputSchema: t.inputSchema })) };
  }
  call(id, p, today) {
    const tool = GRAMMAR_TOOLS.filter((t) => t.name === p.name)[0];
    if (!tool) return this.error(id, -32602);
    const send = (result) => today ? this.done(id, result) : this.ok(id, result);
    const a = p.arguments === undefined ? {} : p.arguments;
    if (a === null || typeof a !== "object" || Array.isArray(a)) return this.error(id, -32602);
    if (!this.fits(tool.inputSchema, p.arguments === undefined ? {} : p.arguments)) {
      return today ? send({ content: [{ type: "text", text: "arguments do not fit" }], isError: true }) : this.error(id, -32602);
    }
    const out = tool.call(p.arguments);
    return send({ content: [{ type: "text", text: out.text }], isError: Boolean(out.isError), structuredContent: undefined });
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
  done(id, result) {
    return this.ok(id, { resultType: "complete", ...result, _meta: { [META.serverInfo]: { name: "g", version: "2" } } });
  }
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

const error = (id, code, text, data) => ({ jsonrpc: "2.0", id, error: { code, message: text, ...(data ? { data } : {}) } });
const plain = (value) => Object.prototype.toString.call(value) === "[object Object]";
const ME = { name: "grammar-4", version: "4.0.0" };
const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

function modernCheck(id, meta) {
  if (!plain(meta) || typeof meta[VERSION_KEY] !== "string") return error(id, -32602, "which version?");
  if (!plain(meta["io.modelcontextprotocol/clientCapabilities"])) return error(id, -32602, "which capabilities?");
  const version = meta[VERSION_KEY];
  if (version === "2026-07-28") return null;
  return error(id, -32022, "not " + version, { requested: version, supported: ["2025-06-18", "2026-07-28", "2024-11-05"] });
}

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
  const modern = method === "server/discover" || (plain(params._meta) && Object.hasOwn(params._meta, VERSION_KEY));
  if (modern) {
    const refused = modernCheck(id, params._meta);
    if (refused) return refused;
  }
  const ok = (result) => ({
    jsonrpc: "2.0",
    id,
    result: modern ? { ...result, resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": ME } } : result,
  });
  const hints = { ttlMs: 30000, cacheScope: "public" };
  if (modern && method === "server/discover") {
    return ok({ supportedVersions: ["2026-07-28", "2025-06-18", "2024-11-05"], capabilities: { tools: {} }, ...hints });
  }
  if (!modern && method === "ping") return ok({});
  if (!modern && method === "initialize") {
    if (typeof params.protocolVersion !== "string") return error(id, -32602, "which protocolVersion?");
    return ok({
      protocolVersion: negotiateVersion(params.protocolVersion),
      capabilities: { tools: {} },
      serverInfo: ME,
    });
  }
  if (method === "tools/list") {
    return ok({ tools: GRAMMAR_TOOLS.map((t) => ({ ...t, call: undefined })), ...(modern ? hints : {}) });
  }
  if (method !== "tools/call") return error(id, -32601, "unknown method " + method);
  const tool = GRAMMAR_TOOLS.find(({ name }) => name === params.name);
  if (!tool) return error(id, -32602, "unknown tool " + String(params.name));
  const args = "arguments" in params ? params.arguments : {};
  if (Object.prototype.toString.call(args) !== "[object Object]") return error(id, -32602, "arguments: an object");
  const wrong = argumentProblems(tool.inputSchema, args);
  if (wrong.length && !modern) return error(id, -32602, wrong.join("; "));
  if (wrong.length) return ok({ content: [{ type: "text", text: wrong.join("; ") }], isError: true });
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

/** `WORKED` with one change. */
const mutate = mutationsOf(WORKED);

// A byte order mark before the JSON ignored: RFC 8259 lets a parser ignore one ("MAY ignore the
// presence of a byte order mark rather than treating it as an error"), so either reading is right.
RIGHT["a byte order mark ignored, as RFC 8259 allows"] = mutate(
  "message = JSON.parse(line);",
  'message = JSON.parse(line.replace(/^\\uFEFF/, ""));',
);

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
    "  return HANDSHAKE_VERSIONS.includes(requested) ? requested : HANDSHAKE_VERSIONS[0];",
    "  return requested;",
  ),
  "always answers its own version": mutate(
    "protocolVersion: negotiateVersion(params.protocolVersion),",
    'protocolVersion: "2025-06-18",',
  ).replace(
    "  return HANDSHAKE_VERSIONS.includes(requested) ? requested : HANDSHAKE_VERSIONS[0];",
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
    '  return reply({ content: [{ type: "text", text }], isError });',
    "  return reply({ content: text, isError });",
  ),
  "an unknown method answered as invalid": mutate(
    'return failure(id, -32601, "Method not found: " + method);',
    'return failure(id, -32600, "Method not found: " + method);',
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
  // Today's protocol.
  "a result of today without resultType": mutate('    resultType: "complete",\n', ""),
  "the server not named in today's results": mutate(
    "    _meta: { [META.serverInfo]: SERVER_INFO },\n",
    "",
  ),
  "no caching hints on the tool list": mutate(
    'const cacheable = method === "server/discover" || method === "tools/list";',
    'const cacheable = method === "server/discover";',
  ),
  "an unknown version in _meta answered the handshake's way": mutate(
    'const today = method === "server/discover" || (isObject(meta) && META.protocolVersion in meta);',
    'const today = method === "server/discover" ||\n    (isObject(meta) && MODERN_VERSIONS.includes(meta[META.protocolVersion]));',
  ),
  "the version looked for in params, not in _meta": mutate(
    "  const meta = params._meta;",
    "  const meta = params;",
  ),
  "server/discover answered only after initialize": mutate(
    'const SERVER_INFO = { name: "grammar", version: "1.0.0" };',
    'const SERVER_INFO = { name: "grammar", version: "1.0.0" };\nlet initialized = false;',
  ).replace(
    '  if (method === "server/discover") {',
    '  if (method === "server/discover" && initialized) {',
  ).replace(
    "      return success(id, {\n        protocolVersion: negotiateVersion(params.protocolVersion),",
    "      initialized = true;\n      return success(id, {\n        protocolVersion: negotiateVersion(params.protocolVersion),",
  ),
  "a handshake version accepted in _meta": mutate(
    "  if (!MODERN_VERSIONS.includes(version)) {",
    "  if (!SUPPORTED_VERSIONS.includes(version)) {",
  ),
  "-32022 naming only today's versions": mutate(
    "      supported: SUPPORTED_VERSIONS,\n",
    "      supported: MODERN_VERSIONS,\n",
  ),
  "-32022 that names no version": mutate(
    `return failure(id, -32022, "Unsupported protocol version: " + version, {
      supported: SUPPORTED_VERSIONS,
      requested: version,
    });`,
    'return failure(id, -32022, "Unsupported protocol version: " + version);',
  ),
  "the client's capabilities not checked": mutate(
    `    !isObject(meta) || typeof meta[META.protocolVersion] !== "string" ||
    !isObject(meta[META.clientCapabilities])
  ) {`,
    `    !isObject(meta) || typeof meta[META.protocolVersion] !== "string"
  ) {`,
  ),
  "ping still answered at 2026-07-28": mutate(
    '  if (method === "server/discover") {',
    '  if (method === "ping") return complete(id, method, {});\n  if (method === "server/discover") {',
  ),
  "server/discover naming only today's versions": mutate(
    "{ supportedVersions: SUPPORTED_VERSIONS, capabilities",
    "{ supportedVersions: MODERN_VERSIONS, capabilities",
  ),
  "the handshake's results marked complete too": mutate(
    'const reply = (result) => era === "modern" ? complete(id, method, result) : success(id, result);',
    "const reply = (result) => complete(id, method, result);",
  ),
  "arguments that are not an object taken for the tool's failure at 2026-07-28": mutate(
    '  if (!isObject(args)) return failure(id, -32602, "Invalid params: arguments must be an object");\n',
    "",
  ),
  "arguments that break the schema refused at 2026-07-28 too": mutate(
    '    if (era === "legacy") return failure(id, -32602, why);',
    "    return failure(id, -32602, why);",
  ),
  "arguments that break the schema a tool's failure in the handshake too": mutate(
    '    if (era === "legacy") return failure(id, -32602, why);\n',
    "",
  ),
  "initialize agrees on 2026-07-28": mutate(
    "  return HANDSHAKE_VERSIONS.includes(requested) ? requested : HANDSHAKE_VERSIONS[0];",
    "  return SUPPORTED_VERSIONS.includes(requested) ? requested : HANDSHAKE_VERSIONS[0];",
  ),
  // Round 14 of issue 38's red team: the envelope read carelessly.
  // "2.0" compared loosely: the number 2.0 is == "2.0".
  "jsonrpc compared loosely": mutate('message.jsonrpc !== "2.0"', 'message.jsonrpc != "2.0"'),
  // params of null taken for params left out: null is there, and not an object.
  "params of null taken for none": mutate(
    'if ("params" in message && !isObject(message.params))',
    "if (message.params != null && !isObject(message.params))",
  ),
  // params checked before a notification is known: a notification is answered, with an error.
  "params checked before notifications": mutate(
    '  if (!hasId) return undefined;\n  if ("params" in message && !isObject(message.params)) {\n    return failure(id, -32602, "Invalid params: params must be an object");\n  }\n',
    '  if ("params" in message && !isObject(message.params)) {\n    return failure(id, -32602, "Invalid params: params must be an object");\n  }\n  if (!hasId) return undefined;\n',
  ),
  // arguments of null taken for arguments left out: null is there, and not an object.
  "arguments of null taken for none": mutate(
    'Object.hasOwn(params, "arguments") ? params.arguments : {}',
    "params.arguments ?? {}",
  ),
  // arguments checked with typeof alone: a list is an object, so it reaches the schema.
  "arguments that are a list taken as an object": mutate(
    "if (!isObject(args))",
    'if (typeof args !== "object" || args === null)',
  ),
  // A method tested for truth: "" is a string, a method not found, not an invalid request.
  "an empty method taken for none": mutate(
    'typeof message.method !== "string"',
    '(typeof message.method !== "string" || !message.method)',
  ),
  // _meta asked with in once typeof says "object": null is one, and in throws on it.
  "a _meta of null asked with in": mutate(
    "(isObject(meta) && META.protocolVersion in meta)",
    '(typeof meta === "object" && META.protocolVersion in meta)',
  ),
  // An empty protocolVersion taken for none: it is a string, and negotiated.
  "an empty protocolVersion taken for none": mutate(
    'if (typeof params.protocolVersion !== "string")',
    'if (!params.protocolVersion || typeof params.protocolVersion !== "string")',
  ),
  // The tool found with ==: ["conjugate"] == "conjugate".
  "a tool's name compared loosely": mutate(
    "GRAMMAR_TOOLS.find((tool) => tool.name === params.name)",
    "GRAMMAR_TOOLS.find((tool) => tool.name == params.name)",
  ),
  // A blank line skipped, as the SDK skips it: it is not JSON, and the table answers -32700.
  "a blank line skipped": mutate(
    "  let message;\n",
    '  if (line.trim() === "") return undefined;\n  let message;\n',
  ),
  // An id read as a count, never below zero: -1 is an integer, and an id.
  "a negative id refused": mutate(
    "Number.isSafeInteger(value);",
    "Number.isSafeInteger(value) && value >= 0;",
  ),
  // Any integer taken for an id: past 2 ** 53 the number read is not the id sent.
  "an id that is any integer": mutate("Number.isSafeInteger(value);", "Number.isInteger(value);"),
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
    "2026-07-28 agreed on in a handshake": version(
      '  return ["2026-07-28", "2025-06-18", "2024-11-05"].includes(requested) ? requested : "2025-06-18";',
    ),
    "the newest of every era offered to a handshake": version(
      '  return ["2025-06-18", "2024-11-05"].includes(requested) ? requested : "2026-07-28";',
    ),
    // Round 14 of issue 38's red team: the versions kept in a plain object, or the request made
    // text first. "toString" is in every object; ["2024-11-05"] is "2024-11-05" as text.
    "versions looked up with in": version(
      '  const SPOKEN = { "2025-06-18": true, "2024-11-05": true };\n  return requested in SPOKEN ? requested : "2025-06-18";',
    ),
    "versions looked up by a truthy entry": version(
      '  const SPOKEN = { "2025-06-18": true, "2024-11-05": true };\n  return SPOKEN[requested] ? requested : "2025-06-18";',
    ),
    "versions looked up with Object.hasOwn": version(
      '  const SPOKEN = { "2025-06-18": true, "2024-11-05": true };\n  return Object.hasOwn(SPOKEN, requested) ? requested : "2025-06-18";',
    ),
    "the version made text first": version(
      '  const v = String(requested);\n  return ["2025-06-18", "2024-11-05"].includes(v) ? v : "2025-06-18";',
    ),
  },
};

/** Lab 01's catalogues: negotiateVersion, and handleMessage (whole servers). */
export const LAB_01: Catalogue[] = [
  NEGOTIATE,
  { unit: "lab-01", fn: "handleMessage", right: RIGHT, wrong: WRONG },
];

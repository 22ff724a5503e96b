// What one side of an MCP conversation sent that its peer's era (and, within
// the handshake era, its version) does not have: the judge the interop tests
// read the wire with. It is written from the specification's schemas
// (`schema/VERSION/schema.ts` in modelcontextprotocol/modelcontextprotocol)
// and transport pages, not from the library it judges, so that a mistake in
// the library's own tables cannot agree with itself here.
//
// A wire is a list of messages in the order they crossed, each with who sent
// it and, over HTTP, its request's or response's method and headers. It can
// be read from a course client's transcript, from the stdio tap
// (fixtures/wire_tap.ts), or from the recording proxy (_wire_proxy.ts).

import type { Exchange } from "./_wire_proxy.ts";

/** Who sent a message. */
export type Side = "client" | "server";

/** One message on the wire, or (over HTTP) one request without a body. */
export interface WireMessage {
  from: Side;
  /** The JSON-RPC message (an array for a batch); `undefined` for a request with no body (GET, DELETE). */
  message: unknown;
  /** Over HTTP: the request's method and headers (client), or the response's status and headers (server). */
  http?: { method: string; headers: Headers; status: number };
}

const LEGACY = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;
/** A version of MCP this judge knows. */
export type Version = typeof LEGACY[number] | "2026-07-28";

/** The methods each side may send in a version: requests and notifications. */
interface Methods {
  requests: Record<Side, ReadonlySet<string>>;
  notifications: Record<Side, ReadonlySet<string>>;
}

/** The methods of `schema/2024-11-05/schema.ts`, by who sends them (2025-03-26 has the same). */
const HANDSHAKE = {
  clientRequests: [
    "initialize",
    "ping",
    "completion/complete",
    "logging/setLevel",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/read",
    "resources/subscribe",
    "resources/templates/list",
    "resources/unsubscribe",
    "tools/call",
    "tools/list",
  ],
  clientNotifications: [
    "notifications/cancelled",
    "notifications/initialized",
    "notifications/progress",
    "notifications/roots/list_changed",
  ],
  serverRequests: ["ping", "sampling/createMessage", "roots/list"],
  serverNotifications: [
    "notifications/cancelled",
    "notifications/progress",
    "notifications/message",
    "notifications/resources/list_changed",
    "notifications/resources/updated",
    "notifications/prompts/list_changed",
    "notifications/tools/list_changed",
  ],
};
const TASKS = ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"];

function methods(
  clientRequests: string[],
  clientNotifications: string[],
  serverRequests: string[],
  serverNotifications: string[],
): Methods {
  return {
    requests: { client: new Set(clientRequests), server: new Set(serverRequests) },
    notifications: { client: new Set(clientNotifications), server: new Set(serverNotifications) },
  };
}

const H = HANDSHAKE;
const METHODS: Record<Version, Methods> = {
  "2024-11-05": methods(
    H.clientRequests,
    H.clientNotifications,
    H.serverRequests,
    H.serverNotifications,
  ),
  "2025-03-26": methods(
    H.clientRequests,
    H.clientNotifications,
    H.serverRequests,
    H.serverNotifications,
  ),
  "2025-06-18": methods(
    H.clientRequests,
    H.clientNotifications,
    [...H.serverRequests, "elicitation/create"],
    H.serverNotifications,
  ),
  "2025-11-25": methods(
    [...H.clientRequests, ...TASKS],
    [...H.clientNotifications, "notifications/tasks/status"],
    [...H.serverRequests, "elicitation/create", ...TASKS],
    [...H.serverNotifications, "notifications/elicitation/complete", "notifications/tasks/status"],
  ),
  // `schema/2026-07-28/schema.ts`: no handshake, no ping, no logging/setLevel, no resource
  // subscriptions, and no request of the server's own (sampling, elicitation and roots ride
  // in `input_required` results).
  "2026-07-28": methods(
    [
      "server/discover",
      "completion/complete",
      "prompts/get",
      "prompts/list",
      "resources/list",
      "resources/read",
      "resources/templates/list",
      "subscriptions/listen",
      "tools/call",
      "tools/list",
    ],
    ["notifications/cancelled"],
    [],
    [...H.serverNotifications, "notifications/subscriptions/acknowledged"],
  ),
};

/** The `_meta` keys of the 2026-07-28 envelope (`basic/index.mdx`, "`_meta`"). */
const MODERN_META = [
  "protocolVersion",
  "clientInfo",
  "clientCapabilities",
  "logLevel",
  "serverInfo",
  "subscriptionId",
].map((key) => `io.modelcontextprotocol/${key}`);
/** Fields 2026-07-28 added to params (multi round-trip retries). */
const MODERN_PARAMS = ["inputResponses", "requestState"];
/** Fields 2026-07-28 added to results (`resultType`, multi round-trip, caching hints). */
const MODERN_RESULT = ["resultType", "inputRequests", "requestState", "ttlMs", "cacheScope"];
/** What a tool result and a tool may carry before 2025-06-18: no structured content, output schema or title. */
const EARLY: ReadonlySet<string> = new Set(["2024-11-05", "2025-03-26"]);
/** The content types of each legacy version's tool results. */
const CONTENT_TYPES: Record<string, readonly string[]> = {
  "2024-11-05": ["text", "image", "resource"],
  "2025-03-26": ["text", "image", "audio", "resource"],
};

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * What `side` sent on `wire` that the era of `version` (and, within the
 * handshake era, that version) does not have, each as a sentence naming the
 * message; empty when nothing. Before the era is settled, a dual-era
 * client's opening is allowed: the `server/discover` probe (and its
 * cancellation) before a handshake, and a fallback `initialize` sent before a
 * late `DiscoverResult`; so are the server's answers to them.
 */
export function eraSlips(wire: readonly WireMessage[], version: Version, side: Side): string[] {
  const modern = version === "2026-07-28";
  const settled = settlePoint(wire, modern);
  const opening = new Set<unknown>();
  const asked = new Map<unknown, string>();
  const cancelled = new Set<unknown>();
  const slips: string[] = [];
  wire.forEach((entry, index) => {
    const messages = Array.isArray(entry.message) ? entry.message : [entry.message];
    for (const message of messages) {
      if (!isObj(message)) continue;
      // A reply to the peer's opening request (the probe) is part of the opening too.
      if (index < settled && entry.from !== side && "method" in message && "id" in message) {
        opening.add(message.id);
      }
      if (entry.from !== side && typeof message.method === "string") {
        if ("id" in message) asked.set(message.id, message.method);
        if (message.method === "notifications/cancelled" && isObj(message.params)) {
          cancelled.add(message.params.requestId);
        }
      }
    }
    if (entry.from !== side || index < settled) return;
    const where = `message ${index + 1}`;
    if (entry.http !== undefined) slips.push(...httpSlips(entry, version, side, where));
    for (const message of messages) {
      if (message === undefined) continue;
      if (!isObj(message)) {
        slips.push(`${where} is not a JSON-RPC message`);
        continue;
      }
      if (!("method" in message) && opening.has(message.id)) continue;
      slips.push(
        ...messageSlips(message, { version, side, asked, cancelled }).map((slip) =>
          `${where} (${describe(message)}): ${slip}`
        ),
      );
    }
  });
  return slips;
}

/** Where the era is settled: the first `initialize` (legacy), or the first `DiscoverResult` (modern, if probed). */
function settlePoint(wire: readonly WireMessage[], modern: boolean): number {
  const discovers = new Set<unknown>();
  for (const [index, entry] of wire.entries()) {
    const messages = Array.isArray(entry.message) ? entry.message : [entry.message];
    for (const message of messages.filter(isObj)) {
      if (!modern && entry.from === "client" && message.method === "initialize") return index;
      if (message.method === "server/discover") discovers.add(message.id);
      if (modern && entry.from === "server" && discovers.has(message.id) && "result" in message) {
        return index + 1;
      }
    }
  }
  return modern ? 0 : wire.length;
}

interface Context {
  version: Version;
  side: Side;
  /** The peer's requests by id, and the ids it cancelled. */
  asked: ReadonlyMap<unknown, string>;
  cancelled: ReadonlySet<unknown>;
}

/** What one message sent by `side` has that `version` does not. */
function messageSlips(message: Obj, context: Context): string[] {
  const { version, side, asked, cancelled } = context;
  const modern = version === "2026-07-28";
  const slips: string[] = [];
  if (typeof message.method === "string") {
    const kind = "id" in message ? "requests" : "notifications";
    if (!METHODS[version][kind][side].has(message.method)) {
      slips.push(`${version} has no ${message.method} ${kind} from the ${side}`);
    }
    const params = isObj(message.params) ? message.params : {};
    slips.push(...foreignKeys(params, MODERN_PARAMS, modern, "params"));
    slips.push(...foreignMeta(params, modern, "params"));
    if (modern && side === "client" && kind === "requests") {
      slips.push(...envelopeSlips(params, version));
    }
    if (version === "2025-06-18" && message.method === "elicitation/create") {
      slips.push(...laterFormSlips(params));
    }
    if (!modern && version !== "2025-11-25" && message.method === "sampling/createMessage") {
      const offered = ["tools", "toolChoice"].filter((key) => key in params);
      slips.push(...offered.map((key) => `its params carry ${key}, which came with 2025-11-25`));
    }
    return slips;
  }
  const answered = asked.get(message.id);
  if (cancelled.has(message.id)) slips.push("it answers a request the peer had cancelled");
  if (!("result" in message)) return slips;
  if (modern && side === "client") {
    slips.push("2026-07-28 has no requests of the server's own to answer");
  }
  if (
    answered !== undefined &&
    !METHODS[version].requests[side === "client" ? "server" : "client"].has(answered)
  ) {
    slips.push(
      `it answers ${answered} with a result, which ${version} does not have (-32601 is owed)`,
    );
  }
  const result = isObj(message.result) ? message.result : {};
  if (version === "2025-06-18" && answered === "elicitation/create" && isObj(result.content)) {
    for (const [name, value] of Object.entries(result.content)) {
      if (Array.isArray(value)) {
        slips.push(
          `its content's ${name} is a list, which 2025-06-18's ElicitResult does not hold`,
        );
      }
    }
  }
  slips.push(...foreignKeys(result, MODERN_RESULT, modern, "result"));
  slips.push(...foreignMeta(result, modern, "result"));
  if (
    modern && side === "server" &&
    !["complete", "input_required"].includes(result.resultType as string)
  ) {
    slips.push(`its resultType is ${JSON.stringify(result.resultType)}: 2026-07-28 requires one`);
  }
  if (side === "server" && EARLY.has(version)) slips.push(...earlyResultSlips(result, version));
  if (side === "server" && !modern && !EARLY.has(version)) {
    slips.push(...objectOnlySlips(result, version));
  }
  return slips;
}

/**
 * What a result sent at 2025-06-18 or 2025-11-25 carries that only
 * 2026-07-28 lets be other than an object: a structured value, or a tool's
 * output schema ("type": "object" alone before it).
 */
function objectOnlySlips(result: Obj, version: Version): string[] {
  const slips: string[] = [];
  if ("structuredContent" in result && !isObj(result.structuredContent)) {
    slips.push(`its structuredContent is not an object, which ${version} requires`);
  }
  for (const tool of Array.isArray(result.tools) ? result.tools.filter(isObj) : []) {
    if (
      "outputSchema" in tool && (!isObj(tool.outputSchema) || tool.outputSchema.type !== "object")
    ) {
      slips.push(
        `its tool ${tool.name} has an outputSchema not of "type": "object", which ${version} requires`,
      );
    }
  }
  return slips;
}

/**
 * What an elicitation request sent at 2025-06-18 asks with that came with
 * 2025-11-25: a `mode`, a field's `default` other than a boolean's (2025-06-18's
 * `BooleanSchema` alone has one), titled choices (`oneOf`), a multiple choice
 * (`type: "array"`).
 */
function laterFormSlips(params: Obj): string[] {
  const slips = "mode" in params ? ["its params carry mode, which came with 2025-11-25"] : [];
  const schema = isObj(params.requestedSchema) ? params.requestedSchema : {};
  const fields = isObj(schema.properties) ? Object.entries(schema.properties) : [];
  for (const [name, field] of fields) {
    if (!isObj(field)) continue;
    const later = [
      field.type === "array" && "a multiple choice (type array)",
      "oneOf" in field && "titled choices (oneOf)",
      "default" in field && field.type !== "boolean" && "a default",
    ].filter((part) => part !== false);
    for (const part of later) {
      slips.push(`its field ${name} has ${part}, which came with 2025-11-25`);
    }
  }
  return slips;
}

/** The modern-only keys of `record` that a legacy message carries. */
function foreignKeys(record: Obj, keys: string[], modern: boolean, what: string): string[] {
  if (modern) return [];
  return keys.filter((key) => key in record).map((key) =>
    `its ${what} carry ${key}, a 2026-07-28 field`
  );
}

/** The 2026-07-28 envelope keys in a legacy message's `_meta`. */
function foreignMeta(record: Obj, modern: boolean, what: string): string[] {
  if (modern || !isObj(record._meta)) return [];
  return MODERN_META.filter((key) => key in (record._meta as Obj))
    .map((key) => `its ${what}' _meta carry ${key}, a 2026-07-28 key`);
}

/** What a 2026-07-28 request's `_meta` lacks ("every request carries its protocol version…"). */
function envelopeSlips(params: Obj, version: Version): string[] {
  const meta = isObj(params._meta) ? params._meta : {};
  const slips: string[] = [];
  if (meta["io.modelcontextprotocol/protocolVersion"] !== version) {
    slips.push(`its _meta does not name ${version} as its protocolVersion`);
  }
  if (!isObj(meta["io.modelcontextprotocol/clientCapabilities"])) {
    slips.push("its _meta carries no clientCapabilities");
  }
  return slips;
}

/** What a result sent at 2024-11-05 or 2025-03-26 carries that came with 2025-06-18. */
function earlyResultSlips(result: Obj, version: Version): string[] {
  const slips: string[] = [];
  if ("structuredContent" in result) slips.push(`${version} has no structuredContent`);
  for (const item of Array.isArray(result.content) ? result.content.filter(isObj) : []) {
    if (!CONTENT_TYPES[version].includes(item.type as string)) {
      slips.push(`${version} has no ${item.type} content`);
    }
  }
  for (const tool of Array.isArray(result.tools) ? result.tools.filter(isObj) : []) {
    for (const key of ["outputSchema", "title"].filter((key) => key in tool)) {
      slips.push(`its tool ${tool.name} carries ${key}, which ${version} does not have`);
    }
  }
  return slips;
}

/** What an HTTP request (client) or response (server) carries that the era does not have. */
function httpSlips(entry: WireMessage, version: Version, side: Side, where: string): string[] {
  const { method, headers, status } = entry.http!;
  const modern = version === "2026-07-28";
  const slips: string[] = [];
  const named = (name: string) => headers.get(name);
  if (side === "server") {
    if (modern && named("mcp-session-id") !== null) {
      slips.push(`${where}: a 2026-07-28 response carries Mcp-Session-Id`);
    }
    const message = entry.message;
    if (!modern && isObj(message) && "error" in message && named("mcp-session-id") !== null) {
      slips.push(`${where}: a refusal (${status}) carries Mcp-Session-Id`);
    }
    return slips;
  }
  if (modern) {
    if (method !== "POST") slips.push(`${where}: 2026-07-28 has no ${method} on the endpoint`);
    for (const name of ["mcp-session-id", "last-event-id"].filter((name) => named(name) !== null)) {
      slips.push(`${where}: a 2026-07-28 request carries ${name}`);
    }
    if (!isObj(entry.message)) return slips;
    const { method: rpc, params } = entry.message;
    if (named("mcp-protocol-version") !== version) {
      slips.push(
        `${where}: its MCP-Protocol-Version is ${named("mcp-protocol-version")}, not ${version}`,
      );
    }
    if (typeof rpc === "string" && named("mcp-method") !== rpc) {
      slips.push(`${where}: its Mcp-Method is ${named("mcp-method")}, not ${rpc}`);
    }
    const name = isObj(params) ? params.name ?? params.uri : undefined;
    if (
      ["tools/call", "resources/read", "prompts/get"].includes(rpc as string) &&
      named("mcp-name") !== name
    ) {
      slips.push(`${where}: its Mcp-Name is ${named("mcp-name")}, not ${name}`);
    }
    return slips;
  }
  for (const name of ["mcp-method", "mcp-name"].filter((name) => named(name) !== null)) {
    slips.push(`${where}: a ${version} request carries ${name}, a 2026-07-28 header`);
  }
  const header = named("mcp-protocol-version");
  // The header is sent on "all subsequent requests" after initialize (2025-06-18, transports).
  if (isObj(entry.message) && entry.message.method === "initialize") return slips;
  if (EARLY.has(version) && header !== null) {
    slips.push(`${where}: ${version} has no MCP-Protocol-Version header (it came with 2025-06-18)`);
  }
  if (!EARLY.has(version) && header !== version) {
    slips.push(`${where}: its MCP-Protocol-Version is ${header}, not ${version}`);
  }
  return slips;
}

/** A message, named briefly: its method, or what it answers. */
function describe(message: Obj): string {
  if (typeof message.method === "string") return message.method;
  return `the reply to ${JSON.stringify(message.id)}`;
}

/** A course client's transcript (`> LINE` / `< LINE`, or its `(direction, line)` pairs) as a wire. */
export function transcriptWire(lines: readonly string[]): WireMessage[] {
  return lines.map((line) => ({
    from: line.startsWith(">") ? "client" : "server",
    message: JSON.parse(line.slice(2)),
  }));
}

/** One server the stdio tap started: the tap's process id, the server's, and its wire. */
export interface TappedConnection {
  tap: number;
  serverPid: number;
  wire: WireMessage[];
}

/** The stdio tap's log as one wire per server it started (a client may start more than one). */
export function tapWires(log: string): TappedConnection[] {
  const byTap = new Map<string, TappedConnection>();
  for (const line of log.split("\n").filter((line) => line !== "")) {
    const [tap, direction, ...rest] = line.split(" ");
    const text = rest.join(" ");
    if (direction === "started") {
      byTap.set(tap, { tap: Number(tap), serverPid: Number(text), wire: [] });
    } else {
      byTap.get(tap)!.wire.push({
        from: direction === ">" ? "client" : "server",
        message: JSON.parse(text),
      });
    }
  }
  return [...byTap.values()];
}

/**
 * What crossed the recording proxy, as a wire in the order it crossed: each
 * request, and each message of a response when the piece that completed it
 * came (an event stream's messages arrive over time, between later requests).
 */
export function httpWire(exchanges: readonly Exchange[]): WireMessage[] {
  const timed: { at: number; entry: WireMessage }[] = [];
  for (const exchange of exchanges) {
    const request = { method: exchange.method, headers: exchange.requestHeaders, status: 0 };
    const sent = exchange.requestBody === "" ? undefined : JSON.parse(exchange.requestBody);
    timed.push({ at: exchange.at, entry: { from: "client", message: sent, http: request } });
    const response = {
      method: exchange.method,
      headers: exchange.responseHeaders,
      status: exchange.status,
    };
    for (const { at, message } of responseMessages(exchange)) {
      timed.push({ at, entry: { from: "server", message, http: response } });
    }
  }
  return timed.sort((a, b) => a.at - b.at).map(({ entry }) => entry);
}

/** The JSON-RPC messages of a response, each with when it was whole: its JSON body, or each event's data. */
function responseMessages(exchange: Exchange): { at: number; message: unknown }[] {
  const type = exchange.responseHeaders.get("content-type") ?? "";
  const last = exchange.chunks.at(-1)?.at ?? exchange.at;
  if (type.startsWith("application/json") && exchange.responseBody.trim() !== "") {
    return [{ at: last, message: JSON.parse(exchange.responseBody) }];
  }
  if (!type.startsWith("text/event-stream")) return [];
  const messages: { at: number; message: unknown }[] = [];
  let pending = "";
  for (const { at, text } of exchange.chunks) {
    pending += text;
    const events = pending.split(/\r?\n\r?\n/);
    pending = events.pop()!;
    for (const event of events) {
      const data = event.split(/\r?\n/).filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, "")).join("\n");
      if (data !== "") messages.push({ at, message: JSON.parse(data) });
    }
  }
  return messages;
}

// Lab 02's catalogue for what the learner builds beyond functions: each layer
// of the client, and each named test, as learners write them. Every entry is
// the worked edition's graded cells (as the grader lays out a notebook)
// changed in a few places: a wrong client breaks one behaviour of its layer,
// a wrong test passes a faulty client or fails a working one, and a right one
// is written in another style. The worked cells are read from the worked
// notebook, so the catalogue follows it.

import { parseNotebook } from "../../tools/editions/notebook.ts";
import { learnerModule } from "../../tools/grading/scratch.ts";
import { UNITS } from "../../tools/grading/units/mod.ts";
import type { Catalogue } from "./learner.ts";

const WORKED = learnerModule(
  parseNotebook(
    await Deno.readTextFile(new URL("../../solutions/lab-02.ipynb", import.meta.url)),
    "solutions/lab-02.ipynb",
  ),
  UNITS.get("lab-02")!,
);

/** A change to the worked cells: this text, exactly once, becomes that. */
type Edit = [from: string, to: string];

/** The worked cells with `edits` made; throws when a `from` is not there exactly once. */
function edited(edits: readonly Edit[]): string {
  let source = WORKED;
  for (const [from, to] of edits) {
    const count = source.split(from).length - 1;
    if (count !== 1) throw new Error(`${count} times in the worked cells, not once: ${from}`);
    source = source.replace(from, to);
  }
  return source;
}

/** A catalogue of `fn`, each implementation given as its edits of the worked cells. */
function catalogue(
  fn: string,
  right: Record<string, Edit[]>,
  wrong: Record<string, Edit[]>,
): Catalogue {
  const built = (entries: Record<string, Edit[]>) =>
    Object.fromEntries(Object.entries(entries).map(([label, edits]) => [label, edited(edits)]));
  return {
    unit: "lab-02",
    fn,
    right: { "the worked solution's way": WORKED, ...built(right) },
    wrong: built(wrong),
  };
}

/** The import a module adds to use a library name the graded cells are not given. */
const importing = (names: string, file: string): Edit => [
  'import { ProtocolError, TimeoutError, ToolError } from "../lib/mcp/shared/errors.ts";',
  `import { ProtocolError, TimeoutError, ToolError } from "../lib/mcp/shared/errors.ts";\nimport { ${names} } from "../lib/${file}";`,
];

const SERVER_LINK = catalogue("ServerLink", {
  "stderr read with a reader and a streaming TextDecoder": [[
    "    for await (const text of this.server.stderr.pipeThrough(new TextDecoderStream())) {",
    `    const reader = this.server.stderr.getReader();
    const utf8 = new TextDecoder();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const text = utf8.decode(read.value, { stream: true });`,
  ]],
  "the grace period with AbortSignal.timeout": [[
    "      new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), graceMs)),",
    `      new Promise<false>((resolve) => {
        AbortSignal.timeout(graceMs).onabort = () => resolve(false);
      }),`,
  ]],
  "close remembered by hand": [[
    "    this.#closing ??= this.#end();",
    "    if (this.#closing === undefined) this.#closing = this.#end();",
  ]],
}, {
  // The seed's pitfall: stderr read only once the server has exited, so a chatty server blocks.
  "stderr read only after the server exited": [
    ["    this.#stderrShown = this.#showStderr();", "    this.#stderrShown = Promise.resolve();"],
    ["    await this.#stderrShown;\n", "    await this.#showStderr();\n"],
  ],
  // The pipe is read, but what it says goes nowhere.
  "stderr never shown": [["      for (const line of lines) this.log(`[server] ${line}`);", ""]],
  "stderr shown without its mark": [["this.log(`[server] ${line}`);", "this.log(line);"]],
  "a last line without a newline lost": [[
    '    if (rest !== "") this.log(`[server] ${rest}`);',
    "",
  ]],
  "no kill after the grace period": [["      this.server.kill();\n", ""]],
  "the grace period option ignored": [[
    "const graceMs = this.options.graceMs ?? GRACE_MS;",
    "const graceMs = GRACE_MS;",
  ]],
  "close does not wait for the last stderr line": [["    await this.#stderrShown;\n", ""]],
  "a non-zero exit not logged": [[
    "    if (status.code !== 0) this.log(`the server exited with code ${status.code}`);",
    "",
  ]],
  "killed at once, with no grace period": [[
    "    const exited = await Promise.race([",
    "    const exited = false && await Promise.race([",
  ]],
  "a clean close that talks": [[
    "    await this.stdin.close().catch(() => {});",
    '    this.log("closing the server");\n    await this.stdin.close().catch(() => {});',
  ]],
  "close resolves with the code alone": [[
    "    return status;",
    "    return status.code as never;",
  ]],
  "the server's input never closed": [["    await this.stdin.close().catch(() => {});", ""]],
  "await using that does nothing": [["    await this.close();", ""]],
  // Each read of stderr decoded on its own (round 13 of issue 38's red team: it kept every
  // mark): a character whose bytes two reads split shows as two U+FFFD.
  "each read of stderr decoded on its own": [[
    "    for await (const text of this.server.stderr.pipeThrough(new TextDecoderStream())) {",
    "    for await (const chunk of this.server.stderr) {\n      const text = new TextDecoder().decode(chunk);",
  ]],
});

const RPC_LINK = catalogue("RpcLink", {
  "frames split by hand with splitFrames": [importing("splitFrames", "mcp/shared/framing.ts"), [
    "    this.#frames = readFrames(server.readable);",
    `    this.#frames = (async function* () {
      let rest = new Uint8Array(0);
      for await (const chunk of server.readable) {
        let frames: Uint8Array[];
        try {
          [frames, rest] = splitFrames(new Uint8Array([...rest, ...chunk]), 65536);
        } catch (error) {
          throw new ProtocolError(\`a frame the framing refused: \${(error as Error).message}\`);
        }
        if (frames.length > 0) yield frames;
      }
    })();`,
  ]],
  "the id taken, then counted": [[
    "    const id = this.#nextId++;",
    "    const id = this.#nextId;\n    this.#nextId += 1;",
  ]],
  "the late replies kept in a list": [
    ["  readonly #abandoned = new Set<RequestId>();", "  readonly #abandoned: RequestId[] = [];"],
    ["        this.#abandoned.add(id);", "        this.#abandoned.push(id);"],
    [
      "if (this.#abandoned.has(message.id as RequestId)) continue;",
      "if (this.#abandoned.includes(message.id as RequestId)) continue;",
    ],
  ],
  "the cancellation sent after the error is made": [[
    `        await this.notify("notifications/cancelled", { requestId: id, reason });
        throw new TimeoutError(\`\${method} (id \${id}) had \${reason}\`);`,
    `        const late = new TimeoutError(\`\${method} got no reply in \${deadlineMs} ms\`);
        await this.notify("notifications/cancelled", { requestId: id, reason });
        throw late;`,
  ]],
  "messages encoded with the library's encodeMessage": [
    importing("encodeMessage", "mcp/shared/jsonrpc.ts"),
    [
      '      await this.stdin.write(encoder.encode(line + "\\n"));',
      "      await this.stdin.write(encodeMessage(message as never));",
    ],
  ],
}, {
  // Over a ServerLink that reads stderr only once close() begins: its own table cannot tell, a
  // request to a chatty server can (the server blocks on its full stderr and never answers).
  "over a ServerLink that reads stderr only once close() begins": [
    ["    this.#stderrShown = this.#showStderr();", "    this.#stderrShown = Promise.resolve();"],
    [
      "    await this.stdin.close().catch(() => {}); // a server that has exited has no stdin to close",
      "    this.#stderrShown = this.#showStderr();\n    await this.stdin.close().catch(() => {});",
    ],
  ],
  "ids from 1": [["  #nextId = 0;", "  #nextId = 1;"]],
  "no params when there are none": [[
    '    await this.#send({ jsonrpc: "2.0", id, method, params });',
    '    await this.#send({ jsonrpc: "2.0", id, method, ...(Object.keys(params).length ? { params } : {}) });',
  ]],
  "a notification taken for the reply": [[
    '      if (!("method" in message)) {',
    '      if (!("method" in message) || !("id" in message)) {',
  ]],
  "a request from the server skipped": [[
    '      if ("id" in message) {',
    '      if ("id" in message && false) {',
  ]],
  "one read taken as one message": [[
    "      this.#unread = read.value;",
    "      this.#unread = read.value.slice(0, 1);",
  ]],
  "received lines missing from the transcript": [[
    '    this.options.transcript?.("<", decoder.decode(frame));',
    "",
  ]],
  "sent lines missing from the transcript": [['    this.options.transcript?.(">", line);', ""]],
  "a notification sent with an id": [[
    '    await this.#send({ jsonrpc: "2.0", method, params });',
    '    await this.#send({ jsonrpc: "2.0", id: null, method, params });',
  ]],
  "the result taken whatever its id": [[
    "        return correlate(id, message);",
    "        return (message as { result: JsonObject }).result;",
  ]],
  "the end of the output taken as an empty answer": [[
    "      if (read.done) {",
    '      if (read.done) return { jsonrpc: "2.0", id, result: {} };\n      if (read.done) {',
  ]],
  "frames without a byte limit": [[
    "    this.#frames = readFrames(server.readable);",
    "    this.#frames = readFrames(server.readable, { limit: 1 << 30 });",
  ]],
  "messages without their newline": [[
    '      await this.stdin.write(encoder.encode(line + "\\n"));',
    "      await this.stdin.write(encoder.encode(line));",
  ]],
  // The deadline passes in silence: the server is never told, and works on.
  "no cancellation at the deadline": [[
    '        await this.notify("notifications/cancelled", { requestId: id, reason });\n',
    "",
  ]],
  // Given up, then forgotten: the late reply is taken by the next request, and refused there.
  "a late reply taken by the next request": [[
    "        if (this.#abandoned.has(message.id as RequestId)) continue;\n",
    "",
  ]],
  // The deadline is handed on, and never used.
  "the deadline ignored": [[
    "    const deadline = deadlineMs === undefined ? Infinity : performance.now() + deadlineMs;",
    "    const deadline = Infinity;",
  ]],
  // A timeout is a failure of the exchange, so a ProtocolError.
  "a ProtocolError at the deadline": [[
    "        throw new TimeoutError(`${method} (id ${id}) had ${reason}`);",
    "        throw new ProtocolError(`${method} (id ${id}) had ${reason}`);",
  ]],
  // The cancellation names the request that comes next.
  "the cancellation names the next id": [[
    "{ requestId: id, reason }",
    "{ requestId: this.#nextId, reason }",
  ]],
  // The deadline measured in seconds, as a timer's delay is not.
  "the deadline read as seconds": [[
    "performance.now() + deadlineMs;",
    "performance.now() + deadlineMs * 1000;",
  ]],
  // Round 13 of issue 38's red team: each kept every mark.
  // A server's request known by a truthy id: its first, id 0, skipped as a notification.
  "a server request known by a truthy id": [[
    '      if ("id" in message) {',
    "      if (message.id) {",
  ]],
  // The abandoned ids compared as text: a late reply with id "0" dropped for request 0.
  "an abandoned id compared as text": [[
    "        if (this.#abandoned.has(message.id as RequestId)) continue;",
    "        if ([...this.#abandoned].map(String).includes(String(message.id))) continue;",
  ]],
  // An abandoned id forgotten once a late reply to it came: a second copy taken for a stray.
  "an abandoned id forgotten after its first late reply": [[
    "        if (this.#abandoned.has(message.id as RequestId)) continue;",
    "        if (this.#abandoned.delete(message.id as RequestId)) continue;",
  ]],
  // Round 15b of issue 38's red team: it kept every mark. A write the server can no longer take
  // left to throw as it is (BrokenPipe), where the lesson asks for a ProtocolError.
  "a failed write thrown as it is": [[
    [
      "    try {",
      '      await this.stdin.write(encoder.encode(line + "\\n"));',
      "    } catch (error) {",
      "      throw new ProtocolError(`cannot send ${message.method}: the server is gone`, {",
      "        cause: error,",
      "      });",
      "    }",
    ].join("\n"),
    '    await this.stdin.write(encoder.encode(line + "\\n"));',
  ]],
});

const HANDSHAKE = catalogue("HandshakeClient", {
  "the tools checked before the version": [[
    "    if (result.protocolVersion !== PROTOCOL_VERSION) {",
    `    if (!isObject(result.capabilities) || !isObject(result.capabilities.tools)) {
      throw new ProtocolError("the server offers no tools");
    }
    if (result.protocolVersion !== PROTOCOL_VERSION) {`,
  ]],
  "the capabilities checked without isObject": [[
    "    if (!isObject(result.capabilities) || !isObject(result.capabilities.tools)) {",
    `    const tools = (result.capabilities as { tools?: unknown } | undefined)?.tools;
    if (typeof result.capabilities !== "object" || typeof tools !== "object" || tools === null) {`,
  ]],
  "the capabilities kept as a copy": [[
    "    this.serverCapabilities = result.capabilities;",
    "    this.serverCapabilities = structuredClone(result.capabilities);",
  ]],
  "the probe's answer taken with then and catch": [[
    `    let answer: ProbeAnswer;
    try {
      const params = { _meta: requestMeta(VERSIONS[0]) };
      answer = { result: await this.request("server/discover", params, probeMs) };
    } catch (error) {
      if (error instanceof TimeoutError) answer = { silence: true };
      else if (error instanceof ProtocolError && error.code !== undefined) {
        answer = { error: { code: error.code, message: error.message, data: error.data } };
      } else throw error;
    }`,
    `    const answer: ProbeAnswer = await this.request(
      "server/discover",
      { _meta: requestMeta(VERSIONS[0]) },
      probeMs,
    ).then((result) => ({ result }), (error) => {
      if (error instanceof TimeoutError) return { silence: true as const };
      if (!(error instanceof ProtocolError) || error.code === undefined) throw error;
      return { error: { code: error.code, message: error.message, data: error.data } };
    });`,
  ]],
  "the era taken with a switch": [[
    `    if (era === "legacy") {
      const result = await this.initialize();
      this.protocolVersion = String(result.protocolVersion);
      return result;
    }`,
    `    switch (era) {
      case "legacy": {
        const result = await this.initialize();
        this.protocolVersion = String(result.protocolVersion);
        return result;
      }
      case "modern":
        break;
    }`,
  ]],
  "the _meta added with Object.assign": [[
    "    return super.request(method, { ...params, _meta: requestMeta(version) }, deadlineMs);",
    "    return super.request(method, Object.assign({}, params, { _meta: requestMeta(version) }), deadlineMs);",
  ]],
}, {
  "any protocol version accepted": [[
    "    if (result.protocolVersion !== PROTOCOL_VERSION) {",
    "    if (false) {",
  ]],
  "a server without tools accepted": [[
    "!isObject(result.capabilities) || !isObject(result.capabilities.tools)",
    "!isObject(result.capabilities)",
  ]],
  "a refused server told that the session started": [
    ['    await this.notify("notifications/initialized");\n', ""],
    [
      "    if (result.protocolVersion !== PROTOCOL_VERSION) {",
      '    await this.notify("notifications/initialized");\n    if (result.protocolVersion !== PROTOCOL_VERSION) {',
    ],
  ],
  "capabilities not kept": [["    this.serverCapabilities = result.capabilities;", ""]],
  "the old protocol version": [[
    'const PROTOCOL_VERSION = "2025-06-18";',
    'const PROTOCOL_VERSION = "2024-11-05";',
  ]],
  "no name in the handshake": [["      clientInfo: CLIENT_INFO,\n", ""]],
  "capabilities the client does not have": [[
    "      capabilities: {},",
    "      capabilities: { sampling: {} },",
  ]],
  "the session never said to have started": [[
    '    await this.notify("notifications/initialized");\n',
    "",
  ]],
  "the capabilities alone resolved": [[
    '    await this.notify("notifications/initialized");\n    return result;',
    '    await this.notify("notifications/initialized");\n    return result.capabilities as JsonObject;',
  ]],
  "the version sent as a number": [[
    "      protocolVersion: PROTOCOL_VERSION,",
    "      protocolVersion: 20250618,",
  ]],
  // Whatever went wrong with the probe, the server must be a legacy one.
  "every failure of the probe taken for a legacy server": [[
    "      } else throw error;",
    "      } else answer = { silence: true };",
  ]],
  // A probe nobody answers is a server that failed, not one of the handshake era.
  "silence taken for a refusal": [[
    "      if (error instanceof TimeoutError) answer = { silence: true };",
    "      if (error instanceof TimeoutError) throw error;",
  ]],
  // The probe waits as any request does: for ever, on a silent server.
  "no deadline on the probe": [[
    'answer = { result: await this.request("server/discover", params, probeMs) };',
    'answer = { result: await this.request("server/discover", params) };',
  ]],
  // server/discover sent bare, as if it were a legacy request.
  "the probe without its _meta": [[
    "      const params = { _meta: requestMeta(VERSIONS[0]) };",
    "      const params = {};",
  ]],
  // The probe asks at the handshake's version, which no modern request may name.
  "the probe at the handshake's version": [[
    "      const params = { _meta: requestMeta(VERSIONS[0]) };",
    "      const params = { _meta: requestMeta(PROTOCOL_VERSION) };",
  ]],
  // The probe is asked, and its answer then ignored.
  "the handshake even after a DiscoverResult": [['    if (era === "legacy") {', "    {"]],
  // connect() chose 2026-07-28, and the requests after it go without their version.
  "modern requests without _meta": [[
    "    return super.request(method, { ...params, _meta: requestMeta(version) }, deadlineMs);",
    "    return super.request(method, params, deadlineMs);",
  ]],
  // Every request after connect() carries _meta, even after a handshake.
  "_meta after a handshake too": [[
    "    if (version === undefined || !isModern(version)) {",
    "    if (version === undefined) {",
  ]],
  // A modern server is taken at its word, tools or none.
  "a DiscoverResult without tools accepted": [[
    "    if (!isObject(discover.capabilities) || !isObject(discover.capabilities.tools)) {",
    "    if (!isObject(discover.capabilities)) {",
  ]],
  // The version is agreed, and not kept: requests after it carry no _meta.
  "the modern version never kept": [["    this.protocolVersion = version;\n", ""]],
  // The result of a modern connect is not the DiscoverResult.
  "a modern connect resolving with nothing": [[
    "    return discover;",
    "    return undefined as never;",
  ]],
  // Round 13 of issue 38's red team: each kept every mark. The tools capability tested for truth,
  // in the handshake and in connect: tools: true is no object.
  "a tools capability tested for truth": [[
    "!isObject(result.capabilities) || !isObject(result.capabilities.tools)",
    "!result.capabilities?.tools",
  ]],
  "a modern tools capability tested for truth": [[
    "!isObject(discover.capabilities) || !isObject(discover.capabilities.tools)",
    "!discover.capabilities?.tools",
  ]],
  // Round 15b of issue 38's red team: it kept every mark. The capabilities kept before the
  // version is checked, so a refused server's stay.
  "capabilities kept before the version check": [[
    "    if (result.protocolVersion !== PROTOCOL_VERSION) {",
    "    this.serverCapabilities = result.capabilities;\n    if (result.protocolVersion !== PROTOCOL_VERSION) {",
  ]],
});

const LISTING = catalogue("ListingClient", {
  "checked with a loop": [[
    `    const valid = Array.isArray(tools) &&
      tools.every((tool) =>
        isObject(tool) && typeof tool.name === "string" && isObject(tool.inputSchema)
      );`,
    `    let valid = Array.isArray(tools);
    for (const tool of valid ? tools as unknown[] : []) {
      if (!isObject(tool) || typeof tool.name !== "string" || !isObject(tool.inputSchema)) {
        valid = false;
      }
    }`,
  ]],
  "each schema kept with forEach": [[
    "    for (const tool of tools) this.toolSchemas.set(tool.name, tool.inputSchema);",
    "    tools.forEach((tool) => this.toolSchemas.set(tool.name, tool.inputSchema));",
  ]],
  "each tool destructured": [[
    "    for (const tool of tools) this.toolSchemas.set(tool.name, tool.inputSchema);",
    "    for (const { name, inputSchema } of tools) this.toolSchemas.set(name, inputSchema);",
  ]],
}, {
  "the whole tool kept, not its schema": [[
    "this.toolSchemas.set(tool.name, tool.inputSchema);",
    "this.toolSchemas.set(tool.name, tool);",
  ]],
  "any tools/list answer accepted": [["    if (!valid) {", "    if (false) {"]],
  "schemas kept by position": [[
    "this.toolSchemas.set(tool.name, tool.inputSchema);",
    "this.toolSchemas.set(String(tools.indexOf(tool)), tool.inputSchema);",
  ]],
  "the names alone resolved": [[
    "    return tools;",
    "    return tools.map((tool) => tool.name) as never;",
  ]],
  "a record resolved, not the list": [[
    "    return tools;",
    "    return Object.fromEntries(tools.map((tool) => [tool.name, tool])) as never;",
  ]],
  "only the first schema kept": [[
    "    for (const tool of tools) this.toolSchemas",
    "    for (const tool of tools.slice(0, 1)) this.toolSchemas",
  ]],
  "no name checked": [[
    'isObject(tool) && typeof tool.name === "string" && ',
    "isObject(tool) && ",
  ]],
  "no schema checked": [[" && isObject(tool.inputSchema)", ""]],
  "some taken for every": [["      tools.every((tool) =>", "      tools.some((tool) =>"]],
  "the list sorted by name": [[
    "    return tools;",
    "    return tools.toSorted((a, b) => String(a.name) < String(b.name) ? -1 : 1);",
  ]],
  // An inputSchema asked only to be of type object (round 13 of issue 38's red team: it kept
  // every mark): a list passes.
  "an inputSchema that is a list accepted": [[
    "isObject(tool.inputSchema)",
    'typeof tool.inputSchema === "object" && tool.inputSchema !== null',
  ]],
  // Round 15b of issue 38's red team: it kept every mark. Listed again, a tool the server no
  // longer lists keeps its schema, so callTool would send to it.
  "schemas from an earlier listing kept": [["    this.toolSchemas.clear();\n", ""]],
});

const MCP_CLIENT = catalogue("McpClient", {
  "a tool's failure rejected, not thrown": [[
    "    if (result.isError === true) throw new ToolError(first.text);\n    return unwrap(first.text);",
    "    return result.isError === true\n      ? Promise.reject(new ToolError(first.text))\n      : unwrap(first.text);",
  ]],
  "the schema looked up with has": [[
    "    const schema = this.toolSchemas.get(name);\n    if (schema === undefined) {",
    "    const schema = this.toolSchemas.get(name)!;\n    if (!this.toolSchemas.has(name)) {",
  ]],
  "the first item destructured": [[
    "    const first = Array.isArray(result.content) ? result.content[0] : undefined;",
    "    const [first] = Array.isArray(result.content) ? result.content : [];",
  ]],
}, {
  "arguments never checked": [[
    "    const problems = schemaProblems(schema, args);",
    "    const problems: string[] = [];",
  ]],
  "an unknown tool sent anyway": [
    ["    if (schema === undefined) {", "    if (false) {"],
    [
      "    const problems = schemaProblems(schema, args);",
      "    const problems = schema ? schemaProblems(schema, args) : [];",
    ],
  ],
  "a tool's failure returned as a value": [[
    "    if (result.isError === true) throw new ToolError(first.text);",
    "",
  ]],
  "a tool's failure called a ProtocolError": [[
    "throw new ToolError(first.text);",
    "throw new ProtocolError(first.text);",
  ]],
  "the text never unwrapped": [["    return unwrap(first.text);", "    return first.text;"]],
  "a result without text read anyway": [[
    '    if (!isObject(first) || first.type !== "text" || typeof first.text !== "string") {',
    "    if (false) {",
  ]],
  "a tool's failure reported with the whole result": [[
    "throw new ToolError(first.text);",
    "throw new ToolError(JSON.stringify(result));",
  ]],
  "arguments sent under another name": [["{ name, arguments: args }", "{ name, args }"]],
  "a tool's failure unwrapped first": [[
    "throw new ToolError(first.text);",
    "throw new ToolError(String(unwrap(first.text)));",
  ]],
  "an unknown tool refused with a plain Error": [[
    "      throw new ProtocolError(\n        `no tool named",
    "      throw new Error(\n        `no tool named",
  ]],
  "arguments refused with a TypeError": [[
    "      throw new ProtocolError(\n        `${name}'s schema",
    "      throw new TypeError(\n        `${name}'s schema",
  ]],
  // isError tested for truth (round 13 of issue 38's red team: it kept every mark): only
  // isError: true is the tool's refusal, and "false" is true to if.
  "isError tested for truth": [[
    "    if (result.isError === true) throw new ToolError(first.text);",
    "    if (result.isError) throw new ToolError(first.text);",
  ]],
  // Round 15b of issue 38's red team: three readings of the result that each kept every mark.
  // The lesson reads the first content item, and checks its shape before isError.
  "the first text item read, wherever it is": [[
    "    const first = Array.isArray(result.content) ? result.content[0] : undefined;",
    '    const first = Array.isArray(result.content)\n      ? result.content.find((item) => isObject(item) && item.type === "text")\n      : undefined;',
  ]],
  "a failure with no text still a ToolError": [[
    "    const first = Array.isArray(result.content) ? result.content[0] : undefined;",
    "    const first = Array.isArray(result.content) ? result.content[0] : undefined;\n    if (result.isError === true) throw new ToolError(String(first?.text));",
  ]],
  "structuredContent taken first": [[
    "    return unwrap(first.text);",
    "    return result.structuredContent ?? unwrap(first.text);",
  ]],
  "every text item joined": [[
    "    return unwrap(first.text);",
    '    return unwrap(result.content.map((item) => item.text).join(""));',
  ]],
});

/** The body of the named test `name` in the worked cells, from its first line to its last. */
function bodyOf(name: string): string {
  const start = WORKED.indexOf("  // BEGIN SOLUTION\n", WORKED.indexOf(`async function ${name}(`));
  const end = WORKED.indexOf("  // END SOLUTION", start);
  return WORKED.slice(start + "  // BEGIN SOLUTION\n".length, end);
}

/** Edits that every test can be weakened by: its body swallowing errors, or never ending. */
function weakened(name: string): Record<string, Edit[]> {
  const body = bodyOf(name);
  return {
    "a test that swallows every error": [[
      body,
      `  try {\n${body}  } catch {\n    // nothing\n  }\n`,
    ]],
    "a test that never ends": [[body, `${body}  await new Promise(() => {});\n`]],
    "a test that always fails": [[body, `${body}  assert.fail("not finished");\n`]],
  };
}

const INITIALIZE = "testInitializeReturnsToolsCapability";
const CHECK_TOOLS =
  "  assert.ok(isObject(result.capabilities) && isObject(result.capabilities.tools));";
const TEST_INITIALIZE = catalogue(INITIALIZE, {
  "the capabilities compared whole": [[
    CHECK_TOOLS,
    "  assert.deepEqual(result.capabilities, { tools: { listChanged: false } });",
  ]],
  "tools looked for with in": [[
    CHECK_TOOLS,
    '  assert.ok("tools" in (result.capabilities as object));',
  ]],
  "tools checked by its type": [[
    CHECK_TOOLS,
    '  assert.equal(typeof (result.capabilities as JsonObject).tools, "object");',
  ]],
}, {
  ...weakened(INITIALIZE),
  "checks nothing": [[CHECK_TOOLS, ""]],
  "checks only that an object came": [[CHECK_TOOLS, "  assert.ok(isObject(result));"]],
  "checks only that capabilities came": [[
    CHECK_TOOLS,
    "  assert.ok(isObject(result.capabilities));",
  ]],
  "checks the version instead": [[
    CHECK_TOOLS,
    '  assert.equal(result.protocolVersion, "2025-06-18");',
  ]],
  "checks what the client kept, not what initialize gave": [
    [CHECK_TOOLS, "  assert.ok(isObject(client.serverCapabilities?.tools));"],
  ],
  "looks for tools in the wrong place": [[CHECK_TOOLS, '  assert.ok("tools" in result);']],
  "never shakes hands": [[
    "  const result = await client.initialize();",
    "  const result = { capabilities: { tools: {} } } as JsonObject;",
  ]],
});

const FOUR = "testListToolsReturnsFour";
const CHECK_NAMES = "  assert.deepEqual(tools.map((tool) => tool.name).sort(), GRAMMAR_TOOLS);";
const TEST_FOUR = catalogue(FOUR, {
  "the names in the server's order": [[
    CHECK_NAMES,
    `  assert.deepEqual(tools.map((tool) => tool.name), [
    "conjugate",
    "lookup_spanish",
    "lookup_irregular_verb",
    "check_subject_verb_agreement",
  ]);`,
  ]],
  "a count and each name": [[
    CHECK_NAMES,
    `  assert.equal(tools.length, 4);
  for (const name of GRAMMAR_TOOLS) assert.ok(tools.some((tool) => tool.name === name), name);`,
  ]],
  "the names as a set, and the count": [[
    CHECK_NAMES,
    `  assert.equal(tools.length, 4);
  assert.deepEqual(new Set(tools.map((tool) => tool.name)), new Set(GRAMMAR_TOOLS));`,
  ]],
}, {
  ...weakened(FOUR),
  "checks nothing": [[CHECK_NAMES, ""]],
  "only counts": [[CHECK_NAMES, "  assert.equal(tools.length, 4);"]],
  "only looks for each name": [[
    CHECK_NAMES,
    "  for (const name of GRAMMAR_TOOLS) assert.ok(tools.some((tool) => tool.name === name));",
  ]],
  "at least four": [[CHECK_NAMES, "  assert.ok(tools.length >= 4);"]],
  "only the first": [[CHECK_NAMES, '  assert.equal(tools[0].name, "conjugate");']],
  "counts what the client kept": [[CHECK_NAMES, "  assert.equal(client.toolSchemas.size, 4);"]],
  "four different names": [[
    CHECK_NAMES,
    "  assert.equal(new Set(tools.map((tool) => tool.name)).size, 4);",
  ]],
});

const ATE_TEST = "testCallConjugateReturnsAte";
const CHECK_ATE = '  assert.equal(await client.callTool("conjugate", ATE), "ate");';
const TEST_ATE = catalogue(ATE_TEST, {
  "deepStrictEqual": [[
    CHECK_ATE,
    '  assert.deepStrictEqual(await client.callTool("conjugate", ATE), "ate");',
  ]],
  "a comparison of its own": [[
    CHECK_ATE,
    '  assert.ok((await client.callTool("conjugate", ATE)) === "ate");',
  ]],
  "a string, and the string": [[
    CHECK_ATE,
    `  const form = await client.callTool("conjugate", ATE);
  assert.equal(typeof form, "string");
  assert.equal(form, "ate");`,
  ]],
}, {
  ...weakened(ATE_TEST),
  "checks nothing": [[CHECK_ATE, '  await client.callTool("conjugate", ATE);']],
  "looks for the letters anywhere": [[
    CHECK_ATE,
    '  assert.ok(JSON.stringify(await client.callTool("conjugate", ATE)).includes("ate"));',
  ]],
  "any truthy answer": [[CHECK_ATE, '  assert.ok(await client.callTool("conjugate", ATE));']],
  "any string": [[
    CHECK_ATE,
    '  assert.equal(typeof await client.callTool("conjugate", ATE), "string");',
  ]],
  "quotes taken off first": [[
    CHECK_ATE,
    '  assert.equal(String(await client.callTool("conjugate", ATE)).replaceAll(\'"\', ""), "ate");',
  ]],
  "the participle expected": [[
    CHECK_ATE,
    '  assert.equal(await client.callTool("conjugate", ATE), "eaten");',
  ]],
  "calls before listing the tools": [[
    '  await client.listTools();\n  assert.equal(await client.callTool("conjugate", ATE), "ate");',
    CHECK_ATE,
  ]],
});

const RUN = "testCallOutOfScopeRaisesToolError";
const CHECK_RUN =
  '  await assert.rejects(client.callTool("conjugate", { ...ATE, verb: "run" }), ToolError);';
const runCheck = (check: string): Edit => [
  CHECK_RUN,
  `  await assert.rejects(client.callTool("conjugate", { ...ATE, verb: "run" }), ${check});`,
];
const TEST_RUN = catalogue(RUN, {
  "caught and checked by hand": [[
    CHECK_RUN,
    `  try {
    await client.callTool("conjugate", { ...ATE, verb: "run" });
  } catch (error) {
    assert.ok(error instanceof ToolError, \`a ToolError, not \${error}\`);
    return;
  }
  assert.fail("run was not refused");`,
  ]],
  "a predicate": [runCheck("(error) => error instanceof ToolError")],
  "the error's name": [runCheck('{ name: "ToolError" }')],
}, {
  ...weakened(RUN),
  "takes any error": [[
    CHECK_RUN,
    '  await assert.rejects(client.callTool("conjugate", { ...ATE, verb: "run" }));',
  ]],
  "takes any Error": [runCheck("Error")],
  "checks only the words": [runCheck("/run/")],
  "checks only that it is not a ProtocolError": [
    runCheck("(error) => !(error instanceof ProtocolError)"),
  ],
  "expects the ProtocolError of the original lab's name": [runCheck("ProtocolError")],
  "a verb outside the schema instead": [[
    CHECK_RUN,
    '  await assert.rejects(client.callTool("conjugate", { ...ATE, verb: "fly" }), ToolError);',
  ]],
  "any outcome at all": [[
    CHECK_RUN,
    '  await client.callTool("conjugate", { ...ATE, verb: "run" }).catch(() => {});',
  ]],
});

const UNKNOWN = "testUnknownToolRaisesProtocolError";
const CHECK_UNKNOWN =
  '  await assert.rejects(client.callTool("not_a_tool"), (error) => error instanceof ProtocolError);';
const unknownCheck = (check: string): Edit => [
  CHECK_UNKNOWN,
  `  await assert.rejects(client.callTool("not_a_tool"), ${check});`,
];
const TEST_UNKNOWN = catalogue(UNKNOWN, {
  "the class": [unknownCheck("ProtocolError")],
  "the error's name": [unknownCheck('{ name: "ProtocolError" }')],
  "caught and checked by hand": [[
    CHECK_UNKNOWN,
    `  const error = await client.callTool("not_a_tool").then(() => undefined, (error) => error);
  assert.ok(error instanceof ProtocolError, \`a ProtocolError, not \${error}\`);`,
  ]],
}, {
  ...weakened(UNKNOWN),
  "takes any error": [[CHECK_UNKNOWN, '  await assert.rejects(client.callTool("not_a_tool"));']],
  "takes any Error": [unknownCheck("Error")],
  "checks only the words": [unknownCheck("/not_a_tool/")],
  "checks only that it is not a ToolError": [
    unknownCheck("(error) => !(error instanceof ToolError)"),
  ],
  "expects a ToolError": [unknownCheck("ToolError")],
  "expects the server's own error code": [
    unknownCheck("(error) => error instanceof ProtocolError && error.code === -32602"),
  ],
  "any outcome at all": [[CHECK_UNKNOWN, '  await client.callTool("not_a_tool").catch(() => {});']],
});

const CLEANUP = "testClientCleansUpOnException";
const CHECK_EXITED = "  assert.equal(server.exited, true);";
const TEST_CLEANUP = catalogue(CLEANUP, {
  "assert.ok": [[CHECK_EXITED, "  assert.ok(server.exited)"]],
  "try and catch around await using": [[
    `  await assert.rejects(async () => {
    await using held = client;
    await held.initialize();
    throw new Error("the caller failed after the handshake");
  }, /the caller failed/);`,
    `  try {
    await using held = client;
    await held.initialize();
    throw new Error("the caller failed after the handshake");
  } catch (error) {
    assert.match((error as Error).message, /the caller failed/);
  }`,
  ]],
  "waits a moment for the exit": [[
    CHECK_EXITED,
    `  const ended = await Promise.race([
    server.status.then(() => "exited"),
    new Promise((resolve) => setTimeout(() => resolve("running"), 100)),
  ]);
  assert.equal(ended, "exited");`,
  ]],
}, {
  ...weakened(CLEANUP),
  "never looks at the server": [[CHECK_EXITED, ""]],
  "closes in finally, not with await using": [
    [
      "    await using held = client;\n    await held.initialize();",
      "    await client.initialize();",
    ],
    ["  }, /the caller failed/);", "  }, /the caller failed/).finally(() => client.close());"],
  ],
  "closes the client itself before looking": [[
    CHECK_EXITED,
    `  await client.close();\n${CHECK_EXITED}`,
  ]],
  "expects the server to be running": [[CHECK_EXITED, "  assert.equal(server.exited, false);"]],
  "never throws in the block": [[
    '    throw new Error("the caller failed after the handshake");\n',
    "",
  ]],
  "ends the server itself before looking": [[CHECK_EXITED, `  server.kill();\n${CHECK_EXITED}`]],
  "looks at a server it never used": [[
    CHECK_EXITED,
    "  assert.equal(connect().server.exited, true);",
  ]],
});

/** Lab 02's catalogues of the client's layers and the named tests. */
export const LAB_02_CLIENT: readonly Catalogue[] = [
  SERVER_LINK,
  RPC_LINK,
  HANDSHAKE,
  LISTING,
  MCP_CLIENT,
  TEST_INITIALIZE,
  TEST_FOUR,
  TEST_ATE,
  TEST_RUN,
  TEST_UNKNOWN,
  TEST_CLEANUP,
];

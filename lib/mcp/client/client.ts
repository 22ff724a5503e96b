/**
 * The careful MCP client: the handshake, the tool list, and tool calls that
 * are refused before sending unless the tool was advertised, is allowed, and
 * gets arguments its schema accepts.
 *
 * @module
 */

import { type Authorize, authorize } from "./allowlist.ts";
import type { ClientTransport } from "./client_transport.ts";
import { Connection, type ConnectionOptions } from "./connection.ts";
import { HttpTransport, type SessionEnd } from "./http_transport.ts";
import { ProtocolError } from "../shared/errors.ts";
import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { compileSchema, schemaProblems } from "../shared/schema.ts";
import type { CloseStep } from "./server_process.ts";
import { collectTools, type Tool } from "./tool_list.ts";
import { checkToolResult } from "./tool_result.ts";
import { toolText } from "./tool_text.ts";

export type { Direction } from "./connection.ts";
export type { Tool } from "./tool_list.ts";

/** How the client names itself in the handshake (the version is the course's, in `deno.json`). */
export const CLIENT_INFO = { name: "external-tools-with-mcp", version: "0.1.0" } as const;

/** The only MCP protocol version this client speaks. */
export const PROTOCOL_VERSION = "2025-06-18";

/** Options for {@linkcode Client}; the connection's and the process's options are passed on. */
export interface ClientOptions extends ConnectionOptions {
  /** The tools the operator allows. @default {[]} (nothing is allowed) */
  allowed?: Iterable<string>;
  /** Decides whether a tool may be called. @default {authorize} */
  authorize?: Authorize;
  /** The most pages `listTools` follows. @default {100} */
  maxPages?: number;
}

/** A server as a client is given it: a command to start (stdio), an MCP endpoint's URL (Streamable HTTP), or a transport. */
export type ServerRef = readonly string[] | URL | ClientTransport<unknown>;

/** What closing a client gives: the server's exit status over stdio, how the session ended over HTTP. */
export type ClosedWith<S extends ServerRef> = S extends ClientTransport<infer Closed> ? Closed
  : S extends URL ? SessionEnd
  : Deno.CommandStatus;

/**
 * An MCP client for one server: a stdio server it starts on construction, or
 * one it reaches over Streamable HTTP at a URL; either way it ends it on
 * {@linkcode Client.close} (or at the end of an `await using` block), and
 * nothing else differs.
 *
 * @example Conjugate a verb with Lab 02's grammar server
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileURLToPath } from "node:url";
 *
 * // Lab 02's grammar server, which needs no permission at all.
 * const grammar = [Deno.execPath(), "run", "--quiet", fileURLToPath(new URL("../../../servers/grammar.ts", import.meta.url))];
 * await using client = new Client(grammar, { allowed: ["conjugate"] });
 * await client.initialize();
 * await client.listTools();
 * const args = { verb: "eat", tense: "past_simple", person: "3sg" };
 * assert.equal(await client.callTool("conjugate", args), "ate");
 * ```
 */
export class Client<S extends ServerRef = readonly string[]> implements AsyncDisposable {
  readonly #connection: Connection<ClosedWith<S>>;
  readonly #allowed: ReadonlySet<string>;
  readonly #authorize: Authorize;
  readonly #maxPages: number;
  #initialized = false;
  #catalog?: Record<string, Tool>;

  /**
   * Start the server `server` (program and arguments), or reach it at its
   * URL over Streamable HTTP (with the `limit` option), or through a transport.
   */
  constructor(server: S, options: ClientOptions = {}) {
    this.#allowed = new Set(options.allowed ?? []);
    this.#authorize = options.authorize ?? authorize;
    this.#maxPages = options.maxPages ?? 100;
    const reached = server instanceof URL
      ? new HttpTransport(server, { limit: options.limit, graceMs: options.graceMs })
      : server;
    this.#connection = new Connection(
      reached as readonly string[] | ClientTransport<ClosedWith<S>>,
      options,
    );
  }

  /** The server's process id, which is also its process-group id (stdio only: a TypeError otherwise). */
  get pid(): number {
    return this.#connection.pid;
  }

  /** The last lines the server wrote on stderr. */
  stderrLines(): string[] {
    return this.#connection.stderrLines();
  }

  /** What closing the server did, and when: its input closed, each signal, its exit. */
  closeSteps(): CloseStep[] {
    return this.#connection.closeSteps();
  }

  /**
   * Perform the handshake: `initialize` with protocol version 2025-06-18,
   * then `notifications/initialized`. Resolves with the server's result.
   * Throws `ProtocolError`, and trusts the connection no more, when the server
   * answers with another version or offers no tools.
   */
  async initialize(): Promise<JsonObject> {
    const result = await this.#connection.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: CLIENT_INFO,
    }, { cancellable: false });
    if (result.protocolVersion !== PROTOCOL_VERSION) {
      throw this.#connection.distrust(
        `The server answered with protocol version ${
          JSON.stringify(result.protocolVersion)
        }; this client speaks only ${PROTOCOL_VERSION}`,
      );
    }
    if (!isObject(result.capabilities) || !isObject(result.capabilities.tools)) {
      throw this.#connection.distrust("The server offers no tools: its capabilities lack `tools`");
    }
    this.#connection.notify("notifications/initialized");
    this.#initialized = true;
    return result;
  }

  /**
   * The server's tools by name, from every page of `tools/list` (at most
   * `maxPages`, and never the same cursor twice). The schemas of the allowed
   * tools are compiled here, in bounded time, so that no call's deadline
   * pays for compiling them.
   */
  async listTools(): Promise<Record<string, Tool>> {
    this.#requireInitialized("listTools");
    const catalog = await collectTools(
      (cursor) => this.#connection.request("tools/list", cursor === undefined ? {} : { cursor }),
      this.#maxPages,
    );
    // The schemas of the tools that may be called are compiled now, so that no call's deadline
    // pays for it; one that cannot be compiled is refused, with the same error, at callTool.
    for (const name of this.#allowed) {
      if (!Object.hasOwn(catalog, name)) continue;
      try {
        compileSchemas(catalog[name]);
      } catch {
        // Refused when it is called.
      }
    }
    this.#catalog = catalog;
    return { ...catalog };
  }

  /**
   * Call the tool `name` and resolve with the text of its result. Refused
   * before anything is sent when the tool was not advertised (`ProtocolError`),
   * is not allowed (`Deno.errors.PermissionDenied`), has schemas this client
   * cannot check in bounded time (`ProtocolError`), or `args` do not match its
   * advertised `inputSchema` (`ProtocolError` naming each problem). The
   * deadline counts from here. A result the specification does not allow
   * (see `checkToolResult`) is refused with `ProtocolError`, and the
   * connection with it; a result with `isError: true` becomes a `ToolError`
   * carrying the tool's text; one whose answer is more than text, or whose
   * text disagrees with its `structuredContent`, is refused with
   * `ProtocolError` (see `toolText`).
   */
  async callTool(name: string, args: JsonObject = {}): Promise<string> {
    const deadline = performance.now() + this.#connection.timeoutMs;
    this.#requireInitialized("callTool");
    const catalog = this.#catalog;
    if (catalog === undefined || !Object.hasOwn(catalog, name)) {
      throw new ProtocolError(
        `The server has not advertised a tool named ${JSON.stringify(name)}${
          catalog === undefined ? " (call listTools() first)" : ""
        }`,
      );
    }
    if (!this.#authorize(name, catalog, this.#allowed)) {
      throw new Deno.errors.PermissionDenied(
        `The tool ${name} is advertised but not allowed; allowed: ${
          [...this.#allowed].sort().join(", ") || "nothing"
        }`,
      );
    }
    // Both schemas, before the call: a result that cannot be checked is not worth asking for.
    compileSchemas(catalog[name]);
    const { inputSchema, outputSchema } = catalog[name];
    const problems = schemaProblems(inputSchema, args);
    if (problems.length > 0) {
      throw new ProtocolError(
        `Arguments for ${name} do not match its inputSchema: ${problems.join("; ")}`,
      );
    }
    const result = await this.#connection.request("tools/call", { name, arguments: args }, {
      deadline,
    });
    try {
      checkToolResult(name, result, { outputSchema });
    } catch (error) {
      throw this.#connection.distrust((error as Error).message);
    }
    return toolText(name, result);
  }

  /**
   * End the server and everything in its process group: close its stdin, then
   * SIGTERM, then SIGKILL, each after a grace period. Over HTTP, end the
   * session (DELETE). A request still waiting fails. Resolves with the
   * server's exit status (over HTTP, how the session ended); calling it again
   * is safe.
   */
  close(): Promise<ClosedWith<S>> {
    return this.#connection.close();
  }

  /** Close the client at the end of an `await using` block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #requireInitialized(method: string): void {
    if (!this.#initialized) throw new Error(`Call initialize() before ${method}()`);
  }
}

/**
 * Compile `tool`'s schemas (once each: compileSchema keeps them), or throw a
 * `ProtocolError` saying which cannot be used to check anything, and why.
 */
function compileSchemas(tool: Tool): void {
  for (const which of ["inputSchema", "outputSchema"] as const) {
    const schema = tool[which];
    if (schema === undefined) continue;
    try {
      compileSchema(schema);
    } catch (error) {
      const bound = error instanceof RangeError ? " in bounded time" : "";
      throw new ProtocolError(
        `The ${which} of ${tool.name} cannot be checked${bound}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
}

/**
 * The careful MCP client: the handshake, the tool list, and tool calls that
 * are refused before sending unless the tool was advertised, is allowed, and
 * gets arguments its schema accepts; a server's resources and prompts, each
 * reply checked before anything is taken from it.
 *
 * @module
 */

import { type Authorize, authorize } from "./allowlist.ts";
import type { ClientOptions, ClosedWith, ServerRef } from "./client_options.ts";
import type { ClientTransport } from "./client_transport.ts";
import { Connection, type RequestOptions } from "./connection.ts";
import { CLIENT_INFO, Handshake, PROTOCOL_VERSION } from "./handshake.ts";
import { HttpTransport } from "./http_transport.ts";
import type { Resource, ResourceContents, ResourceTemplate } from "../shared/content.ts";
import type { JsonObject } from "../shared/jsonrpc.ts";
import type { Prompt } from "../shared/prompt.ts";
import type { FetchPage } from "./pages.ts";
import {
  checkPromptArguments,
  checkPromptResult,
  collectPrompts,
  type PromptResult,
} from "./prompts.ts";
import { checkReadResult, collectResources, collectResourceTemplates } from "./resources.ts";
import type { CloseStep } from "./server_process.ts";
import { collectTools, type Tool } from "./tool_list.ts";
import { toolToCall } from "./tool_call.ts";
import { compileAllowed } from "./tool_schemas.ts";
import { checkToolResult, type ToolResult, wholeToolResult } from "./tool_result.ts";
import { toolText } from "./tool_text.ts";

export type { ClientOptions, ClosedWith, ServerRef } from "./client_options.ts";
export type { Direction } from "./connection.ts";
export type { Tool } from "./tool_list.ts";
export type { ToolResult } from "./tool_result.ts";
export type { PromptResult } from "./prompts.ts";

/** Options for {@linkcode Client.initialize}. */
export interface InitializeOptions {
  /** The handshake's deadline, in milliseconds. @default {the client's `timeoutMs`} */
  timeoutMs?: number;
}

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
  readonly #handshake = new Handshake();
  #catalog?: Record<string, Tool>;
  #prompts?: Record<string, Prompt>;
  #renewing?: Promise<JsonObject>;
  /** What the client offers: elicitation and sampling, when given a way to ask the user and a model. */
  readonly #capabilities: JsonObject;

  /**
   * Start the server `server` (program and arguments), or reach it at its
   * URL over Streamable HTTP (with the `limit` option), or through a transport.
   */
  constructor(server: S, options: ClientOptions = {}) {
    this.#allowed = new Set(options.allowed ?? []);
    this.#authorize = options.authorize ?? authorize;
    this.#maxPages = options.maxPages ?? 100;
    this.#capabilities = {
      ...(options.elicit === undefined ? {} : { elicitation: {} }),
      ...(options.sample === undefined ? {} : { sampling: {} }),
    };
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
   * Perform the handshake: `initialize` offering the newest protocol version
   * (2025-11-25), then `notifications/initialized`. Resolves with the
   * server's result. Throws `ProtocolError`, and trusts the connection no
   * more, when the server answers with a version this client does not speak
   * (it speaks `MCP_VERSIONS`), or with capabilities that are not an
   * object. What differs between versions follows the one agreed. A server need not offer tools: one that does not is connected to,
   * and `listTools` then says so. Over HTTP, when the server ends the session
   * (404), the next request performs the handshake again first, in a new one.
   * `timeoutMs` gives the handshake a deadline of its own: a server just
   * started may take seconds to answer on a busy machine, when the calls a
   * lesson times need a short one.
   */
  async initialize(options: InitializeOptions = {}): Promise<JsonObject> {
    const result = await this.#connection.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: this.#capabilities,
      clientInfo: CLIENT_INFO,
    }, { cancellable: false, timeoutMs: options.timeoutMs });
    const problem = this.#handshake.accept(result);
    if (problem !== undefined) throw this.#connection.distrust(problem);
    this.#connection.notify("notifications/initialized");
    return result;
  }

  /**
   * The server's tools by name, from every page of `tools/list` (at most
   * `maxPages`, and never the same cursor twice), each one an object schema
   * away from callable. Refused with `ProtocolError`, before anything is
   * sent, when the server offers no tools. The schemas of the allowed tools
   * are compiled here, in bounded time, so that no call's deadline pays for
   * compiling them.
   */
  async listTools(): Promise<Record<string, Tool>> {
    this.#handshake.require("listTools", "tools");
    const catalog = await collectTools(this.#pages("tools/list"), this.#maxPages);
    compileAllowed(catalog, this.#allowed);
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
    return toolText(name, await this.#call("callTool", name, args));
  }

  /**
   * Call the tool `name` and resolve with its whole result, checked (see
   * {@linkcode ToolResult}): every content item of every type, the
   * `structuredContent` the tool's `outputSchema` accepts, and `isError`
   * (a failure the tool reports is returned, not thrown). Refused before
   * sending, and its result refused, exactly as {@linkcode Client.callTool}
   * refuses them; a text that disagrees with `structuredContent` is not
   * refused but noted, in the result's `notes`.
   */
  async callToolResult(name: string, args: JsonObject = {}): Promise<ToolResult> {
    return wholeToolResult(await this.#call("callToolResult", name, args));
  }

  /**
   * The server's resources by URI, from every page of `resources/list`
   * (bounded as `listTools` is), each one checked. Refused with
   * `ProtocolError`, before anything is sent, when the server offers no
   * resources.
   */
  async listResources(): Promise<Record<string, Resource>> {
    this.#handshake.require("listResources", "resources");
    return await collectResources(this.#pages("resources/list"), this.#maxPages);
  }

  /**
   * The server's resource templates by URI template, from every page of
   * `resources/templates/list`, each one checked; refused as
   * {@linkcode Client.listResources} is.
   */
  async listResourceTemplates(): Promise<Record<string, ResourceTemplate>> {
    this.#handshake.require("listResourceTemplates", "resources");
    return await collectResourceTemplates(this.#pages("resources/templates/list"), this.#maxPages);
  }

  /**
   * Read the resource `uri` (listed, made from a template, or linked to from
   * a result) and resolve with its contents, each a `text` or a base64
   * `blob`, checked. Refused with `ProtocolError` before sending when the
   * server offers no resources; a result that is not well formed is refused
   * with `ProtocolError`, and the connection with it.
   */
  async readResource(uri: string): Promise<ResourceContents[]> {
    this.#handshake.require("readResource", "resources");
    return await this.#checked("resources/read", { uri }, (result) => checkReadResult(uri, result));
  }

  /**
   * The server's prompts by name, from every page of `prompts/list`, each
   * one and its declared arguments checked. Refused with `ProtocolError`,
   * before anything is sent, when the server offers no prompts.
   */
  async listPrompts(): Promise<Record<string, Prompt>> {
    this.#handshake.require("listPrompts", "prompts");
    this.#prompts = await collectPrompts(this.#pages("prompts/list"), this.#maxPages);
    return { ...this.#prompts };
  }

  /**
   * Get the prompt `name` filled in with `args` (a string for each), and
   * resolve with its messages, checked. Refused with `ProtocolError` before
   * anything is sent when the prompt was not listed by `listPrompts`, or
   * `args` miss an argument it requires or hold a value that is not a
   * string (see `promptArgumentProblems`). A result that is not well formed
   * is refused with `ProtocolError`, and the connection with it.
   */
  async getPrompt(name: string, args: Record<string, string> = {}): Promise<PromptResult> {
    this.#handshake.require("getPrompt", "prompts");
    checkPromptArguments(this.#prompts, name, args);
    const params = { name, arguments: args };
    return await this.#checked("prompts/get", params, (result) => checkPromptResult(name, result));
  }

  /**
   * The checked result of calling the tool `name` with `args`, for `method`:
   * everything `callTool` and `callToolResult` refuse alike. What is refused
   * before sending is thrown at once, and becomes the rejection of the
   * `async` method that awaits this.
   */
  #call(method: string, name: string, args: JsonObject): Promise<JsonObject> {
    const deadline = performance.now() + this.#connection.timeoutMs;
    this.#handshake.require(method, "tools");
    const { outputSchema } = toolToCall(name, args, {
      catalog: this.#catalog,
      allowed: this.#allowed,
      authorize: this.#authorize,
    });
    return this.#checked("tools/call", { name, arguments: args }, (result) => {
      checkToolResult(name, result, { outputSchema, version: this.#handshake.version });
      return result;
    }, { deadline });
  }

  /**
   * Send `method` and resolve with what `check` makes of its result; a result
   * `check` refuses is refused with `ProtocolError`, and the connection with it.
   */
  async #checked<T>(
    method: string,
    params: JsonObject,
    check: (result: JsonObject) => T,
    options?: RequestOptions,
  ): Promise<T> {
    const result = await this.#request(method, params, options);
    try {
      return check(result);
    } catch (error) {
      throw this.#connection.distrust((error as Error).message);
    }
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

  /** Fetches the pages of the list `method`, each with the cursor the last one gave. */
  #pages(method: string): FetchPage {
    return (cursor) => this.#request(method, cursor === undefined ? {} : { cursor });
  }

  /**
   * Send a request; first, when the server has ended the session (HTTP's
   * 404), start a new one with the handshake, once for every request waiting.
   */
  async #request(
    method: string,
    params: JsonObject,
    options?: RequestOptions,
  ): Promise<JsonObject> {
    if (this.#connection.transport.sessionEnded) {
      this.#renewing ??= this.initialize().finally(() => this.#renewing = undefined);
      await this.#renewing;
    }
    return await this.#connection.request(method, params, options);
  }
}

/**
 * The careful MCP client, in both eras of MCP: connecting (the handshake, or
 * the `server/discover` probe and its fallback), the tool list, and tool
 * calls that are refused before sending unless the tool was advertised, is
 * allowed, and gets arguments its schema accepts; a server's resources and
 * prompts, completion, progress, log levels and (2026-07-28) subscriptions,
 * each reply checked before anything is taken from it.
 *
 * @module
 */

import { authorize } from "./allowlist.ts";
import type { ClientOptions, ClosedWith, ServerRef } from "./client_options.ts";
import type { ClientTransport } from "./client_transport.ts";
import { type Completion, completionOf, type CompletionRef } from "./completion.ts";
import { Connection, type RequestOptions } from "./connection.ts";
import { DualEra } from "./dual_era.ts";
import type { Capability } from "./handshake.ts";
import { HttpTransport } from "./http_transport.ts";
import type { Resource, ResourceContents, ResourceTemplate } from "../shared/content.ts";
import { ProtocolError } from "../shared/errors.ts";
import type { JsonObject } from "../shared/jsonrpc.ts";
import { isLogLevel, type LogLevel } from "../shared/log_levels.ts";
import { headerParameters, parameterHeaders } from "../shared/mcp_headers.ts";
import type { Prompt } from "../shared/prompt.ts";
import {
  isMcpVersion,
  LEGACY_VERSIONS,
  MCP_VERSIONS,
  type McpVersion,
  versionFeatures,
} from "../shared/versions.ts";
import { logMessageOf, type Progress, progressOf } from "./server_news.ts";
import { type Reopen, Subscription, type SubscriptionFilter } from "./subscription.ts";
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
import { type Authorize, toolToCall } from "./tool_call.ts";
import { compileAllowed } from "./tool_schemas.ts";
import { checkToolResult, type ToolResult, wholeToolResult } from "./tool_result.ts";
import { toolText } from "./tool_text.ts";

export type { ClientOptions, ClosedWith, ServerRef } from "./client_options.ts";
export type { Direction } from "./connection.ts";
export type { Tool } from "./tool_list.ts";
export type { ToolResult } from "./tool_result.ts";
export type { PromptResult } from "./prompts.ts";
export type { Completion, CompletionRef } from "./completion.ts";
export type { LogMessage, Progress } from "./server_news.ts";
export type { Subscription, SubscriptionFilter } from "./subscription.ts";

/** Options for one tool call. */
export interface CallOptions {
  /** Receives the server's progress on the call (a progress token is sent with it). @default {undefined} */
  onProgress?: (progress: Progress) => void;
}

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
  #connection!: Connection<ClosedWith<S>>;
  readonly #allowed: ReadonlySet<string>;
  readonly #authorize: Authorize;
  readonly #maxPages: number;
  #era!: DualEra;
  readonly #server: S;
  readonly #options: ClientOptions;
  #catalog?: Record<string, Tool>;
  #prompts?: Record<string, Prompt>;
  #nextToken = 1;
  #restarting?: Promise<void>;
  #closed = false;

  /**
   * Start the server `server` (program and arguments), or reach it at its
   * URL over Streamable HTTP (with the `limit` option), or through a transport.
   * A `versions` option that names no version this client speaks is refused
   * with `TypeError`, before anything is started.
   */
  constructor(server: S, options: ClientOptions = {}) {
    const versions = options.versions ?? LEGACY_VERSIONS;
    if (versions.length === 0 || !versions.every(isMcpVersion)) {
      throw new TypeError(
        `versions must name one or more of ${MCP_VERSIONS.join(", ")}, not ${
          JSON.stringify(versions)
        }`,
      );
    }
    this.#allowed = new Set(options.allowed ?? []);
    this.#authorize = options.authorize ?? authorize;
    this.#maxPages = options.maxPages ?? 100;
    this.#server = server;
    this.#options = options;
    this.#open(versions);
  }

  /** Start the server (or reach it), and speak `versions` with it. */
  #open(versions: readonly McpVersion[]): void {
    const server = this.#server;
    const options = this.#options;
    const reached = server instanceof URL
      ? new HttpTransport(server, {
        limit: options.limit,
        graceMs: options.graceMs,
        sseData: options.sseData,
      })
      : server;
    this.#connection = new Connection(
      reached as readonly string[] | ClientTransport<ClosedWith<S>>,
      options,
    );
    const { onLog, elicit, sample } = options;
    if (onLog !== undefined) {
      this.#connection.listen((message) => {
        const log = logMessageOf(message);
        if (log !== undefined) onLog(log);
      });
    }
    this.#era = new DualEra(this.#connection as Connection<unknown>, {
      versions,
      // What the client offers: elicitation and sampling, when given a way to ask the user and a model.
      capabilities: {
        ...(elicit === undefined ? {} : { elicitation: {} }),
        ...(sample === undefined ? {} : { sampling: {} }),
      },
      probeMs: options.probeMs ?? 2000,
      maxRounds: options.maxRounds ?? 8,
      elicit,
      sample,
    });
  }

  /** The protocol version agreed with the server, once connected. */
  get protocolVersion(): McpVersion | undefined {
    return this.#era.handshake.version;
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
   * Connect: the step before any other, in either era. With the default
   * `versions` (the legacy ones), the handshake: `initialize` offering the
   * newest of them (2025-11-25), then `notifications/initialized`; it
   * resolves with the server's result. Throws `ProtocolError`, and trusts
   * the connection no more, when the server answers with a version this
   * client does not speak, or with capabilities that are not an object.
   * Given a modern version (`versions: MCP_VERSIONS`), the `server/discover`
   * probe first: a modern server's `DiscoverResult` (or its
   * `UnsupportedProtocolVersionError`'s list) picks the newest version both
   * speak, and it resolves with the `DiscoverResult`; any other answer, or
   * none within `probeMs` on stdio, is a legacy server's, and the handshake
   * follows (with a server started again, if it ended at the probe, as some
   * legacy servers do on a request before `initialize`). What differs between versions follows the one agreed
   * (`protocolVersion`). A server need not offer tools: one that does not is
   * connected to, and `listTools` then says so. Over HTTP, when a legacy
   * server ends the session (404), the next request performs the handshake
   * again first, in a new one. `timeoutMs` gives connecting a deadline of
   * its own (the probe keeps `probeMs`): a server just started may take
   * seconds to answer on a busy machine, when the calls a lesson times need
   * a short one.
   */
  async initialize(options: InitializeOptions = {}): Promise<JsonObject> {
    try {
      return await this.#era.connect(options.timeoutMs);
    } catch (error) {
      if (!this.#era.endedAtProbe) throw error;
    }
    // A legacy server that ends on a request before initialize: started again, for the handshake.
    await this.#connection.close();
    const versions = this.#options.versions ?? LEGACY_VERSIONS;
    this.#open(versions.filter((version) => versionFeatures(version).era === "legacy"));
    return await this.#era.connect(options.timeoutMs);
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
    await this.#require("listTools", "tools");
    const catalog = await collectTools(
      this.#pages("tools/list"),
      this.#maxPages,
      this.#era.handshake.version,
    );
    if (this.#modernHttp) {
      // "Clients MUST reject tool definitions where any x-mcp-header value violates these constraints."
      for (const [name, tool] of Object.entries(catalog)) {
        if (typeof headerParameters(tool.inputSchema) === "string") delete catalog[name];
      }
    }
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
   * `ProtocolError` (see `toolText`). With `onProgress`, the call carries a
   * progress token, and each progress notification the server sends for it
   * is handed there, checked.
   */
  async callTool(name: string, args: JsonObject = {}, options: CallOptions = {}): Promise<string> {
    return toolText(name, await this.#call("callTool", name, args, options));
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
  async callToolResult(
    name: string,
    args: JsonObject = {},
    options: CallOptions = {},
  ): Promise<ToolResult> {
    return wholeToolResult(await this.#call("callToolResult", name, args, options));
  }

  /**
   * The server's resources by URI, from every page of `resources/list`
   * (bounded as `listTools` is), each one checked. Refused with
   * `ProtocolError`, before anything is sent, when the server offers no
   * resources.
   */
  async listResources(): Promise<Record<string, Resource>> {
    await this.#require("listResources", "resources");
    return await collectResources(this.#pages("resources/list"), this.#maxPages);
  }

  /**
   * The server's resource templates by URI template, from every page of
   * `resources/templates/list`, each one checked; refused as
   * {@linkcode Client.listResources} is.
   */
  async listResourceTemplates(): Promise<Record<string, ResourceTemplate>> {
    await this.#require("listResourceTemplates", "resources");
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
    await this.#require("readResource", "resources");
    return await this.#checked("resources/read", { uri }, (result) => checkReadResult(uri, result));
  }

  /**
   * The server's prompts by name, from every page of `prompts/list`, each
   * one and its declared arguments checked. Refused with `ProtocolError`,
   * before anything is sent, when the server offers no prompts.
   */
  async listPrompts(): Promise<Record<string, Prompt>> {
    await this.#require("listPrompts", "prompts");
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
    await this.#require("getPrompt", "prompts");
    checkPromptArguments(this.#prompts, name, args);
    const params = { name, arguments: args };
    return await this.#checked("prompts/get", params, (result) => checkPromptResult(name, result));
  }

  /**
   * Suggestions for the argument `argument` of the prompt or resource
   * template `ref` (`completion/complete`), given the values of its other
   * arguments in `context`. Refused with `ProtocolError` before anything is
   * sent when the server offers no completions; a result that is not well
   * formed (see `completionOf`) is refused with `ProtocolError`, and the
   * connection with it.
   */
  async complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ): Promise<Completion> {
    await this.#require("complete", "completions");
    const params = {
      ref,
      argument,
      ...(context === undefined ? {} : { context: { arguments: context } }),
    };
    return await this.#checked("completion/complete", params, (result) => {
      const completion = completionOf(result);
      if (typeof completion === "string") {
        throw new Error(`The completion is malformed: ${completion}`);
      }
      return completion;
    });
  }

  /**
   * Hear the server's log messages at `level` and above (they go to the
   * `onLog` option). Legacy: `logging/setLevel`, refused with
   * `ProtocolError` before sending when the server offers no logging.
   * Modern (2026-07-28, which removed `logging/setLevel`): every later
   * request asks for it in `_meta` ("the server MUST NOT emit
   * `notifications/message` for a request that does not include this
   * field"). A level that is not one is refused with `TypeError`.
   */
  async setLogLevel(level: LogLevel): Promise<void> {
    if (!isLogLevel(level)) throw new TypeError(`${JSON.stringify(level)} is not a log level`);
    await this.#ready(); // the era of a server being started again is not known yet
    if (this.#era.handshake.era === "modern") {
      this.#era.logLevel = level;
      return;
    }
    await this.#require("setLogLevel", "logging");
    await this.#request("logging/setLevel", { level });
  }

  /**
   * Open a subscription (2026-07-28's `subscriptions/listen`) to the kinds
   * of change `filter` names, once the server has acknowledged it (within
   * the request deadline, else `TimeoutError`). Refused with
   * `ProtocolError` before anything is sent in a legacy session, which has
   * no subscriptions. A stdio server that exits of its own accord is started
   * again at once, and the subscription opened again there; over HTTP, one
   * whose stream breaks is opened again (see `Subscription`).
   */
  async listen(filter: SubscriptionFilter): Promise<Subscription> {
    await this.#require("listen");
    this.#requireSubscriptions();
    const request = this.#era.open("subscriptions/listen", { notifications: filter });
    return await Subscription.open(
      this.#connection as Connection<unknown>,
      request,
      filter,
      this.#connection.timeoutMs,
      (wanted) => this.#listenAgain(filter, wanted),
    );
  }

  /**
   * Refuse `method` (see `Handshake.require`) before `initialize`, or with
   * `ProtocolError` when the server lacks `capability`: the server's, once a
   * server exited is started again (one being started has no handshake yet).
   */
  async #require(method: string, capability?: Capability): Promise<void> {
    await this.#ready();
    this.#era.handshake.require(method, capability);
  }

  /** Refuse, with `ProtocolError`, a subscription in a legacy session, which has none. */
  #requireSubscriptions(): void {
    if (this.#era.handshake.era !== "modern") {
      throw new ProtocolError(
        `subscriptions/listen came with 2026-07-28; this session is ${this.protocolVersion}`,
      );
    }
  }

  /**
   * `filter`'s subscription sent again (to the server started again in place
   * of one that exited), unless the client closed or it is `wanted` no more;
   * refused by name when the server started again agreed a legacy version.
   */
  async #listenAgain(filter: SubscriptionFilter, wanted: () => boolean): ReturnType<Reopen> {
    await this.#ready();
    if (this.#closed || this.#connection.ended || !wanted()) return undefined;
    this.#requireSubscriptions();
    const request = this.#era.open("subscriptions/listen", { notifications: filter });
    return { connection: this.#connection as Connection<unknown>, request };
  }

  /** Whether requests go over Streamable HTTP in the modern era, where headers mirror the body. */
  get #modernHttp(): boolean {
    return this.#era.handshake.era === "modern" &&
      this.#connection.transport instanceof HttpTransport;
  }

  /**
   * The checked result of calling the tool `name` with `args`, for `method`:
   * everything `callTool` and `callToolResult` refuse alike, before sending.
   */
  async #call(
    method: string,
    name: string,
    args: JsonObject,
    options: CallOptions,
  ): Promise<JsonObject> {
    const deadline = performance.now() + this.#connection.timeoutMs;
    await this.#require(method, "tools");
    const tool = toolToCall(name, args, {
      catalog: this.#catalog,
      allowed: this.#allowed,
      authorize: this.#authorize,
      authorizeGiven: this.#options.authorize !== undefined,
    });
    const parameters = this.#modernHttp ? headerParameters(tool.inputSchema) : [];
    const headers = typeof parameters === "string" ? {} : parameterHeaders(parameters, args);
    const { onProgress } = options;
    const token = onProgress === undefined ? undefined : `progress-${this.#nextToken++}`;
    const params = {
      name,
      arguments: args,
      ...(token === undefined ? {} : { _meta: { progressToken: token } }),
    };
    // The progress is heard on the connection the call goes over: a server started again has a new one.
    const stop = token === undefined ? undefined : this.#connection.listen((message) => {
      const progress = progressOf(message, token);
      if (progress !== undefined) onProgress!(progress);
    });
    const version = this.#era.handshake.version;
    try {
      return await this.#checked(
        "tools/call",
        params,
        (result) => checkToolResult(name, result, { outputSchema: tool.outputSchema, version }),
        { deadline, headers },
      );
    } finally {
      stop?.();
    }
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
    this.#closed = true;
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

  /** Send a request, in the era agreed (see `DualEra.request`), once the server is there (see `#ready`). */
  async #request(
    method: string,
    params: JsonObject,
    options?: RequestOptions,
  ): Promise<JsonObject> {
    await this.#ready();
    return await this.#era.request(method, params, options);
  }

  /**
   * When a modern stdio server has exited of its own accord, start it again
   * and probe it, once for every request waiting (2026-07-28: "If the server
   * process exits unexpectedly, the client SHOULD restart it. Because the
   * protocol is stateless, any in-flight requests are simply lost"). The
   * requests it was answering failed with `ProtocolError` when it exited,
   * and none is sent again: a tool call may have had its effects. A legacy
   * server, whose session ended with it, is not started again; nor is any
   * server once the client is closed. A request made while it is started
   * again waits as well: its handshake is not done.
   */
  async #ready(): Promise<void> {
    const restart = !this.#closed && this.#era.handshake.era === "modern" &&
      Array.isArray(this.#server) && this.#connection.exited;
    if (restart) this.#restarting ??= this.#restart().finally(() => this.#restarting = undefined);
    await this.#restarting;
  }

  /** The server started again in place of the one that exited (its process group ended), and probed. */
  async #restart(): Promise<void> {
    const level = this.#era.logLevel;
    await this.#connection.close();
    if (this.#closed) return; // closed meanwhile: nothing is started again
    this.#open(this.#options.versions ?? LEGACY_VERSIONS);
    this.#era.logLevel = level;
    await this.#era.connect();
  }
}

/**
 * The careful MCP client: one server over stdio, one request at a time, and
 * no reply accepted unless it answers the request that waits.
 *
 * @module
 */

import { drain, within } from "./_async.ts";
import { answerFor, type AnswerFunction } from "./answer.ts";
import { type Authorize, authorize } from "./allowlist.ts";
import { ProtocolError, TimeoutError, ToolError } from "./errors.ts";
import { readFrames, type SplitFrames, splitFrames } from "./framing.ts";
import {
  isObject,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
  parseMessage,
  type RequestId,
} from "./jsonrpc.ts";
import { schemaProblems } from "./schema.ts";
import { ServerProcess, type ServerProcessOptions } from "./server_process.ts";
import config from "../deno.json" with { type: "json" };

/** The only MCP protocol version this client speaks. */
export const PROTOCOL_VERSION = "2025-06-18";

/** A tool as its server advertised it. */
export interface Tool extends JsonObject {
  name: string;
  description?: string;
  inputSchema: JsonObject;
}

/** Which way a message went: `>` client to server, `<` server to client. */
export type Direction = ">" | "<";

/** Options for {@linkcode Client}; the process options are passed to its server. */
export interface ClientOptions extends ServerProcessOptions {
  /** The tools the operator allows. @default {[]} (nothing is allowed) */
  allowed?: Iterable<string>;
  /** The deadline for each request, in milliseconds. @default {30000} */
  timeoutMs?: number;
  /** The most bytes one incoming frame may take, newline included. @default {65536} */
  limit?: number;
  /** Decides whether a reply answers the waiting request. @default {answerFor} */
  answer?: AnswerFunction;
  /** Splits incoming bytes into frames. @default {splitFrames} */
  splitFrames?: SplitFrames;
  /** Decides whether a tool may be called. @default {authorize} */
  authorize?: Authorize;
  /** Receives every message on the wire, as sent or received, one line each. @default {undefined} */
  transcript?: (direction: Direction, line: string) => void;
  /** The most pages `listTools` follows. @default {100} */
  maxPages?: number;
}

interface Waiting {
  id: RequestId;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

/** How much a client reads, and drops, after refusing what a server sent. */
const DRAIN_AFTER_REFUSAL = 1 << 20;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * An MCP client for one stdio server, which it starts on construction and
 * ends on {@linkcode Client.close} (or at the end of an `await using` block).
 *
 * @example Count words with the teaching server
 * ```ts
 * import assert from "node:assert/strict";
 * import { freshLog, serverCommand } from "./course.ts";
 *
 * await using client = new Client(serverCommand("normal", await freshLog("doc-client")), {
 *   allowed: ["word_count"],
 * });
 * await client.initialize();
 * await client.listTools();
 * assert.equal(await client.callTool("word_count", { text: "vanilla stock needs review" }), "4");
 * ```
 */
export class Client implements AsyncDisposable {
  readonly #server: ServerProcess;
  readonly #allowed: ReadonlySet<string>;
  readonly #timeoutMs: number;
  readonly #answer: AnswerFunction;
  readonly #authorize: Authorize;
  readonly #transcript?: (direction: Direction, line: string) => void;
  readonly #maxPages: number;
  readonly #reading: Promise<void>;
  readonly #watching: Promise<void>;
  readonly #cancelled = new Set<RequestId>();
  #nextId = 1;
  #queue: Promise<unknown> = Promise.resolve();
  #waiting?: Waiting;
  #broken?: ProtocolError;
  #initialized = false;
  #catalog?: Record<string, Tool>;

  /** Start the server `command` (program and arguments). */
  constructor(command: readonly string[], options: ClientOptions = {}) {
    this.#allowed = new Set(options.allowed ?? []);
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#answer = options.answer ?? answerFor;
    this.#authorize = options.authorize ?? authorize;
    this.#transcript = options.transcript;
    this.#maxPages = options.maxPages ?? 100;
    this.#server = new ServerProcess(command, options);
    this.#reading = this.#read(options.limit ?? 65536, options.splitFrames ?? splitFrames);
    this.#watching = this.#watchExit();
  }

  /** The server's process id, which is also its process-group id. */
  get pid(): number {
    return this.#server.pid;
  }

  /** The last lines the server wrote on stderr. */
  stderrLines(): string[] {
    return this.#server.stderrLines();
  }

  /**
   * Perform the handshake: `initialize` with protocol version 2025-06-18,
   * then `notifications/initialized`. Resolves with the server's result.
   * Throws `ProtocolError`, and trusts the connection no more, when the server
   * answers with another version or offers no tools.
   */
  async initialize(): Promise<JsonObject> {
    const result = await this.#request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "external-tools-with-mcp", version: config.version },
    }, { cancellable: false });
    if (result.protocolVersion !== PROTOCOL_VERSION) {
      throw this.#distrust(
        `The server answered with protocol version ${
          JSON.stringify(result.protocolVersion)
        }; this client speaks only ${PROTOCOL_VERSION}`,
      );
    }
    if (!isObject(result.capabilities) || !isObject(result.capabilities.tools)) {
      throw this.#distrust("The server does not offer tools: its capabilities have no `tools`");
    }
    this.#send({ jsonrpc: "2.0", method: "notifications/initialized" });
    this.#initialized = true;
    return result;
  }

  /**
   * The server's tools by name, following `nextCursor` through every page (at
   * most `maxPages`, and never the same cursor twice).
   */
  async listTools(): Promise<Record<string, Tool>> {
    this.#requireInitialized("listTools");
    const tools = new Map<string, Tool>();
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 1;; page++) {
      if (page > this.#maxPages) {
        throw new ProtocolError(`tools/list went on past ${this.#maxPages} pages`);
      }
      const result = await this.#request("tools/list", cursor === undefined ? {} : { cursor });
      if (!Array.isArray(result.tools)) {
        throw new ProtocolError("The tools/list result has no `tools` list");
      }
      for (const tool of result.tools) {
        if (!isTool(tool)) {
          throw new ProtocolError(
            `An advertised tool needs a name and an object inputSchema: ${JSON.stringify(tool)}`,
          );
        }
        if (tools.has(tool.name)) {
          throw new ProtocolError(`The tool ${tool.name} is advertised twice`);
        }
        tools.set(tool.name, tool);
      }
      if (result.nextCursor === undefined) break;
      if (typeof result.nextCursor !== "string" || cursors.has(result.nextCursor)) {
        throw new ProtocolError(
          `tools/list gave a cursor it had given before, or not a string: ${
            JSON.stringify(result.nextCursor)
          }`,
        );
      }
      cursor = result.nextCursor;
      cursors.add(cursor);
    }
    this.#catalog = Object.fromEntries(tools);
    return { ...this.#catalog };
  }

  /**
   * Call the tool `name` and resolve with the text of its result. Refused
   * before anything is sent when the tool was not advertised (`ProtocolError`),
   * is not allowed (`Deno.errors.PermissionDenied`), or `args` do not match its
   * advertised `inputSchema` (`ProtocolError` naming each problem). A result
   * with `isError: true` becomes a `ToolError` carrying the tool's text.
   */
  async callTool(name: string, args: JsonObject = {}): Promise<string> {
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
    let problems: string[];
    try {
      problems = schemaProblems(catalog[name].inputSchema, args);
    } catch (error) {
      throw new ProtocolError(`The inputSchema of ${name} is not a valid JSON Schema`, {
        cause: error,
      });
    }
    if (problems.length > 0) {
      throw new ProtocolError(
        `Arguments for ${name} do not match its inputSchema: ${problems.join("; ")}`,
      );
    }
    const result = await this.#request("tools/call", { name, arguments: args });
    return toolText(name, result);
  }

  /**
   * End the server and everything in its process group (see
   * {@linkcode ServerProcess.close}). Any request still waiting fails. Resolves
   * with the server's exit status; calling it again is safe.
   */
  async close(): Promise<Deno.CommandStatus> {
    this.#fail(new ProtocolError("The client is closed"));
    const status = await this.#server.close();
    await Promise.all([this.#reading, this.#watching]);
    return status;
  }

  /** Close the client at the end of an `await using` block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #requireInitialized(method: string): void {
    if (!this.#initialized) throw new Error(`Call initialize() before ${method}()`);
  }

  /** Send a request once the previous one has finished, and wait for its answer. */
  #request(
    method: string,
    params: JsonObject,
    { cancellable = true } = {},
  ): Promise<JsonObject> {
    const turn = this.#queue.then(() => this.#exchange(method, params, cancellable));
    this.#queue = turn.catch(() => {});
    return turn.then((result) => {
      if (!isObject(result)) {
        throw new ProtocolError(`The result of ${method} is not an object: ${String(result)}`);
      }
      return result;
    });
  }

  #exchange(method: string, params: JsonObject, cancellable: boolean): Promise<unknown> {
    if (this.#broken !== undefined) return Promise.reject(this.#broken);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting = undefined;
        if (cancellable) {
          this.#cancelled.add(id);
          this.#send({
            jsonrpc: "2.0",
            method: "notifications/cancelled",
            params: { requestId: id, reason: `No reply within ${this.#timeoutMs} ms` },
          });
        }
        reject(new TimeoutError(`${method} (id ${id}) had no reply within ${this.#timeoutMs} ms`));
      }, this.#timeoutMs);
      this.#waiting = {
        id,
        resolve: (result) => (clearTimeout(timer), resolve(result)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      };
      this.#send({ jsonrpc: "2.0", id, method, params });
    });
  }

  #send(message: JsonRpcMessage): void {
    const line = JSON.stringify(message);
    this.#transcript?.(">", line);
    this.#server.send(encoder.encode(line + "\n")).catch((error) =>
      this.#fail(
        new ProtocolError(`Could not write to the server${this.#context()}`, { cause: error }),
      )
    );
  }

  async #read(limit: number, split: SplitFrames): Promise<void> {
    const { stdout, closed } = this.#server;
    try {
      for await (const frames of readFrames(stdout, { limit, split, signal: closed })) {
        for (const frame of frames) this.#receive(frame);
        if (this.#broken !== undefined) break;
      }
      if (this.#broken === undefined && !closed.aborted) {
        const status = await within(this.#server.exited, 100);
        this.#fail(
          new ProtocolError(
            status === undefined
              ? `The server closed its stdout but is still running${this.#context()}`
              : exitMessage(status, this.#context()),
          ),
        );
      }
    } catch (error) {
      this.#fail(error as ProtocolError);
    }
    // Read a little more, so that a server part-way through a long reply can finish
    // it and exit when its input ends; a flood, past that, is left to block.
    await drain(stdout, closed, { maxBytes: DRAIN_AFTER_REFUSAL });
  }

  async #watchExit(): Promise<void> {
    const status = await this.#server.exited;
    // Let the reader take the last bytes the server wrote before it went.
    await within(this.#reading, 100);
    this.#fail(new ProtocolError(exitMessage(status, this.#context())));
  }

  #receive(frame: Uint8Array): void {
    this.#transcript?.("<", decoder.decode(frame));
    if (this.#broken !== undefined) return;
    let message: JsonRpcMessage;
    try {
      message = parseMessage(frame);
    } catch (error) {
      this.#fail(error as ProtocolError);
      return;
    }
    if (!("method" in message)) this.#settle(message);
    else if ("id" in message) this.#answerServer(message);
    // Notifications need nothing from this client.
  }

  /** Answer a server's request: `ping` with `{}`, anything else with "method not found". */
  #answerServer(request: JsonRpcRequest): void {
    this.#send(
      request.method === "ping" ? { jsonrpc: "2.0", id: request.id, result: {} } : {
        jsonrpc: "2.0",
        id: request.id,
        error: { code: -32601, message: `Method not found: ${request.method}` },
      },
    );
  }

  #settle(response: JsonRpcResponse): void {
    if (response.id !== null && this.#cancelled.delete(response.id)) return;
    const waiting = this.#waiting;
    if (waiting === undefined) {
      this.#fail(
        new ProtocolError(
          `A reply with id ${JSON.stringify(response.id)} arrived while no request was waiting`,
        ),
      );
      return;
    }
    this.#waiting = undefined;
    try {
      waiting.resolve(this.#answer(waiting.id, response));
    } catch (error) {
      this.#broken ??= error instanceof ProtocolError
        ? error
        : new ProtocolError("A reply was refused", { cause: error });
      waiting.reject(error);
    }
  }

  /** Trust the connection no more, and fail the request that waits. */
  #fail(error: ProtocolError): void {
    this.#broken ??= error;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.reject(error);
  }

  #distrust(message: string): ProtocolError {
    this.#broken ??= new ProtocolError(message);
    return this.#broken;
  }

  /** The server's last stderr lines, for an error message. */
  #context(): string {
    const lines = this.#server.stderrLines().slice(-5);
    return lines.length === 0 ? "" : `; its last stderr lines:\n  ${lines.join("\n  ")}`;
  }
}

function isTool(value: unknown): value is Tool {
  return isObject(value) && typeof value.name === "string" && isObject(value.inputSchema);
}

/** The text of a `tools/call` result, or the `ToolError` it reports. */
function toolText(name: string, result: JsonObject): string {
  const content = Array.isArray(result.content) ? result.content : undefined;
  if (content === undefined) {
    throw new ProtocolError(`The result of ${name} has no content list`);
  }
  const texts = content
    .filter((item) => isObject(item) && item.type === "text" && typeof item.text === "string")
    .map((item) => item.text as string);
  if (result.isError === true) {
    throw new ToolError(texts.join("\n") || `${name} reported an error without text`);
  }
  if (texts.length === 0) {
    throw new ProtocolError(`The result of ${name} has no text content`);
  }
  return texts.join("\n");
}

function exitMessage(status: Deno.CommandStatus, context: string): string {
  const how = status.signal === null ? `with code ${status.code}` : `on ${status.signal}`;
  return `The server exited ${how}${context}`;
}

/**
 * One client's session with a server, over any {@linkcode ServerTransport}:
 * many requests handled at once, each answered when it is done (so replies
 * may come out of order), progress and log notifications sent while a tool
 * runs, requests of the server's own to the client (sampling, elicitation)
 * awaited, and a request the client cancels stopped and left unanswered.
 * What `respond` in `dispatch.ts` answers, it answers the same way.
 *
 * @module
 */

import { ProtocolError } from "../shared/errors.ts";
import { isObject, isRequestId, type JsonObject, type RequestId } from "../shared/jsonrpc.ts";
import { argumentProblems } from "./arguments.ts";
import { ERROR_CODES, respond, type ServerSpec } from "./dispatch.ts";
import { type ServerTransport, Unparsed } from "./server_transport.ts";

/** The log levels of MCP, least severe first (RFC 5424's). */
export const LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;

/** One of {@linkcode LOG_LEVELS}. */
export type LogLevel = typeof LOG_LEVELS[number];

/** What a handler may do while it handles one request. */
export interface RequestContext {
  /** Aborted when the client cancels the request, or the session ends. */
  readonly signal: AbortSignal;
  /** What the client said it can do, in its `initialize`. */
  readonly clientCapabilities: JsonObject;
  /** Report progress, if the client asked for it (`_meta.progressToken`); otherwise nothing is sent. */
  progress(progress: number, total?: number, message?: string): void;
  /** Send a log notification, if `level` is at or above the level the client set. */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /** Ask the client something (`sampling/createMessage`, `elicitation/create`); rejects with `ProtocolError`. */
  request(method: string, params: JsonObject): Promise<JsonObject>;
}

/** A failure a handler reports as a JSON-RPC error, with its code. */
export class RpcError extends Error {
  /** `code` is a JSON-RPC error code; `data` goes with it. */
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
    this.name = "RpcError";
  }
}

/** Answers one method's requests: a result, or a thrown {@linkcode RpcError}. */
export type Handler = (
  params: JsonObject,
  context: RequestContext,
) => Promise<JsonObject> | JsonObject;

/** A tool that runs with a {@linkcode RequestContext} and answers with a whole `tools/call` result. */
export interface SessionTool {
  name: string;
  description: string;
  inputSchema: JsonObject;
  /** Answers a call whose arguments already match `inputSchema`. */
  run(args: JsonObject, context: RequestContext): Promise<JsonObject> | JsonObject;
}

/** A server as a session serves it: a {@linkcode ServerSpec}, and what only a session can do. */
export interface SessionSpec extends ServerSpec {
  /** Capabilities added to those `initialize` declares. @default {{}} */
  capabilities?: JsonObject;
  /** Tools that run with a context, listed after `tools`. @default {[]} */
  sessionTools?: readonly SessionTool[];
  /** Handlers of other methods, by method name. @default {{}} */
  handlers?: Readonly<Record<string, Handler>>;
  /** The most requests handled at once; more are refused. @default {64} */
  maxInFlight?: number;
  /** How long a request of the server's own waits for the client's reply. @default {30000} */
  requestTimeoutMs?: number;
}

interface Asked {
  resolve: (result: JsonObject) => void;
  reject: (error: unknown) => void;
}

/**
 * Serve one client over `transport` until its messages end; then stop every
 * request still being handled. Resolves when the session is over.
 *
 * @example Two requests at once: the slow one is answered last
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const spec = {
 *   name: "s", version: "1", tools: [],
 *   handlers: { "slow/echo": async (params: Record<string, unknown>) => {
 *     await new Promise((resolve) => setTimeout(resolve, 20));
 *     return params;
 *   } },
 * };
 * const sent: unknown[] = [];
 * const incoming = ReadableStream.from([
 *   { jsonrpc: "2.0", id: 1, method: "slow/echo", params: { n: 1 } },
 *   { jsonrpc: "2.0", id: 2, method: "ping" },
 * ]);
 * const session = new ServerSession(spec, { incoming, send: (message) => void sent.push(message) });
 * await session.done;
 * assert.deepEqual(sent.map((m) => (m as { id: number }).id), [2, 1]);
 * ```
 */
export class ServerSession {
  /** Resolves when the client's messages have ended and every request they held has been handled. */
  readonly done: Promise<void>;
  readonly #spec: SessionSpec;
  readonly #transport: ServerTransport;
  readonly #handling = new Map<RequestId, AbortController>();
  readonly #asked = new Map<RequestId, Asked>();
  readonly #ended = new AbortController();
  #clientCapabilities: JsonObject = {};
  #logLevel: LogLevel = "debug";
  #nextId = 0;

  /** Start serving `spec` over `transport`. */
  constructor(spec: SessionSpec, transport: ServerTransport) {
    this.#spec = spec;
    this.#transport = transport;
    this.done = this.#serve();
  }

  /** Stop every request being handled, and every request of the server's own that waits. */
  end(): void {
    this.#ended.abort();
    for (const controller of this.#handling.values()) controller.abort();
    for (const asked of this.#asked.values()) {
      asked.reject(new ProtocolError("The session ended before the client answered"));
    }
    this.#asked.clear();
  }

  async #serve(): Promise<void> {
    const running = new Set<Promise<void>>();
    try {
      for await (const message of this.#transport.incoming) {
        const task = this.#receive(message);
        if (task === undefined) continue;
        running.add(task);
        task.finally(() => running.delete(task));
      }
    } finally {
      // What was asked before the end is still answered (a stdio server's stdout is open).
      await Promise.allSettled(running);
      this.end();
    }
  }

  /** Take one message; a request's handling is returned, to be awaited at the end. */
  #receive(message: unknown): Promise<void> | undefined {
    if (message instanceof Unparsed) {
      this.#send({ jsonrpc: "2.0", id: null, error: parseError() });
      return;
    }
    if (isObject(message) && !("method" in message) && isRequestId(message.id)) {
      this.#answered(message.id, message);
      return;
    }
    if (isObject(message) && typeof message.method === "string" && !("id" in message)) {
      this.#notified(message.method, isObject(message.params) ? message.params : {});
      return;
    }
    const isRequest = isObject(message) && message.jsonrpc === "2.0" &&
      typeof message.method === "string" && isRequestId(message.id) &&
      (!("params" in message) || isObject(message.params));
    if (!isRequest) {
      const reply = respond(message, this.#spec);
      if (reply !== undefined) {
        this.#send(reply, isObject(message) ? relatedId(message) : undefined);
      }
      return;
    }
    return this.#handle(message as { id: RequestId; method: string; params?: JsonObject });
  }

  async #handle(request: { id: RequestId; method: string; params?: JsonObject }): Promise<void> {
    const { id, method } = request;
    const params = request.params ?? {};
    if (this.#handling.has(id)) {
      return this.#fail(
        id,
        ERROR_CODES.invalidRequest,
        `Request id ${JSON.stringify(id)} is in use`,
      );
    }
    if (this.#handling.size >= (this.#spec.maxInFlight ?? 64)) {
      return this.#fail(id, -32000, "Too many requests in flight: wait for some to be answered");
    }
    const controller = new AbortController();
    this.#handling.set(id, controller);
    const context = this.#context(id, params, controller.signal);
    try {
      const result = await this.#answer(id, method, params, context);
      if (controller.signal.aborted) return this.#transport.abandon?.(id); // no reply wanted
      if (result !== undefined) this.#send(result, id);
    } catch (error) {
      if (controller.signal.aborted) return this.#transport.abandon?.(id);
      if (error instanceof RpcError) {
        this.#fail(id, error.code, error.message, error.data);
      } else {
        this.#fail(id, -32603, `Internal error: ${describe(error)}`);
      }
    } finally {
      this.#handling.delete(id);
    }
  }

  /** The reply to a well-formed request, as a whole message. */
  async #answer(
    id: RequestId,
    method: string,
    params: JsonObject,
    context: RequestContext,
  ): Promise<JsonObject | undefined> {
    const spec = this.#spec;
    const plain = () => respond({ jsonrpc: "2.0", id, method, params }, spec);
    const success = (result: JsonObject) => ({ jsonrpc: "2.0", id, result });
    switch (method) {
      case "initialize": {
        const reply = plain()!;
        if (!isObject(reply.result)) return reply;
        this.#clientCapabilities = isObject(params.capabilities) ? params.capabilities : {};
        const capabilities = {
          ...(spec.sessionTools?.length ? { tools: { listChanged: false } } : {}),
          ...(reply.result.capabilities as JsonObject),
          ...spec.capabilities,
        };
        return success({ ...reply.result, capabilities });
      }
      case "logging/setLevel":
        if (!isObject(spec.capabilities?.logging)) break;
        if (!LOG_LEVELS.includes(params.level as LogLevel)) {
          throw new RpcError(
            ERROR_CODES.invalidParams,
            `Invalid params: no log level ${params.level}`,
          );
        }
        this.#logLevel = params.level as LogLevel;
        return success({});
      case "tools/list":
        if (spec.list !== undefined || (spec.sessionTools ?? []).length === 0) return plain();
        return success({
          tools: [...spec.tools ?? [], ...spec.sessionTools ?? []].map((
            { name, description, inputSchema },
          ) => ({
            name,
            description,
            inputSchema,
          })),
        });
      case "tools/call": {
        const tool = spec.sessionTools?.find((tool) => tool.name === params.name);
        if (tool === undefined) return plain();
        const args = params.arguments ?? {};
        spec.onCall?.(tool.name, args);
        const problems = argumentProblems(tool.inputSchema, args);
        if (problems.length > 0) {
          throw new RpcError(
            ERROR_CODES.invalidParams,
            `Invalid arguments for ${tool.name}`,
            problems,
          );
        }
        return success(await tool.run(args as JsonObject, context));
      }
    }
    const handler = spec.handlers === undefined || !Object.hasOwn(spec.handlers, method)
      ? undefined
      : spec.handlers[method];
    if (handler !== undefined) return success(await handler(params, context));
    return plain();
  }

  #context(id: RequestId, params: JsonObject, signal: AbortSignal): RequestContext {
    const meta = isObject(params._meta) ? params._meta : {};
    const token = isRequestId(meta.progressToken) ? meta.progressToken : undefined;
    return {
      signal,
      clientCapabilities: this.#clientCapabilities,
      progress: (progress, total, message) => {
        if (token === undefined || signal.aborted) return;
        this.#send({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: {
            progressToken: token,
            progress,
            ...(total === undefined ? {} : { total }),
            ...(message === undefined ? {} : { message }),
          },
        }, id);
      },
      log: (level, data, logger) => {
        if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(this.#logLevel)) return;
        this.#send({
          jsonrpc: "2.0",
          method: "notifications/message",
          params: { level, data, ...(logger === undefined ? {} : { logger }) },
        }, id);
      },
      request: (method, requestParams) => this.#ask(method, requestParams, id, signal),
    };
  }

  /** Send a request of the server's own, and resolve with the client's result. */
  #ask(
    method: string,
    params: JsonObject,
    relatedTo: RequestId,
    signal: AbortSignal,
  ): Promise<JsonObject> {
    const id = `server-${this.#nextId++}`;
    const { promise, resolve, reject } = Promise.withResolvers<JsonObject>();
    const timeoutMs = this.#spec.requestTimeoutMs ?? 30_000;
    const timer = setTimeout(
      () => reject(new ProtocolError(`The client did not answer ${method} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const stop = () => reject(new ProtocolError(`${method} was abandoned: its request ended`));
    signal.addEventListener("abort", stop, { once: true });
    this.#asked.set(id, { resolve, reject });
    this.#send({ jsonrpc: "2.0", id, method, params }, relatedTo);
    return promise.finally(() => {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
      this.#asked.delete(id);
    });
  }

  /** The client's reply to a request of the server's own. */
  #answered(id: RequestId, reply: JsonObject): void {
    const asked = this.#asked.get(id);
    if (asked === undefined) return; // not asked, or given up: nothing is owed
    if (isObject(reply.result)) asked.resolve(reply.result);
    else {
      const error = isObject(reply.error) ? reply.error : {};
      asked.reject(
        new ProtocolError(`The client refused: ${String(error.message ?? "no message")}`, {
          code: typeof error.code === "number" ? error.code : undefined,
          data: error.data,
        }),
      );
    }
  }

  #notified(method: string, params: JsonObject): void {
    if (method === "notifications/cancelled" && isRequestId(params.requestId)) {
      this.#handling.get(params.requestId)?.abort();
    }
    // notifications/initialized and the rest need nothing from a session.
  }

  #fail(id: RequestId, code: number, message: string, data?: unknown): void {
    const error = data === undefined ? { code, message } : { code, message, data };
    this.#send({ jsonrpc: "2.0", id, error }, id);
  }

  #send(message: JsonObject, relatedTo?: RequestId): void {
    if (this.#ended.signal.aborted && relatedTo === undefined) return;
    this.#transport.send(message, relatedTo);
  }
}

function relatedId(message: JsonObject): RequestId | undefined {
  return isRequestId(message.id) ? message.id : undefined;
}

function parseError(): JsonObject {
  return { code: ERROR_CODES.parseError, message: "Parse error: the message is not JSON" };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

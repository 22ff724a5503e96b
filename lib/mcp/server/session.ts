/**
 * One client's session with a server, over any {@linkcode ServerTransport}:
 * many requests handled at once, each answered when it is done (so replies
 * may come out of order), progress and log notifications sent while a tool
 * runs, and a request the client cancels stopped and left unanswered. It
 * serves both eras of MCP, as a dual-era server does ("A request carrying
 * modern per-request `_meta` is served statelessly … An `initialize` request
 * selects legacy semantics"): a legacy request follows the version agreed at
 * `initialize`, and the server's own requests to the client are awaited; a
 * modern request (and `server/discover`, which only the modern era has,
 * whatever it carries) is served from what it carries alone
 * (`modern_answer.ts`).
 * What `respond` in `dispatch.ts` answers, it answers the same way, but for
 * a call whose arguments break its tool's schema: `dispatch.ts` is
 * 2025-06-18's (-32602), and a session answers it as the version of the
 * request has it (`argument_refusal.ts`).
 *
 * @module
 */

import { describeError, ProtocolError } from "../shared/errors.ts";
import { isObject, isRequestId, type JsonObject, type RequestId } from "../shared/jsonrpc.ts";
import { isLogLevel, type LogLevel } from "../shared/log_levels.ts";
import { isModernRequest } from "../shared/meta.ts";
import { MODERN_ERRORS } from "../shared/modern_errors.ts";
import { isMcpVersion, LEGACY_VERSIONS, MCP_VERSIONS } from "../shared/versions.ts";
import { refusedArguments } from "./argument_refusal.ts";
import { ERROR_CODES, respond } from "./dispatch.ts";
import { InputRequired, undeclaredCapability } from "./input_round.ts";
import { answerModern, offeredCapabilities } from "./modern_answer.ts";
import { answerProblem, questionProblem } from "./answer_problem.ts";
import { RequestStateSeal } from "./request_state.ts";
import { toolResult } from "./tool.ts";
import { ServerRequests } from "./server_requests.ts";
import { type ServerTransport, Unparsed } from "./server_transport.ts";
import { requestContext } from "./request_context.ts";
import { type RequestContext, RpcError, type SessionSpec } from "./session_spec.ts";
import { fitError, fitResult, requestUnfit } from "./version_fit.ts";

/** Options for {@linkcode ServerSession}. */
export interface ServerSessionOptions {
  /**
   * Seals the `requestState` of modern multi round-trip requests; sessions
   * of one server share it, so that a retry may reach any of them.
   * @default {a seal of the spec's `requestStateKey`, or of a random key}
   */
  seal?: RequestStateSeal;
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
  readonly #seal: RequestStateSeal;
  readonly #handling = new Map<RequestId, AbortController>();
  readonly #asking: ServerRequests;
  readonly #ended = new AbortController();
  /** Aborted when the client's messages end, or the session does: a subscription then ends, with its result. */
  readonly #closing = new AbortController();
  #clientCapabilities: JsonObject = {};
  /** The legacy protocol version agreed at `initialize`, once agreed; results follow it. */
  #version?: string;
  #logLevel: LogLevel = "debug";

  /** Start serving `spec` over `transport`. */
  constructor(spec: SessionSpec, transport: ServerTransport, options: ServerSessionOptions = {}) {
    this.#spec = spec;
    this.#transport = transport;
    this.#seal = options.seal ?? new RequestStateSeal({ key: spec.requestStateKey });
    this.#asking = new ServerRequests(transport, spec.requestTimeoutMs);
    this.done = this.#serve();
  }

  /** The legacy protocol version agreed at `initialize`, or `undefined` before (or without) one. */
  get version(): string | undefined {
    return this.#version;
  }

  /** Stop every request being handled, and every request of the server's own that waits. */
  end(): void {
    this.#closing.abort();
    this.#ended.abort();
    for (const controller of this.#handling.values()) controller.abort();
    this.#asking.end();
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
      // What was asked before the end is still answered (a stdio server's stdout is open),
      // and each subscription ends with its result.
      this.#closing.abort();
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
      this.#asking.answered(message.id, message);
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
    const modern = this.#transport.era === "modern" || isModernRequest(method, params);
    try {
      const reply = modern
        ? await answerModern({ id, method, params }, {
          spec: this.#spec,
          seal: this.#seal,
          signal: controller.signal,
          ended: this.#closing.signal,
          send: (message) => this.#send(message, id),
          answer: (method, params, context, version) =>
            this.#answer(id, method, params, context, version),
        })
        : await this.#legacy(id, method, params, controller.signal);
      const stillWanted = !controller.signal.aborted ||
        (modern && method === "subscriptions/listen" && this.#closing.signal.aborted);
      if (!stillWanted) return this.#transport.abandon?.(id); // no reply wanted
      if (reply !== undefined) this.#send(reply, id);
    } catch (error) {
      if (controller.signal.aborted) return this.#transport.abandon?.(id);
      if (error instanceof RpcError) {
        this.#fail(id, error.code, error.message, error.data);
      } else {
        this.#fail(id, -32603, `Internal error: ${describeError(error)}`);
      }
    } finally {
      this.#handling.delete(id);
    }
  }

  /** The reply to a legacy request: the version agreed at `initialize` decides what it holds. */
  async #legacy(
    id: RequestId,
    method: string,
    params: JsonObject,
    signal: AbortSignal,
  ): Promise<JsonObject | undefined> {
    if (method === "initialize") return this.#initialize(id, params);
    if (method === "logging/setLevel" && isObject(this.#spec.capabilities?.logging)) {
      if (!isLogLevel(params.level)) {
        throw new RpcError(
          ERROR_CODES.invalidParams,
          `Invalid params: no log level ${params.level}`,
        );
      }
      this.#logLevel = params.level;
      return { jsonrpc: "2.0", id, result: {} };
    }
    const version = this.#legacyVersion();
    const context = this.#legacyContext(id, params, signal);
    const reply = await this.#answer(id, method, params, context, version);
    if (reply !== undefined && isObject(reply.result)) {
      reply.result = fitResult(method, reply.result, version);
    }
    if (reply !== undefined && isObject(reply.error)) {
      reply.error = fitError(method, reply.error, version);
    }
    return reply;
  }

  /**
   * The legacy version a request is answered in: the one agreed at
   * `initialize`, or before one, the newest legacy version the server speaks.
   */
  #legacyVersion(): string {
    const all: readonly string[] = this.#spec.versions ?? MCP_VERSIONS;
    return this.#version ?? all.find((version) => LEGACY_VERSIONS.includes(version as never)) ??
      LEGACY_VERSIONS[0];
  }

  /**
   * The reply to `initialize`: the version negotiated among the legacy
   * versions the server speaks. A server that speaks only modern versions
   * names them in its refusal, as the specification asks ("legacy clients
   * have no fall-forward mechanism, and this message may be the only
   * diagnostic they can surface").
   */
  #initialize(id: RequestId, params: JsonObject): JsonObject {
    const spec = this.#spec;
    const all = spec.versions ?? MCP_VERSIONS;
    const legacy = all.filter((version) => LEGACY_VERSIONS.includes(version as never));
    if (legacy.length === 0) {
      throw new RpcError(
        MODERN_ERRORS.unsupportedProtocolVersion,
        `This server speaks ${all.join(", ")} only, with no initialize handshake`,
        { supported: [...all], requested: params.protocolVersion ?? null },
      );
    }
    const reply = respond({ jsonrpc: "2.0", id, method: "initialize", params }, {
      ...spec,
      versions: legacy,
    })!;
    if (!isObject(reply.result)) return reply;
    this.#version = String(reply.result.protocolVersion);
    this.#clientCapabilities = isObject(params.capabilities) ? params.capabilities : {};
    const capabilities = offeredCapabilities(spec);
    return { jsonrpc: "2.0", id, result: { ...reply.result, capabilities } };
  }

  /**
   * The reply to a well-formed request of either era, as a whole message
   * (`undefined` for none), given its `context` and the protocol `version`
   * it is answered in: the methods of a session (its tools with a context,
   * its handlers), then the plain ones. A call whose arguments break its
   * tool's schema is refused as `version` has it (`argument_refusal.ts`).
   */
  async #answer(
    id: RequestId,
    method: string,
    params: JsonObject,
    context: RequestContext,
    version: string,
  ): Promise<JsonObject | undefined> {
    const spec = this.#spec;
    const plain = () => respond({ jsonrpc: "2.0", id, method, params }, spec);
    const success = (result: JsonObject) => ({ jsonrpc: "2.0", id, result });
    switch (method) {
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
        const tool = [...spec.sessionTools ?? [], ...spec.tools ?? []]
          .find((tool) => tool.name === params.name);
        if (tool === undefined) return plain(); // no name, or an unknown tool: a protocol error
        const { arguments: args = {} } = params;
        spec.onCall?.(tool.name, args);
        const refused = refusedArguments(tool, { arguments: args, version });
        if (refused !== undefined) return success(refused);
        const valid = args as JsonObject;
        try {
          return success(
            "run" in tool ? await tool.run(valid, context) : toolResult(tool.call(valid)),
          );
        } catch (error) {
          // A tool that fails is a tool's failure, which a model can read and act on ("reported in
          // tool results with isError: true", server/tools.mdx): a protocol error it means to
          // send (RpcError) is sent as such, and a question of a multi round-trip request is asked.
          if (error instanceof RpcError || error instanceof InputRequired) throw error;
          return success({
            content: [{ type: "text", text: `${tool.name} failed: ${describeError(error)}` }],
            isError: true,
          });
        }
      }
    }
    const handler = spec.handlers === undefined || !Object.hasOwn(spec.handlers, method)
      ? undefined
      : spec.handlers[method];
    if (handler !== undefined) return success(await handler(params, context));
    return plain();
  }

  /** What a legacy request's handler may do: the session's log level, the server's own requests. */
  #legacyContext(id: RequestId, params: JsonObject, signal: AbortSignal): RequestContext {
    return requestContext(params, {
      signal,
      clientCapabilities: this.#clientCapabilities,
      logLevel: this.#logLevel,
      send: (message) => this.#send(message, id),
      ask: (method, requestParams) => {
        const version = isMcpVersion(this.#version) ? this.#version : undefined;
        const needed = undeclaredCapability(
          method,
          requestParams,
          this.#clientCapabilities,
          version,
        );
        const unfit = requestUnfit(method, requestParams, this.#version) ??
          questionProblem(method, requestParams) ??
          (needed && `The client did not declare ${JSON.stringify(needed)}: ${method} is not sent`);
        if (unfit) return Promise.reject(new ProtocolError(unfit));
        return this.#asking.ask(method, requestParams, { id, signal }).then((answer) => {
          const problem = answerProblem(method, requestParams, answer, this.#version);
          if (problem !== undefined) {
            throw new ProtocolError(`The client's answer to ${method} ${problem}`);
          }
          return answer;
        });
      },
    });
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

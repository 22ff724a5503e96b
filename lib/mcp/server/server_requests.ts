/**
 * The requests a server sends its client of its own accord while it handles
 * one of the client's (`sampling/createMessage`, `elicitation/create`): each
 * under an id of the server's, waiting at most its deadline for the client's
 * reply, abandoned when the request it serves ends, and refused all at once
 * when the session ends.
 *
 * @module
 */

import { ProtocolError } from "../shared/errors.ts";
import { isObject, type JsonObject, type RequestId } from "../shared/jsonrpc.ts";
import type { ServerTransport } from "./server_transport.ts";

interface Asked {
  resolve: (result: JsonObject) => void;
  reject: (error: unknown) => void;
}

/**
 * A session's requests to its client, sent over `transport`, each on the
 * stream of the client's request it serves.
 *
 * @example The client answers the server's question
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const sent: Record<string, unknown>[] = [];
 * const asking = new ServerRequests({ incoming: ReadableStream.from([]), send: (message) => void sent.push(message) });
 * const serving = { id: 1, signal: new AbortController().signal };
 * const reply = asking.ask("elicitation/create", { message: "Which city?" }, serving);
 * assert.equal(sent[0].method, "elicitation/create");
 * asking.answered(sent[0].id as string, { jsonrpc: "2.0", id: sent[0].id, result: { action: "accept" } });
 * assert.deepEqual(await reply, { action: "accept" });
 * ```
 */
export class ServerRequests {
  readonly #transport: ServerTransport;
  readonly #timeoutMs: number;
  readonly #asked = new Map<RequestId, Asked>();
  #nextId = 0;

  /** Requests sent over `transport`, each waiting at most `timeoutMs` for its reply. */
  constructor(transport: ServerTransport, timeoutMs = 30_000) {
    this.#transport = transport;
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Send `method` with `params`, for the client's request `serving.id`, and
   * resolve with the client's result. Rejects with `ProtocolError` when the
   * client refuses, does not answer in time, or that request ends first
   * (`serving.signal`).
   */
  ask(
    method: string,
    params: JsonObject,
    serving: { readonly id: RequestId; readonly signal: AbortSignal },
  ): Promise<JsonObject> {
    const { id: relatedTo, signal } = serving;
    const id = `server-${this.#nextId++}`;
    const { promise, resolve, reject } = Promise.withResolvers<JsonObject>();
    const timeoutMs = this.#timeoutMs;
    const timer = setTimeout(
      () => reject(new ProtocolError(`The client did not answer ${method} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const stop = () => reject(new ProtocolError(`${method} was abandoned: its request ended`));
    signal.addEventListener("abort", stop, { once: true });
    this.#asked.set(id, { resolve, reject });
    this.#transport.send({ jsonrpc: "2.0", id, method, params }, relatedTo);
    return promise.finally(() => {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
      this.#asked.delete(id);
    });
  }

  /** The client's reply to the request `id`; one not asked, or given up, is owed nothing. */
  answered(id: RequestId, reply: JsonObject): void {
    const asked = this.#asked.get(id);
    if (asked === undefined) return;
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

  /** The session has ended: every request still waiting is refused. */
  end(): void {
    for (const asked of this.#asked.values()) {
      asked.reject(new ProtocolError("The session ended before the client answered"));
    }
    this.#asked.clear();
  }
}

/**
 * A legacy server's own requests to its client (`ping`, `sampling/createMessage`,
 * `elicitation/create`), answered as `answerServer` says for the version
 * agreed, unless the server cancels one first: then nothing is sent ("the
 * client SHOULD ignore any response to the cancelled request", and a
 * cancellation's receiver should "Not send a response for the cancelled
 * request"), and the model or user it waits on is told through its signal.
 * A modern (2026-07-28) server sends no requests at all ("The server MUST NOT
 * write JSON-RPC requests"): one that does is refused. A user's answer that
 * does not fit the form (`FormAnswerError`, see `checkedAnswer`) is not
 * sent: the server gets the JSON-RPC error -32603 in its place, and the
 * error goes to the caller.
 *
 * @module
 */

import { ProtocolError } from "../shared/errors.ts";
import type { JsonRpcRequest, JsonRpcResponse, RequestId } from "../shared/jsonrpc.ts";
import { type McpVersion, versionFeatures } from "../shared/versions.ts";
import { FormAnswerError } from "./elicitation.ts";
import { answerServer, type ServerAnswers } from "./replies.ts";

/**
 * The server's requests being answered, each until it is answered or cancelled.
 *
 * @example A request the server cancels is not answered
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const sent: { id: unknown }[] = [];
 * const asks = new ServerAsks({}, (reply) => void sent.push(reply));
 * asks.ask({ jsonrpc: "2.0", id: 1, method: "ping" }, "2025-11-25");
 * asks.ask({ jsonrpc: "2.0", id: 2, method: "ping" }, "2025-11-25");
 * asks.cancel(2);
 * await new Promise((resolve) => setTimeout(resolve, 0));
 * assert.deepEqual(sent.map((reply) => reply.id), [1]);
 * ```
 */
export class ServerAsks {
  readonly #answers: Omit<ServerAnswers, "version" | "signal">;
  readonly #send: (reply: JsonRpcResponse) => void;
  readonly #asked = new Map<RequestId, AbortController>();

  /** Answer with `answers`' functions, sending each reply with `send`. */
  constructor(
    answers: Omit<ServerAnswers, "version" | "signal">,
    send: (reply: JsonRpcResponse) => void,
  ) {
    this.#answers = answers;
    this.#send = send;
  }

  /**
   * Answer `request`, which the server sent in a session at `version`
   * (`undefined` before one is agreed). Throws `ProtocolError` at once when a
   * modern server asks (before the caller reads another message: a reply
   * written right after the request must find the server distrusted), and
   * rejects with it when answering fails; the caller distrusts the server.
   * Rejects with `FormAnswerError`, the server told -32603, for a user's
   * answer that does not fit the form (the server is not at fault), unless
   * the server cancelled its question first: then nothing is sent or failed.
   */
  ask(request: JsonRpcRequest, version: McpVersion | undefined): Promise<void> {
    if (version !== undefined && versionFeatures(version).era === "modern") {
      throw new ProtocolError(
        `The server sent a request of its own (${request.method}); a ${version} server sends ` +
          "none, and asks for input in an input_required result instead",
      );
    }
    const asked = new AbortController();
    this.#asked.set(request.id, asked);
    return answerServer(request, { ...this.#answers, version, signal: asked.signal }).then(
      (reply) => {
        if (this.#asked.get(request.id) === asked) this.#asked.delete(request.id);
        if (!asked.signal.aborted) this.#send(reply);
      },
      (error) => {
        if (!(error instanceof FormAnswerError)) {
          throw new ProtocolError("Answering the server failed", { cause: error });
        }
        if (this.#asked.get(request.id) === asked) this.#asked.delete(request.id);
        // A question the server withdrew, or a connection closing, fails nothing more.
        if (asked.signal.aborted) return;
        // The server hears that its question failed, not what the user answered.
        this.#send({
          jsonrpc: "2.0",
          id: request.id,
          error: { code: -32603, message: "The user's answer did not fit the form: not sent" },
        });
        throw error;
      },
    );
  }

  /** The server cancelled its request `id`: its answer, when it comes, is not sent. */
  cancel(id: RequestId): void {
    this.#asked.get(id)?.abort();
    this.#asked.delete(id);
  }

  /** The connection is closing: every answer still awaited is abandoned. */
  end(): void {
    for (const asked of this.#asked.values()) asked.abort();
    this.#asked.clear();
  }
}

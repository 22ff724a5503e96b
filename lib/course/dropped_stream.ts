/**
 * Lab 04's broken stream: a call POSTed, its event stream read for its first
 * progress notification, then the connection dropped (as a network drop
 * would), and what the learner's `recoverStream` decides done. Today
 * (2026-07-28) the drop cancels the call ("Closing the SSE response stream
 * MUST be treated by the server as cancellation of that request") and the
 * client re-issues it with a new id; in a legacy session (2025-11-25) the
 * server goes on with the call while no one listens, and the client resumes
 * the stream with a GET that sends `Last-Event-ID`. The server's own account
 * of each call ({@linkcode HeldCalls}) says which happened, whatever the
 * machine's clock does: each call holds after its first step until the
 * lesson releases it, or its request is cancelled. Each stream is read with
 * the learner's own `sseData`, which tells no event id: the id to resume
 * from is the server's own record of the events it wrote.
 *
 * @module
 */

import { isObject, type JsonObject, type RequestId } from "../mcp/shared/jsonrpc.ts";
import { readSseWith } from "../mcp/shared/read_sse_with.ts";
import type { SseData } from "../mcp/shared/sse.ts";
import { type HttpServer, serveHttp } from "../mcp/server/http_server.ts";
import type { SessionSpec } from "../mcp/server/session_spec.ts";

/** How a call the server held ended. */
export type CallEnd = "cancelled" | "finished";

/**
 * A server of one tool, `count_slowly`, whose calls report step 1 of 3,
 * hold until {@linkcode HeldCalls.release} lets them go on or their request
 * is cancelled, then report steps 2 and 3 and answer. Its account says what
 * each call did, in the order the calls began.
 *
 * @example A call let go on counts to its end
 * ```ts
 * import assert from "node:assert/strict";
 * import { Client } from "../mcp/client/client.ts";
 *
 * const held = new HeldCalls();
 * await using server = held.serve();
 * await using client = new Client(server.url, { allowed: ["count_slowly"] });
 * await client.initialize();
 * await client.listTools();
 * const answer = client.callTool("count_slowly");
 * held.release(1);
 * assert.equal(await answer, "counted to 3");
 * assert.equal(await held.ended(1), "finished");
 * assert.deepEqual(held.account(), ["call 1: step 1, step 2, step 3, finished"]);
 * assert.equal(held.lastEventId, null); // no progress asked: one JSON reply, no event written
 * ```
 */
export class HeldCalls {
  readonly #steps: string[][] = [];
  readonly #gates = new Map<number, PromiseWithResolvers<void>>();
  readonly #ends = new Map<number, PromiseWithResolvers<CallEnd>>();
  #lastEventId: string | null = null;

  /** The server, for `serveHttp`. */
  readonly spec: SessionSpec = {
    name: "held-calls",
    version: "1.0.0",
    tools: [],
    sessionTools: [{
      name: "count_slowly",
      description: "Counts to 3, holding after 1 until it is told to go on.",
      inputSchema: { type: "object", properties: {} },
      run: async (_args, context) => {
        const call = this.#steps.push([]);
        const steps = this.#steps[call - 1];
        const step = (n: number) => {
          steps.push(`step ${n}`);
          context.progress(n, 3, `step ${n} of 3`);
        };
        step(1);
        const cancelled = Promise.withResolvers<void>();
        if (context.signal.aborted) cancelled.resolve();
        context.signal.addEventListener("abort", () => cancelled.resolve(), { once: true });
        await Promise.race([once(this.#gates, call).promise, cancelled.promise]);
        if (context.signal.aborted) {
          steps.push("cancelled");
          once(this.#ends, call).resolve("cancelled");
          throw new Error("cancelled"); // no reply goes to a cancelled request
        }
        step(2);
        step(3);
        steps.push("finished");
        once(this.#ends, call).resolve("finished");
        return { content: [{ type: "text", text: "counted to 3" }], isError: false };
      },
    }],
  };

  /** Serve {@linkcode HeldCalls.spec} over Streamable HTTP, keeping the id of each event it writes. */
  serve(): HttpServer {
    return serveHttp(this.spec, { onEvent: (id) => void (this.#lastEventId = id) });
  }

  /** The id of the last event a legacy session's stream wrote, `null` before any. */
  get lastEventId(): string | null {
    return this.#lastEventId;
  }

  /** Let call `n` (1 for the first to begin) go on past step 1, now or once it begins. */
  release(n: number): void {
    once(this.#gates, n).resolve();
  }

  /** How call `n` ended, once it has. */
  ended(n: number): Promise<CallEnd> {
    return once(this.#ends, n).promise;
  }

  /** How many calls have begun. */
  get calls(): number {
    return this.#steps.length;
  }

  /** The server's account: for each call, in the order they began, what it did. */
  account(): string[] {
    return this.#steps.map((steps, i) => `call ${i + 1}: ${steps.join(", ")}`);
  }
}

/** The resolvers kept under `key` in `map`, made the first time either side asks. */
function once<T>(map: Map<number, PromiseWithResolvers<T>>, key: number): PromiseWithResolvers<T> {
  let found = map.get(key);
  if (found === undefined) map.set(key, found = Promise.withResolvers<T>());
  return found;
}

/** What a POST's stream carried before the drop. */
interface Dropped {
  /** The messages read before the drop. */
  before: JsonObject[];
  /** The id of the last event the server wrote before the drop, `null` when it named none. */
  lastEventId: string | null;
}

/** What the learner's `recoverStream` decides: re-issue, resume, or nothing (`null`). */
export type Recovery = { reissue: JsonObject } | { resume: string } | null;

/** The learner's decisions a broken stream needs. */
export interface DropDecisions {
  postHeaders(message: JsonObject, session: { id?: string; protocolVersion?: string }): Record<
    string,
    string
  >;
  recoverStream(request: JsonObject, lastEventId: string | null, nextId: RequestId): Recovery;
  sseData: SseData;
}

/** What the client did after the drop, and what came of it. */
export interface Recovered extends Dropped {
  /** What the learner's `recoverStream` returned (a {@linkcode Recovery}, if it is right). */
  decision: unknown;
  /** The HTTP status of the request that re-issued or resumed it, if one was sent. */
  status?: number;
  /** The messages that request's stream carried, up to and including its reply. */
  after: JsonObject[];
}

/** Options for {@linkcode breakAndRecover}. */
export interface BreakOptions {
  /** The learner's decisions: the POST's headers, what to do once the stream broke, and the data of a stream's events. */
  decisions: DropDecisions;
  /** The server's account of its calls, and the hold on each. */
  held: HeldCalls;
  /** The id the client's next request takes. */
  nextId: RequestId;
  /** The legacy session the request goes in. @default {{}} (none: a request of today) */
  session?: { id?: string; protocolVersion?: string };
}

/**
 * POST `request` (a `tools/call` of `count_slowly` with a progress token)
 * to `url` (served by `held`) with the learner's headers, read its first
 * message with the learner's `sseData`, drop the connection, and do what
 * the learner's `recoverStream` decides, given the id of the last event the
 * server wrote (its own record, `held.lastEventId`): re-issue
 * the request with a POST, or resume its stream with a GET. The call that
 * request concerns (the new one, or the first) is let go on once its
 * response begins; the first call is never let go on otherwise, so that it
 * finishes only if the server went on with it. Throws an `Error` when the
 * POST is not answered with an event stream.
 *
 * @example
 * ```ts ignore
 * const held = new HeldCalls();
 * await using server = held.serve();
 * const done = await breakAndRecover(server.url, call, { decisions, held, nextId: 3 });
 * // done.decision: { reissue: { ...call, id: 3 } }; held.account(): call 1 cancelled, call 2 finished
 * ```
 */
export async function breakAndRecover(
  url: URL,
  request: JsonObject,
  options: BreakOptions,
): Promise<Recovered> {
  const { decisions, held, nextId, session = {} } = options;
  const headers = decisions.postHeaders(request, session);
  const posted = await fetch(url, { method: "POST", headers, body: JSON.stringify(request) });
  if (!posted.headers.get("content-type")?.startsWith("text/event-stream") || !posted.body) {
    await posted.body?.cancel();
    throw new Error(
      `The POST was answered ${posted.status} ${
        posted.headers.get("content-type")
      }, not an event stream`,
    );
  }
  const dropped = await readThenDrop(posted.body, decisions.sseData, held);
  // Whatever the learner's function returned: only a decision it can act on is acted on.
  const decision: unknown = decisions.recoverStream(
    structuredClone(request),
    dropped.lastEventId,
    nextId,
  );
  let response: Response;
  let id: unknown;
  let call: number;
  if (isObject(decision) && isObject(decision.reissue)) {
    id = decision.reissue.id;
    call = held.calls + 1;
    response = await fetch(url, {
      method: "POST",
      headers: decisions.postHeaders(decision.reissue, session),
      body: JSON.stringify(decision.reissue),
    });
  } else if (isObject(decision) && typeof decision.resume === "string") {
    id = request.id;
    call = 1;
    response = await fetch(url, {
      headers: { ...headers, accept: "text/event-stream", "last-event-id": decision.resume },
    });
  } else return { ...dropped, decision, after: [] };
  held.release(call);
  const after: JsonObject[] = [];
  if (response.ok && response.body !== null) {
    for await (const event of readSseWith(response.body, decisions.sseData, { limit: LIMIT })) {
      const message = JSON.parse(event.data) as JsonObject;
      after.push(message);
      if (message.id === id && !("method" in message)) break;
    }
  } else await response.body?.cancel();
  return { ...dropped, decision, status: response.status, after };
}
/** The most bytes a stream read here may take. */
const LIMIT = 1 << 20;

/**
 * Read `body` with `sseData` up to its first message, then drop the
 * connection; the last event id is the server's own record, from `held`.
 */
async function readThenDrop(
  body: ReadableStream<Uint8Array>,
  sseData: SseData,
  held: HeldCalls,
): Promise<Dropped> {
  const before: JsonObject[] = [];
  for await (const event of readSseWith(body, sseData, { limit: LIMIT })) {
    before.push(JSON.parse(event.data));
    break; // leaving the loop cancels the body: the connection drops
  }
  return { before, lastEventId: held.lastEventId };
}

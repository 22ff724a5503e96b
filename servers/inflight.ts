/**
 * Lab 04's server: many requests at once. One tool, `slow_count({text,
 * ms})`, answers the number of words in `text` after `ms` milliseconds
 * (reporting progress on the way when asked to), and every call runs at once
 * with the others, so replies come in the order the calls finish; a call the
 * client cancels is stopped. A mode decides how it misbehaves. Its log, one
 * JSON line each, is its own account of what happened, in the order it
 * happened: every `tools/call` it receives (`{ id, name, arguments }`), every
 * reply it sends to one (`{ answered: id }`, before the reply goes), and
 * every `notifications/cancelled` (`{ cancelled: id }`).
 *
 *     deno run --allow-write=LOG servers/inflight.ts --mode MODE --log LOG
 *
 * @module
 */

import { parseArgs } from "node:util";
import type { JsonObject, RequestId } from "../lib/mcp/shared/jsonrpc.ts";
import type { SessionSpec } from "../lib/mcp/server/session_spec.ts";
import { ServerSession } from "../lib/mcp/server/session.ts";
import { stdioServerTransport } from "../lib/mcp/server/stdio_server.ts";
import type { ServerTransport } from "../lib/mcp/server/server_transport.ts";

/** The modes, each a way to misbehave (or not). */
export const INFLIGHT_MODES = [
  "normal", // each reply when its call is done
  "reversed", // holds replies, and sends each batch of three last first
  "twice", // sends the reply to the first call twice
  "late", // answers a call it is told to cancel anyway, late: at once, when it is told
  "die", // exits with status 3 once three calls are in flight, answering none
] as const;

/** One of {@linkcode INFLIGHT_MODES}. */
export type InflightMode = typeof INFLIGHT_MODES[number];

/** How long the reversed mode waits for a batch of three before it sends what it holds. */
const BATCH_MS = 200;

const encoder = new TextEncoder();

/** The server, as a session spec (its log is kept by {@linkcode misbehaving}, which sees every message). */
export function inflightServer(): SessionSpec {
  return {
    name: "inflight",
    version: "1.0.0",
    tools: [],
    maxInFlight: 256,
    sessionTools: [{
      name: "slow_count",
      description: "Count the words in a text, taking ms milliseconds to do it.",
      inputSchema: {
        type: "object",
        properties: {
          text: { type: "string", description: "The text whose words to count." },
          ms: { type: "integer", minimum: 0, maximum: 60000, description: "How long to take." },
        },
        required: ["text"],
        additionalProperties: false,
      },
      run: async ({ text, ms = 0 }, context) => {
        const steps = 4;
        const begun = performance.now();
        for (let step = 1; step <= steps; step++) {
          // Each step at its time from the call's start: a timer that fires late delays no other.
          await sleep(begun + Number(ms) * step / steps - performance.now(), context.signal);
          context.progress(step, steps, `counted ${step} of ${steps}`);
        }
        return countResult(text);
      },
    }],
  };
}

/** The result of `slow_count` for `text`: its number of words. */
function countResult(text: unknown): JsonObject {
  const words = String(text).split(/\s+/).filter((word) => word !== "").length;
  return { content: [{ type: "text", text: String(words) }], isError: false };
}

/** Wait `ms` milliseconds, or reject as soon as `signal` is aborted (the call was cancelled). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, Math.max(0, ms));
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
  });
}

/**
 * `transport` as `mode` misbehaves with it: what the session sends, and
 * what the client's messages are taken to be.
 */
export function misbehaving(
  mode: InflightMode,
  transport: ServerTransport,
  log: (entry: JsonObject) => void,
): ServerTransport {
  const isReply = (message: JsonObject) => !("method" in message) && "id" in message;
  let calls = 0;
  let firstCall: unknown;
  const callIds = new Set<unknown>();
  /** The text of each call not answered yet, by id. */
  const unanswered = new Map<unknown, unknown>();
  /** Send a reply to a call, logged first: the log says when each call ended. */
  const answer = (message: JsonObject, related: RequestId | undefined) => {
    if (unanswered.delete(message.id)) log({ answered: message.id as RequestId });
    transport.send(message, related);
  };
  let held: [JsonObject, RequestId | undefined][] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    for (const [message, related] of held.reverse()) answer(message, related);
    held = [];
  };
  async function* incoming(): AsyncGenerator<unknown> {
    for await (const message of transport.incoming) {
      const { method, params } = (message ?? {}) as { method?: unknown; params?: JsonObject };
      if (method === "notifications/cancelled") {
        const id = params?.requestId ?? null;
        log({ cancelled: id });
        if (mode === "late" && unanswered.has(id)) {
          // The reply the client gave up on comes anyway; the call itself then stops.
          const text = unanswered.get(id);
          answer({ jsonrpc: "2.0", id, result: countResult(text) }, id as RequestId);
        }
      }
      if (method === "tools/call") {
        const id = (message as { id?: unknown }).id;
        const args = (params?.arguments ?? {}) as JsonObject;
        calls++;
        if (calls === 1) firstCall = id;
        callIds.add(id);
        unanswered.set(id, args.text);
        log({ id: id as RequestId, name: String(params?.name), arguments: args });
        if (mode === "die" && calls === 3) {
          Deno.stderr.writeSync(encoder.encode("inflight: dying with calls in flight\n"));
          Deno.exit(3);
        }
      }
      yield message;
    }
    if (held.length > 0) flush();
  }
  return {
    incoming: incoming(),
    send(message, related) {
      if (mode === "reversed" && isReply(message) && callIds.has(message.id)) {
        held.push([message, related]);
        if (held.length === 3) flush();
        else timer ??= setTimeout(flush, BATCH_MS);
        return;
      }
      if (isReply(message) && callIds.has(message.id)) answer(message, related);
      else transport.send(message, related);
      if (mode === "twice" && isReply(message) && message.id === firstCall) {
        transport.send(message, related);
      }
    },
    abandon: transport.abandon?.bind(transport),
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { mode: { type: "string", default: "normal" }, log: { type: "string" } },
  });
  const mode = values.mode as InflightMode;
  if (!INFLIGHT_MODES.includes(mode)) {
    console.error(`inflight server: unknown mode ${mode}; modes: ${INFLIGHT_MODES.join(", ")}`);
    Deno.exit(2);
  }
  if (values.log === undefined) {
    console.error("inflight server: --log PATH is required");
    Deno.exit(2);
  }
  const file = Deno.openSync(values.log, { append: true, create: true });
  const log = (entry: JsonObject) => file.writeSync(encoder.encode(JSON.stringify(entry) + "\n"));
  const transport = misbehaving(mode, stdioServerTransport(), log);
  await new ServerSession(inflightServer(), transport).done;
}

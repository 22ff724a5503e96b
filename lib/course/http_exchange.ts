/**
 * Lab 04's POST, made with the learner's own decisions: the headers it
 * carries (`postHeaders`: today's mirrored from the body, or a legacy
 * session's), what its response is (`replyKind`), and the data of an event
 * stream (`sseData`). One message out, whatever came back in.
 *
 * @module
 */

import { readBounded } from "../mcp/shared/bounded_body.ts";
import type { JsonObject } from "../mcp/shared/jsonrpc.ts";

/** What a client knows of its legacy session: the id the server issued, and the version agreed. */
export interface SessionState {
  id?: string;
  protocolVersion?: string;
}

/** What a response is, as `replyKind` says. */
export type ReplyKind = "json" | "events" | "accepted" | "session-ended" | "refused";

/** The learner's decisions, as the exchange calls them. */
export interface HttpDecisions {
  postHeaders(message: JsonObject, session: SessionState): Record<string, string>;
  replyKind(
    reply: { status: number; contentType: string | null },
    sent: { request: boolean; session: boolean },
  ): ReplyKind;
  sseData(text: string): string[];
}

/** What one exchange gave. */
export interface Exchange {
  status: number;
  kind: ReplyKind;
  /** The messages the response carried, in order (none unless JSON or events). */
  messages: JsonObject[];
  /** The session id the response issued, if it issued one. */
  sessionId?: string;
  /** The JSON-RPC error code a refusal's body carried, if it carried one (why it was refused). */
  code?: number;
}

/** The most bytes a response body may take here. */
const LIMIT = 1 << 20;

/**
 * POST `message` to `url` as the learner's decisions say, and read what
 * comes back. A refusal is read too, for the JSON-RPC error its body may
 * carry (its `code`): today's servers say why they refused.
 *
 * @example A request of today, answered with JSON
 * ```ts
 * import assert from "node:assert/strict";
 * import { serveHttp } from "../mcp/server/http_server.ts";
 * import { standardHeaders } from "../mcp/shared/mcp_headers.ts";
 * import { withRequestMeta } from "../mcp/shared/meta.ts";
 *
 * await using server = serveHttp({ name: "empty", version: "1.0.0", tools: [] });
 * const params = withRequestMeta({}, { protocolVersion: "2026-07-28", clientCapabilities: {} });
 * const decisions = {
 *   postHeaders: (message: Record<string, unknown>) => ({
 *     "content-type": "application/json",
 *     accept: "application/json, text/event-stream",
 *     ...standardHeaders(String(message.method), message.params),
 *   }),
 *   replyKind: () => "json" as const,
 *   sseData: () => [],
 * };
 * const discover = { jsonrpc: "2.0", id: 1, method: "server/discover", params };
 * const reply = await postMessage(server.url, discover, {}, decisions);
 * assert.equal(reply.status, 200);
 * assert.ok("supportedVersions" in (reply.messages[0].result as object));
 * const ping = await postMessage(server.url, { ...discover, method: "ping" }, {}, {
 *   ...decisions,
 *   replyKind: () => "refused" as const,
 * });
 * assert.deepEqual([ping.status, ping.code], [404, -32601]);
 * ```
 */
export async function postMessage(
  url: URL,
  message: JsonObject,
  session: SessionState,
  decisions: HttpDecisions,
): Promise<Exchange> {
  const response = await fetch(url, {
    method: "POST",
    headers: decisions.postHeaders(message, session),
    body: JSON.stringify(message),
  });
  const request = typeof message.method === "string" && "id" in message;
  const contentType = response.headers.get("content-type");
  const kind = decisions.replyKind(
    { status: response.status, contentType },
    { request, session: session.id !== undefined },
  );
  const sessionId = response.headers.get("mcp-session-id") ?? undefined;
  const body = new TextDecoder().decode(
    await readBounded(response.body ?? ReadableStream.from([]), LIMIT),
  );
  const messages = kind === "json"
    ? [JSON.parse(body)]
    : kind === "events"
    ? decisions.sseData(body).map((data) => JSON.parse(data))
    : [];
  const code = kind === "refused" || kind === "session-ended" ? errorCode(body) : undefined;
  return {
    status: response.status,
    kind,
    messages,
    ...(sessionId ? { sessionId } : {}),
    ...(code === undefined ? {} : { code }),
  };
}

/** The code of the JSON-RPC error `body` holds, if it is one. */
function errorCode(body: string): number | undefined {
  try {
    const code = JSON.parse(body)?.error?.code;
    return Number.isInteger(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

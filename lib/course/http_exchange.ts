/**
 * Lab 04's POST, made with the learner's own decisions: the headers it
 * carries (`postHeaders`), what its response is (`replyKind`), and the data
 * of an event stream (`sseData`). One message out, whatever came back in.
 *
 * @module
 */

import { readBounded } from "../mcp/shared/bounded_body.ts";
import type { JsonObject } from "../mcp/shared/jsonrpc.ts";

/** What a client knows of its session: the id the server issued, and the version agreed. */
export interface SessionState {
  id?: string;
  protocolVersion?: string;
}

/** What a response is, as `replyKind` says. */
export type ReplyKind = "json" | "events" | "accepted" | "session-ended" | "refused";

/** The learner's decisions, as the exchange calls them. */
export interface HttpDecisions {
  postHeaders(session: SessionState): Record<string, string>;
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
}

/** The most bytes a response body may take here. */
const LIMIT = 1 << 20;

/**
 * POST `message` to `url` as the learner's decisions say, and read what
 * comes back.
 *
 * @example
 * ```ts ignore
 * const reply = await postMessage(url, initialize, {}, { postHeaders, replyKind, sseData });
 * // reply.kind === "json", reply.sessionId !== undefined
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
    headers: decisions.postHeaders(session),
    body: JSON.stringify(message),
  });
  const request = typeof message.method === "string" && "id" in message;
  const kind = decisions.replyKind(
    { status: response.status, contentType: response.headers.get("content-type") },
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
  return { status: response.status, kind, messages, ...(sessionId ? { sessionId } : {}) };
}

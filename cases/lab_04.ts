/**
 * Lab 04's visible cases: the notebook's grade tables show them, and the
 * autograder runs them again on the learner's code. The hidden cases are
 * held back: only the instructors' grader has them.
 *
 * The functions are the decisions of a client with many requests in flight
 * (which request a reply answers, which have passed their deadline, which
 * request a progress notification belongs to) and of Streamable HTTP on
 * both sides, in both eras of MCP: a POST's headers (today's, mirrored from
 * the body, or a legacy session's), what a response is, the data of an
 * event stream, what a client does when a response stream breaks (re-issue
 * today's request with a new id, or resume a legacy one), and whether a
 * request's Origin, its headers (today) and its session (legacy) let it go on.
 *
 * @module
 */

import type { GradeCase } from "../lib/grading/grading.ts";
import type { JsonObject, RequestId } from "../lib/mcp/shared/jsonrpc.ts";

/** Lab 04's graded functions. */
export type Lab04Function =
  | "routeReply"
  | "expiredIds"
  | "progressOf"
  | "postHeaders"
  | "replyKind"
  | "sseData"
  | "recoverStream"
  | "originAllowed"
  | "headerCheck"
  | "sessionCheck";

/** A result reply with `id`. */
export function reply(id: RequestId | null, result: JsonObject = {}): JsonObject {
  return { jsonrpc: "2.0", id, result };
}

/** A `notifications/progress` for `token`. */
export function progress(token: unknown, params: JsonObject = {}): JsonObject {
  return {
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progressToken: token, progress: 1, ...params },
  };
}

/** The `_meta` key that names a request's protocol version, from 2026-07-28. */
const VERSION = "io.modelcontextprotocol/protocolVersion";

/**
 * A request of today's protocol (2026-07-28): `method` with `params`, its
 * version (`version`), the client's capabilities and its name in `_meta`,
 * beside what `params._meta` holds already (a progress token).
 */
export function today(
  method: string,
  params: JsonObject = {},
  options: { id?: RequestId; version?: string } = {},
): JsonObject {
  const own = (params._meta ?? {}) as JsonObject;
  return {
    jsonrpc: "2.0",
    id: options.id ?? 1,
    method,
    params: {
      ...params,
      _meta: {
        ...own,
        [VERSION]: options.version ?? "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "lab-04", version: "1.0.0" },
      },
    },
  };
}

/** A request of the handshake era: `method` with `params`, and no version in `_meta`. */
export function legacy(method: string, params: JsonObject = {}, id: RequestId = 1): JsonObject {
  return { jsonrpc: "2.0", id, method, params };
}

/** The headers every POST carries, in both eras. */
export const BASE_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** The headers a request of today carries beside them: its version, its method, and a name. */
export function todayHeaders(method: string, name?: string, version = "2026-07-28") {
  return {
    "mcp-protocol-version": version,
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name }),
  };
}

/** The HeaderMismatch error's code: a POST's headers disagree with its body. */
export const HEADER_MISMATCH = -32020;
/** The UnsupportedProtocolVersion error's code: the server does not speak the request's version. */
export const UNSUPPORTED_VERSION = -32022;
/** The versions a server of today's protocol speaks, in its cases. */
export const SPOKEN = ["2026-07-28"];

const refused = { throws: "ProtocolError" };
const LOCAL = ["http://127.0.0.1:8080", "http://localhost:8080"];

/** Lab 04's visible cases, by the graded function's name. */
export const CASES: Readonly<Record<Lab04Function, readonly GradeCase[]>> = {
  routeReply: [
    {
      label: "a reply goes to the request in flight with its id, whatever the order",
      args: [reply(3), [1, 2, 3], []],
      expected: 3,
    },
    {
      label: "a string id is matched exactly",
      args: [reply("b"), ["a", "b"], []],
      expected: "b",
    },
    {
      label: 'the string "2" does not answer request 2',
      args: [reply("2"), [1, 2], []],
      expected: refused,
    },
    {
      label: "a second reply to a request already answered is refused",
      args: [reply(1), [2], []],
      expected: refused,
    },
    {
      label: "a late reply to a cancelled request is dropped (null)",
      args: [reply(4), [5], [4]],
      expected: null,
    },
    {
      label: "an error reply with id null answers no request",
      args: [
        { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
        [1],
        [],
      ],
      expected: refused,
    },
  ],
  expiredIds: [
    {
      label: "nothing has expired before its deadline",
      args: [[{ id: 1, deadline: 100 }, { id: 2, deadline: 200 }], 50],
      expected: [],
    },
    {
      label: "a request whose deadline has passed has expired",
      args: [[{ id: 1, deadline: 100 }, { id: 2, deadline: 200 }], 150],
      expected: [1],
    },
    {
      label: "a deadline reached exactly has passed",
      args: [[{ id: 7, deadline: 100 }], 100],
      expected: [7],
    },
    {
      label: "earliest deadline first, whatever order they were sent in",
      args: [
        [{ id: "c", deadline: 300 }, { id: "a", deadline: 100 }, { id: "b", deadline: 200 }],
        400,
      ],
      expected: ["a", "b", "c"],
    },
    { label: "nothing in flight, nothing expired", args: [[], 1000], expected: [] },
  ],
  progressOf: [
    {
      label: "progress for a token in flight belongs to its request",
      args: [progress("t1", { progress: 2, total: 4, message: "half" }), [["t1", 7]]],
      expected: { request: 7, progress: 2, total: 4, message: "half" },
    },
    {
      label: "total and message are null when the server leaves them out",
      args: [progress(3, { progress: 1 }), [[3, 3]]],
      expected: { request: 3, progress: 1, total: null, message: null },
    },
    {
      label: "a token no request in flight holds belongs to none (null)",
      args: [progress("old", {}), [["t1", 7]]],
      expected: null,
    },
    {
      label: 'the token "3" is not the token 3',
      args: [progress("3", {}), [[3, 3]]],
      expected: null,
    },
    {
      label: "another notification is not progress (null)",
      args: [{ jsonrpc: "2.0", method: "notifications/message", params: { level: "info" } }, [[
        1,
        1,
      ]]],
      expected: null,
    },
    {
      label: "a log notification that carries a progressToken is still not progress",
      args: [{
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { progressToken: "t1", progress: 1, level: "info" },
      }, [["t1", 7]]],
      expected: null,
    },
    {
      label: "progress that is not a number is refused",
      args: [progress("t1", { progress: "half" }), [["t1", 7]]],
      expected: refused,
    },
  ],
  postHeaders: [
    {
      label: "today (2026-07-28): the version, the method and the tool, mirrored from the body",
      args: [today("tools/call", { name: "get_weather", arguments: { city: "Lima" } }), {}],
      expected: { ...BASE_HEADERS, ...todayHeaders("tools/call", "get_weather") },
    },
    {
      label: "today: a resource is named by its uri",
      args: [today("resources/read", { uri: "file:///notes.txt" }), {}],
      expected: { ...BASE_HEADERS, ...todayHeaders("resources/read", "file:///notes.txt") },
    },
    {
      label: "today: a request that names nothing carries no Mcp-Name",
      args: [today("tools/list"), {}],
      expected: { ...BASE_HEADERS, ...todayHeaders("tools/list") },
    },
    {
      label: "today: no session id, and the version of the body, whatever the client holds",
      args: [today("tools/call", { name: "get_weather" }), {
        id: "3f1c",
        protocolVersion: "2025-11-25",
      }],
      expected: { ...BASE_HEADERS, ...todayHeaders("tools/call", "get_weather") },
    },
    {
      label: "legacy, before the handshake: JSON in, JSON or events out",
      args: [legacy("initialize", { protocolVersion: "2025-11-25" }), {}],
      expected: BASE_HEADERS,
    },
    {
      label: "legacy, in a session: the session and the protocol version agreed",
      args: [legacy("tools/call", { name: "get_weather" }), {
        id: "3f1c",
        protocolVersion: "2025-06-18",
      }],
      expected: {
        ...BASE_HEADERS,
        "mcp-session-id": "3f1c",
        "mcp-protocol-version": "2025-06-18",
      },
    },
    {
      label: "legacy, a server that issued no session: the version alone",
      args: [legacy("ping"), { protocolVersion: "2025-06-18" }],
      expected: { ...BASE_HEADERS, "mcp-protocol-version": "2025-06-18" },
    },
  ],
  replyKind: [
    {
      label: "a request answered with JSON",
      args: [{ status: 200, contentType: "application/json" }, { request: true, session: true }],
      expected: "json",
    },
    {
      label: "a request answered with an event stream (a charset does not matter)",
      args: [
        { status: 200, contentType: "text/event-stream; charset=utf-8" },
        { request: true, session: true },
      ],
      expected: "events",
    },
    {
      label: "a notification accepted: 202, no body",
      args: [{ status: 202, contentType: null }, { request: false, session: true }],
      expected: "accepted",
    },
    {
      label: "404 for a session the client named: the session has ended",
      args: [{ status: 404, contentType: "application/json" }, { request: true, session: true }],
      expected: "session-ended",
    },
    {
      label: "404 with no session named is only a refusal",
      args: [{ status: 404, contentType: "text/html" }, { request: true, session: false }],
      expected: "refused",
    },
    {
      label: "403 (another Origin) is a refusal",
      args: [{ status: 403, contentType: "application/json" }, { request: true, session: true }],
      expected: "refused",
    },
    {
      label: "a request answered with a web page is a refusal",
      args: [{ status: 200, contentType: "text/html" }, { request: true, session: false }],
      expected: "refused",
    },
  ],
  sseData: [
    { label: "one event", args: ['data: {"id":1}\n\n'], expected: ['{"id":1}'] },
    {
      label: "two events, an id and a comment among them",
      args: [": keep-alive\nid: s:0\ndata: one\n\nevent: message\ndata: two\n\n"],
      expected: ["one", "two"],
    },
    {
      label: "an event's data lines are joined by newlines",
      args: ["data: a\ndata: b\n\n"],
      expected: ["a\nb"],
    },
    {
      label: "an event not ended by a blank line has not arrived yet",
      args: ["data: one\n\ndata: two\n"],
      expected: ["one"],
    },
    {
      label: "lines may end with CRLF",
      args: ["data: one\r\n\r\n"],
      expected: ["one"],
    },
    {
      label: "the one space after the colon is not data; no space is fine too",
      args: ["data:  two spaces\n\ndata:none\n\n"],
      expected: [" two spaces", "none"],
    },
  ],
  recoverStream: [
    {
      label: "today: the request is re-issued as it was, with the new id",
      args: [today("tools/call", { name: "count_slowly", arguments: {} }, { id: 2 }), null, 3],
      expected: {
        reissue: today("tools/call", { name: "count_slowly", arguments: {} }, { id: 3 }),
      },
    },
    {
      label: "today: never resumed, even when its stream named an event id",
      args: [today("tools/list", {}, { id: 5 }), "p0:1", 6],
      expected: { reissue: today("tools/list", {}, { id: 6 }) },
    },
    {
      label: "legacy: the stream is resumed from the last event read",
      args: [legacy("tools/call", { name: "count_slowly" }, 2), "p0:1", 3],
      expected: { resume: "p0:1" },
    },
    {
      label: "legacy: a stream that named no event id cannot be resumed (null)",
      args: [legacy("tools/call", { name: "count_slowly" }, 2), null, 3],
      expected: null,
    },
    {
      label: 'legacy: an empty id field reset the last event id: none to resume ("")',
      args: [legacy("tools/call", { name: "count_slowly" }, 2), "", 3],
      expected: null,
    },
  ],
  originAllowed: [
    { label: "no Origin: not a browser, allowed", args: [null, LOCAL], expected: true },
    { label: "the server's own origin", args: ["http://127.0.0.1:8080", LOCAL], expected: true },
    {
      label: "a page elsewhere (DNS rebinding) is refused",
      args: ["http://rebind.example", LOCAL],
      expected: false,
    },
    {
      label: "an origin that only starts like an allowed one is refused",
      args: ["http://127.0.0.1:8080.rebind.example", LOCAL],
      expected: false,
    },
    {
      label: 'the origin "null" (a sandboxed page) is refused',
      args: ["null", LOCAL],
      expected: false,
    },
  ],
  headerCheck: [
    {
      label: "headers that mirror the body: the request goes on (null)",
      args: [
        todayHeaders("tools/call", "get_weather"),
        today("tools/call", { name: "get_weather" }),
        SPOKEN,
      ],
      expected: null,
    },
    {
      label: "Mcp-Name names another tool than the body: HeaderMismatch",
      args: [
        todayHeaders("tools/call", "delete_all"),
        today("tools/call", { name: "get_weather" }),
        SPOKEN,
      ],
      expected: HEADER_MISMATCH,
    },
    {
      label: "MCP-Protocol-Version is not the version in _meta: HeaderMismatch",
      args: [
        todayHeaders("tools/list", undefined, "2099-01-01"),
        today("tools/list"),
        SPOKEN,
      ],
      expected: HEADER_MISMATCH,
    },
    {
      label: "Mcp-Method missing: HeaderMismatch",
      args: [{ "mcp-protocol-version": "2026-07-28" }, today("tools/list"), SPOKEN],
      expected: HEADER_MISMATCH,
    },
    {
      label: "a version the server does not speak, the same in headers and body: unsupported",
      args: [
        todayHeaders("tools/list", undefined, "2099-01-01"),
        today("tools/list", {}, { version: "2099-01-01" }),
        SPOKEN,
      ],
      expected: UNSUPPORTED_VERSION,
    },
    {
      label:
        "headers and body that disagree, at a version not spoken: the mismatch is judged first",
      args: [
        todayHeaders("tools/call", "delete_all", "2099-01-01"),
        today("tools/call", { name: "get_weather" }, { version: "2099-01-01" }),
        SPOKEN,
      ],
      expected: HEADER_MISMATCH,
    },
    {
      label: "a request that names nothing needs no Mcp-Name",
      args: [todayHeaders("server/discover"), today("server/discover"), SPOKEN],
      expected: null,
    },
    {
      label: "a resource is named by its uri",
      args: [
        todayHeaders("resources/read", "file:///notes.txt"),
        today("resources/read", { uri: "file:///notes.txt" }),
        SPOKEN,
      ],
      expected: null,
    },
  ],
  sessionCheck: [
    {
      label: "initialize without a session id starts one",
      args: [{ initialize: true, sessionId: null }, ["s1"]],
      expected: null,
    },
    {
      label: "a request in a session the server holds goes on",
      args: [{ initialize: false, sessionId: "s1" }, ["s1", "s2"]],
      expected: null,
    },
    {
      label: "a request without a session id: 400",
      args: [{ initialize: false, sessionId: null }, ["s1"]],
      expected: 400,
    },
    {
      label: "a forged or expired session id: 404",
      args: [{ initialize: false, sessionId: "forged" }, ["s1"]],
      expected: 404,
    },
    {
      label: "initialize naming a session: 400",
      args: [{ initialize: true, sessionId: "s1" }, ["s1"]],
      expected: 400,
    },
  ],
};

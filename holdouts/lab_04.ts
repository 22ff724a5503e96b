/**
 * Lab 04's hidden cases. Instructors' repository and the autograder package
 * only: the learners' release leaves this folder out.
 *
 * @module
 */

import {
  BASE_HEADERS,
  HEADER_MISMATCH,
  type Lab04Function,
  legacy,
  progress,
  reply,
  SPOKEN,
  today,
  todayHeaders,
  UNSUPPORTED_VERSION,
} from "../cases/lab_04.ts";
import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import type { HiddenCase } from "../tools/grading/spec.ts";
import { decoys } from "./watermark.ts";

const refused = { throws: "ProtocolError" };
/** The `_meta` key that names a request's protocol version, from 2026-07-28. */
const VERSION = "io.modelcontextprotocol/protocolVersion";

/**
 * A hidden case of headerCheck: `headers` against `message`, before a server
 * that speaks `versions` of today's protocol.
 */
function check(
  label: string,
  headers: Record<string, string>,
  message: JsonObject,
  expected: number | null,
  group?: string,
  versions: readonly string[] = SPOKEN,
): HiddenCase {
  return { label, args: [headers, message, versions], expected, ...(group ? { group } : {}) };
}
const LOCAL = ["http://127.0.0.1:8080"];

/**
 * Lab 04's hidden cases, by the graded function's name. Each group tests one
 * rule from both sides: a media type that is JSON beside ones that only hold
 * its name, an allowed origin beside ones that only look like it.
 */
export const HOLDOUTS: Readonly<Record<Lab04Function, readonly HiddenCase[]>> = {
  routeReply: [
    {
      label: "request 0 is a request like any other",
      args: [reply(0), [0, 1], []],
      expected: 0,
      group: "ids, exactly",
    },
    { label: "the empty string is an id too", args: [reply(""), ["", "x"], []], expected: "" },
    {
      label: "an error reply answers the request with its id",
      args: [
        { jsonrpc: "2.0", id: 2, error: { code: -32602, message: "Unknown tool" } },
        [1, 2],
        [],
      ],
      expected: 2,
      group: "in flight",
    },
    {
      label: '1 does not answer the request "1"',
      args: [reply(1), ["1"], []],
      expected: refused,
      group: "ids, exactly",
    },
    {
      label: "a reply when nothing is in flight",
      args: [reply(9), [], []],
      expected: refused,
      group: "in flight",
    },
    // Round 13 of issue 38's red team: "a reply without an id dropped" kept every mark: a reply
    // with no id answers no request, and is a stray like any other.
    {
      label: "a reply with no id at all answers no request",
      args: [{ jsonrpc: "2.0", result: {} }, [1], [2]],
      expected: refused,
      group: "in flight",
    },
    {
      label: "a cancelled id is dropped even among others in flight",
      args: [reply("slow"), ["fast", "other"], ["slow"]],
      expected: null,
    },
  ],
  expiredIds: [
    {
      label: "equal deadlines keep the order they were sent in",
      args: [[{ id: 2, deadline: 50 }, { id: 1, deadline: 50 }, { id: 3, deadline: 10 }], 60],
      expected: [3, 2, 1],
    },
    {
      label: "fractions of a millisecond count",
      args: [[{ id: 1, deadline: 100.5 }, { id: 2, deadline: 100.25 }], 100.3],
      expected: [2],
    },
    {
      label: "string and number ids are kept as they are",
      args: [[{ id: "1", deadline: 1 }, { id: 1, deadline: 2 }], 5],
      expected: ["1", 1],
    },
    // Sorted as text, 1000 comes before 999 (round 11 of issue 38).
    {
      label: "deadlines of three and four digits, earliest first",
      args: [[{ id: "late", deadline: 1000 }, { id: "early", deadline: 999 }], 1000],
      expected: ["early", "late"],
    },
    {
      label: "a deadline of 0 is a deadline, passed at 0",
      args: [[{ id: 5, deadline: 5 }, { id: 0, deadline: 0 }], 0],
      expected: [0],
    },
  ],
  progressOf: [
    {
      label: "progress 0 is progress",
      args: [progress("t", { progress: 0, total: 0 }), [["t", 1]]],
      expected: { request: 1, progress: 0, total: 0, message: null },
      group: "progress 0",
    },
    {
      label: "the token 0 is a token",
      args: [progress(0, { progress: 5 }), [[0, "r"]]],
      expected: { request: "r", progress: 5, total: null, message: null },
    },
    {
      label: "each token finds its own request",
      args: [progress("b", { progress: 9 }), [["a", 1], ["b", 2]]],
      expected: { request: 2, progress: 9, total: null, message: null },
    },
    // total and message are kept only as a number and a string: `?? null`
    // kept what was sent (round 11 of issue 38).
    {
      label: "a total sent as text and a message as a number are neither",
      args: [progress("t", { progress: 1, total: "10", message: 7 }), [["t", 1]]],
      expected: { request: 1, progress: 1, total: null, message: null },
    },
    {
      label: "a reply is not progress",
      args: [reply(1, { progressToken: "t" }), [["t", 1]]],
      expected: null,
      group: "only progress notifications",
    },
    {
      label: "no params at all is not progress for anyone",
      args: [{ jsonrpc: "2.0", method: "notifications/progress" }, [["t", 1]]],
      expected: null,
      group: "only progress notifications",
    },
    {
      label: "a progress notification for the token in flight is progress",
      args: [progress("t", { progress: 3, total: 10 }), [["t", 1]]],
      expected: { request: 1, progress: 3, total: 10, message: null },
      group: "only progress notifications",
    },
    {
      label: "progress may be a fraction",
      args: [progress("t", { progress: 0.25, total: 1 }), [["t", 1]]],
      expected: { request: 1, progress: 0.25, total: 1, message: null },
      group: "a finite number",
    },
    {
      label: "a missing progress value is refused",
      args: [{ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t" } }, [
        ["t", 1],
      ]],
      expected: refused,
      group: "progress 0",
    },
    {
      label: "a number written as text is no progress",
      args: [progress("t", { progress: "2" }), [["t", 1]]],
      expected: refused,
      group: "a finite number",
    },
    {
      label: "progress past its total is still progress",
      args: [progress("t", { progress: 12, total: 10 }), [["t", 1]]],
      expected: { request: 1, progress: 12, total: 10, message: null },
      group: "a finite number",
    },
    {
      label: "NaN is no progress",
      args: [progress("t", { progress: NaN }), [["t", 1]]],
      expected: refused,
      group: "a finite number",
    },
    {
      label: "1e400 in JSON reads as Infinity, which is no progress",
      args: [progress("t", { progress: Infinity, total: Infinity }), [["t", 1]]],
      expected: refused,
      group: "a finite number",
    },
    {
      label: "the request 0 is found like any other",
      args: [progress("t", {}), [["t", 0]]],
      expected: { request: 0, progress: 1, total: null, message: null },
    },
    // Round 13 of issue 38's red team: "negative progress refused" kept every mark.
    {
      label: "a negative progress is a finite number, and progress",
      args: [progress("t", { progress: -1 }), [["t", 1]]],
      expected: { request: 1, progress: -1, total: null, message: null },
    },
    // Round 15 left two readings open, decided since as the lesson now says: a total of 1e400
    // (Infinity once read) is no total anyone sent, so none (the worked way kept it until then);
    // an empty message is the message the server sent ("an empty message taken for none").
    {
      label: "a total of 1e400 in JSON reads as Infinity, which is no total: none",
      args: [progress("t", { progress: 1, total: Infinity }), [["t", 1]]],
      expected: { request: 1, progress: 1, total: null, message: null },
    },
    {
      label: "an empty message is the message the server sent",
      args: [progress("t", { progress: 1, message: "" }), [["t", 1]]],
      expected: { request: 1, progress: 1, total: null, message: "" },
    },
  ],
  postHeaders: [
    {
      label: "legacy: a session without a version yet",
      args: [legacy("ping"), { id: "s" }],
      expected: { ...BASE_HEADERS, "mcp-session-id": "s" },
      group: "legacy: what the session holds",
    },
    {
      label: "legacy: an empty session id and version are sent as the server gave them",
      args: [legacy("ping"), { id: "", protocolVersion: "" }],
      expected: { ...BASE_HEADERS, "mcp-session-id": "", "mcp-protocol-version": "" },
      group: "legacy: what the session holds",
    },
    {
      label: "legacy: a notification in a session carries the session too",
      args: [{ jsonrpc: "2.0", method: "notifications/initialized" }, {
        id: "s",
        protocolVersion: "2025-11-25",
      }],
      expected: {
        ...BASE_HEADERS,
        "mcp-session-id": "s",
        "mcp-protocol-version": "2025-11-25",
      },
      group: "legacy: what the session holds",
    },
    {
      label: "legacy: a tool call carries no Mcp-Method and no Mcp-Name",
      args: [legacy("tools/call", { name: "get_weather" }), { protocolVersion: "2025-11-25" }],
      expected: { ...BASE_HEADERS, "mcp-protocol-version": "2025-11-25" },
      group: "which era",
    },
    {
      label: "a _meta with a progress token and no version is the handshake era's",
      args: [legacy("tools/call", { name: "t", _meta: { progressToken: 1 } }), { id: "s" }],
      expected: { ...BASE_HEADERS, "mcp-session-id": "s" },
      group: "which era",
    },
    {
      label: "initialize's protocolVersion is not a version in _meta",
      args: [legacy("initialize", { protocolVersion: "2026-07-28" }), {}],
      expected: BASE_HEADERS,
      group: "which era",
    },
    // Round 13 of issue 38's red team: "a version that is there, of any type" kept every mark
    // here and in recoverStream: only a string in _meta names today's era.
    {
      label: "a version in _meta written as a number is no version: the handshake era's",
      args: [legacy("tools/list", { _meta: { [VERSION]: 20260728 } }), { id: "s" }],
      expected: { ...BASE_HEADERS, "mcp-session-id": "s" },
      group: "which era",
    },
    {
      label: "today: a prompt is named by its name",
      args: [today("prompts/get", { name: "greeting" }), {}],
      expected: { ...BASE_HEADERS, ...todayHeaders("prompts/get", "greeting") },
      group: "Mcp-Name, from the field the method names by",
    },
    {
      label: "today: a resource whose params also hold a name is named by its uri",
      args: [today("resources/read", { uri: "file:///a.txt", name: "a" }), {}],
      expected: { ...BASE_HEADERS, ...todayHeaders("resources/read", "file:///a.txt") },
      group: "Mcp-Name, from the field the method names by",
    },
    {
      label: "today: a tool whose params also hold a uri is named by its name",
      args: [today("tools/call", { name: "fetch", uri: "https://example.com" }), {}],
      expected: { ...BASE_HEADERS, ...todayHeaders("tools/call", "fetch") },
      group: "Mcp-Name, from the field the method names by",
    },
    {
      label: "today: a method of an extension names nothing, whatever name its params hold",
      args: [today("acme/lookup", { name: "greeting" }), {}],
      expected: { ...BASE_HEADERS, ...todayHeaders("acme/lookup") },
      group: "Mcp-Name, from the field the method names by",
    },
    {
      label: "today: a subscription names nothing, and no session however one is held",
      args: [today("subscriptions/listen", { notifications: { toolsListChanged: true } }), {
        id: "s",
      }],
      expected: { ...BASE_HEADERS, ...todayHeaders("subscriptions/listen") },
      group: "today: from the body alone",
    },
    {
      label: "today: an empty session id held is still no session to send",
      args: [today("server/discover"), { id: "", protocolVersion: "2025-11-25" }],
      expected: { ...BASE_HEADERS, ...todayHeaders("server/discover") },
      group: "today: from the body alone",
    },
    {
      label: "today: a version the client speaks beside 2026-07-28 is mirrored as the body has it",
      args: [today("tools/list", {}, { version: "2027-01-01" }), { protocolVersion: "2026-07-28" }],
      expected: { ...BASE_HEADERS, ...todayHeaders("tools/list", undefined, "2027-01-01") },
      group: "today: from the body alone",
    },
    // Round 13 of issue 38's red team: "an empty name left out" and "a name of any type sent as
    // text" each kept every mark.
    {
      label: "today: an empty tool name is a string, mirrored as it is",
      args: [today("tools/call", { name: "" }), {}],
      expected: { ...BASE_HEADERS, ...todayHeaders("tools/call", "") },
      group: "today: from the body alone",
    },
    {
      label: "today: a tool name that is no string names nothing",
      args: [today("tools/call", { name: 42 }), {}],
      expected: { ...BASE_HEADERS, ...todayHeaders("tools/call") },
      group: "today: from the body alone",
    },
  ],
  replyKind: [
    {
      label: "text/json is not application/json: refused",
      args: [{ status: 200, contentType: "text/json" }, { request: true, session: false }],
      expected: "refused",
      group: "application/json, exactly",
    },
    {
      label: "201 with JSON still answers a request",
      args: [{ status: 201, contentType: "application/json" }, { request: true, session: false }],
      expected: "json",
      group: "a success is 2xx",
    },
    {
      label: "299 is still a success",
      args: [{ status: 299, contentType: "Application/JSON" }, { request: true, session: true }],
      expected: "json",
      group: "a success is 2xx",
    },
    {
      label: "300 is no longer a success",
      args: [{ status: 300, contentType: "application/json" }, { request: true, session: true }],
      expected: "refused",
      group: "a success is 2xx",
    },
    {
      label: "202 for a request brings no reply: a refusal",
      args: [{ status: 202, contentType: null }, { request: true, session: true }],
      expected: "refused",
      group: "202",
    },
    {
      label: "204 for a request brings no reply either",
      args: [{ status: 204, contentType: null }, { request: true, session: false }],
      expected: "refused",
      group: "202",
    },
    {
      label: "202 for a notification outside a session: accepted",
      args: [{ status: 202, contentType: null }, { request: false, session: false }],
      expected: "accepted",
      group: "202",
    },
    {
      label: "a notification answered 200 with a body is accepted all the same",
      args: [{ status: 200, contentType: "application/json" }, { request: false, session: false }],
      expected: "accepted",
      group: "a notification",
    },
    // A notification names the session as a request does: a 404 ends it
    // too (round 11 of issue 38).
    {
      label: "404 for a notification in a session: the session has ended",
      args: [{ status: 404, contentType: null }, { request: false, session: true }],
      expected: "session-ended",
      group: "a notification",
    },
    {
      label: "a notification refused with 400",
      args: [{ status: 400, contentType: "application/json" }, { request: false, session: true }],
      expected: "refused",
      group: "a notification",
    },
    // Round 22 of the red team: "410 Gone ends the session too" kept every mark. Only a 404 to a
    // message that named a session ends it; any other status is a refusal.
    {
      label: "410 for a request in a session: a refusal, only 404 ends a session",
      args: [{ status: 410, contentType: "application/json" }, { request: true, session: true }],
      expected: "refused",
      group: "only 404 ends a session",
    },
    {
      label: "404 for a request in a session: the session has ended",
      args: [{ status: 404, contentType: "application/json" }, { request: true, session: true }],
      expected: "session-ended",
      group: "only 404 ends a session",
    },
    {
      label: "an informational status is no reply",
      args: [{ status: 100, contentType: "application/json" }, { request: true, session: true }],
      expected: "refused",
      group: "a success is 2xx",
    },
    {
      label: "spaces around the media type do not matter",
      args: [
        { status: 200, contentType: " text/event-stream ; charset=utf-8" },
        { request: true, session: true },
      ],
      expected: "events",
      group: "text/event-stream, exactly",
    },
    // "Answer from the content type's last letter and whether it is a
    // request" earned 31 % before.
    {
      label: "text/event-stream with no parameter",
      args: [{ status: 200, contentType: "text/event-stream" }, { request: true, session: false }],
      expected: "events",
      group: "text/event-stream, exactly",
    },
    {
      label: "text/event-streams is another media type",
      args: [{ status: 200, contentType: "text/event-streams" }, { request: true, session: true }],
      expected: "refused",
      group: "text/event-stream, exactly",
    },
    {
      label: "a problem report in JSON's clothing is not JSON-RPC",
      args: [{ status: 200, contentType: "application/problem+json" }, {
        request: true,
        session: true,
      }],
      expected: "refused",
      group: "application/json, exactly",
    },
    {
      label: "application/json-seq holds application/json, and is another media type",
      args: [{ status: 200, contentType: "application/json-seq" }, {
        request: true,
        session: true,
      }],
      expected: "refused",
      group: "application/json, exactly",
    },
    {
      label: "application/json with a charset and no space",
      args: [{ status: 200, contentType: "application/json;charset=utf-8" }, {
        request: true,
        session: false,
      }],
      expected: "json",
      group: "application/json, exactly",
    },
    // Round 15b of issue 38's red team: "only spaces trimmed" kept every mark. The white space
    // HTTP allows around a parameter's ";" (RFC 9110's OWS) is spaces and tabs.
    {
      label: "a tab before the parameters is white space too",
      args: [{ status: 200, contentType: "application/json\t; charset=utf-8" }, {
        request: true,
        session: false,
      }],
      expected: "json",
      group: "application/json, exactly",
    },
    {
      label: "a 500 with an event stream is still refused",
      args: [{ status: 500, contentType: "text/event-stream" }, { request: true, session: true }],
      expected: "refused",
      group: "a success is 2xx",
    },
  ],
  sseData: [
    {
      label: "data that names a tool",
      args: ['data: {"name":"amber_cloud_delta"}\n\ndata: maple_river_stone\n\n'],
      expected: ['{"name":"amber_cloud_delta"}', "maple_river_stone"],
      group: "names of three words",
    },
    {
      label: "an event named as a tool is",
      args: ["event: crisp_lunar_otter\ndata: ok\n\n"],
      expected: ["ok"],
      group: "names of three words",
    },
    // The watermark's twins' look in each of its six settings: a copy that spoils twins by their
    // shape or features (ids of three digits or more, texts, _meta) spoils these too.
    ...decoys("sseData#events", "names of three words"),
    { label: "an empty text completes no event", args: [""], expected: [] },
    { label: "an event with only an id carries no data", args: ["id: 4\n\n"], expected: [] },
    { label: "a line ended by CR alone", args: ["data: one\r\r"], expected: ["one"] },
    {
      label: "a colon inside the data is data",
      args: ['data: {"a":"b:c"}\n\n'],
      expected: ['{"a":"b:c"}'],
    },
    { label: "data with no colon is an empty line of data", args: ["data\n\n"], expected: [""] },
    {
      label: "field names are case-sensitive",
      args: ["Data: no\n\ndata: yes\n\n"],
      expected: ["yes"],
    },
    {
      label: "two data lines, each ended by CRLF, are one event",
      args: ["data: a\r\ndata: b\r\n\r\n"],
      expected: ["a\nb"],
    },
    {
      label: "an event of another type carries its data too",
      args: ["event: other\ndata: x\n\n"],
      expected: ["x"],
    },
    {
      label: "a line that starts with a space names no field",
      args: [" data: x\n\ndata: y\n\n"],
      expected: ["y"],
    },
    // Round 13 of issue 38's red team: "any white space after the colon dropped", "data trimmed
    // at the end" and "U+2028 a line end" each kept every mark.
    { label: "a tab after the colon is data", args: ["data:\tx\n\n"], expected: ["\tx"] },
    { label: "a space at the end of the data is data", args: ["data: a \n\n"], expected: ["a "] },
    {
      label: "U+2028, which JSON.stringify writes as itself, ends no line",
      args: ['data: {"t":"a\u2028b"}\n\n'],
      expected: ['{"t":"a\u2028b"}'],
    },
    // Round 15 of issue 38's red team: "a field known by its start" kept every mark.
    {
      label: "a field that only starts with data is not data",
      args: ["data: a\ndatum: b\n\ndataset: c\n\n"],
      expected: ["a"],
    },
    // Round 15b of issue 38's red team: "a comment line ends the event" kept every mark. A
    // comment (a keep-alive) is ignored: only a blank line ends an event.
    {
      label: "a comment between two data lines leaves them one event",
      args: ["data: a\n: keep-alive\ndata: b\n\n"],
      expected: ["a\nb"],
    },
    // Round 15 left "a leading byte order mark dropped" open. The text is decoded already, and the
    // decoder dropped the stream's one BOM ("The UTF-8 decode algorithm strips one leading UTF-8
    // Byte Order Mark", WHATWG HTML, 9.2.6): a U+FEFF still there is part of the first field's
    // name, as the web platform's own test of a double BOM has it (the first event is not data).
    {
      label: "a U+FEFF left after decoding is part of the first line's field name",
      args: ["\uFEFFdata: 1\n\ndata: 2\n\n"],
      expected: ["2"],
    },
  ],
  recoverStream: [
    {
      label: "today: the new id 0 is an id like any other",
      args: [today("tools/list", {}, { id: 9 }), null, 0],
      expected: { reissue: today("tools/list", {}, { id: 0 }) },
      group: "today: the new id",
    },
    {
      label: "today: a string id is taken as it is",
      args: [today("tools/list", {}, { id: "a-1" }), null, "a-2"],
      expected: { reissue: today("tools/list", {}, { id: "a-2" }) },
      group: "today: the new id",
    },
    {
      label: "today: the arguments and the progress token go again as they were",
      args: [
        today("tools/call", {
          name: "count_slowly",
          arguments: { text: "one two", ms: 100 },
          _meta: { progressToken: "p7" },
        }, { id: 7 }),
        null,
        8,
      ],
      expected: {
        reissue: today("tools/call", {
          name: "count_slowly",
          arguments: { text: "one two", ms: 100 },
          _meta: { progressToken: "p7" },
        }, { id: 8 }),
      },
      group: "today: the same request",
    },
    {
      label: "today: a version other than 2026-07-28 in _meta is today's era too",
      args: [today("tools/list", {}, { id: 1, version: "2027-01-01" }), "e1", 2],
      expected: { reissue: today("tools/list", {}, { id: 2, version: "2027-01-01" }) },
      group: "today: the same request",
    },
    {
      label: "legacy: a _meta with only a progress token is the handshake era's",
      args: [legacy("tools/call", { name: "t", _meta: { progressToken: 1 } }, 4), "get0:3", 5],
      expected: { resume: "get0:3" },
      group: "legacy: resumed, or lost",
    },
    {
      label: "legacy: a version in _meta written as a number is no version",
      args: [legacy("tools/list", { _meta: { [VERSION]: 20260728 } }, 4), "get0:3", 5],
      expected: { resume: "get0:3" },
      group: "legacy: resumed, or lost",
    },
    {
      label: "legacy: the event id is sent back as it came",
      args: [legacy("ping", {}, "x"), " 7 ", "y"],
      expected: { resume: " 7 " },
      group: "legacy: resumed, or lost",
    },
    {
      label: "legacy: no event id, whatever the next id",
      args: [legacy("ping", {}, 0), null, 1],
      expected: null,
      group: "legacy: resumed, or lost",
    },
    {
      label: "legacy: an empty event id is none, with a string for the next id too",
      args: [legacy("ping", {}, "x"), "", "y"],
      expected: null,
      group: "legacy: resumed, or lost",
    },
    // Round 13 of issue 38's red team: "a whitespace event id taken for none" and "a numeric event
    // id string turned into a number" each kept every mark.
    {
      label: "legacy: an event id of one space is an id",
      args: [legacy("ping", {}, 1), " ", 2],
      expected: { resume: " " },
      group: "legacy: resumed, or lost",
    },
    {
      label: "legacy: an event id of digits stays text",
      args: [legacy("ping", {}, 1), "42", 2],
      expected: { resume: "42" },
      group: "legacy: resumed, or lost",
    },
  ],
  originAllowed: [
    {
      label: "letter case is not ignored",
      args: ["HTTP://127.0.0.1:8080", LOCAL],
      expected: false,
      group: "an allowed origin, exactly",
    },
    {
      label: "a trailing slash is another origin",
      args: ["http://127.0.0.1:8080/", LOCAL],
      expected: false,
      group: "an allowed origin, exactly",
    },
    {
      label: "a dot of an allowed origin is a dot",
      args: ["http://127a0b0c1:8080", LOCAL],
      expected: false,
      group: "an allowed origin, exactly",
    },
    {
      label: "the second of two allowed origins",
      args: ["http://localhost:8080", [...LOCAL, "http://localhost:8080"]],
      expected: true,
      group: "an allowed origin, exactly",
    },
    // Round 13 of issue 38's red team: "origin trimmed", "http and https the same" and "origin
    // compared without its port" each kept every mark.
    {
      label: "a space after an allowed origin makes another",
      args: ["http://127.0.0.1:8080 ", LOCAL],
      expected: false,
      group: "an allowed origin, exactly",
    },
    {
      label: "https is another origin than http",
      args: ["https://127.0.0.1:8080", LOCAL],
      expected: false,
      group: "an allowed origin, exactly",
    },
    {
      label: "another port is another origin",
      args: ["http://127.0.0.1:8081", LOCAL],
      expected: false,
      group: "an allowed origin, exactly",
    },
    // Round 22 of the red team: a "*" in the list read as CORS's wildcard, a subdomain of an
    // allowed origin let in, and a default port (:80, :443) dropped each kept every mark.
    {
      label: "a * in the list is an origin no page has, not a wildcard",
      args: ["https://evil.example", ["*"]],
      expected: false,
      group: "an allowed origin, exactly",
    },
    {
      label: "a subdomain of an allowed origin is another origin",
      args: ["http://evil.localhost:8080", ["http://localhost:8080"]],
      expected: false,
      group: "an allowed origin, exactly",
    },
    {
      label: "an origin that names http's default port is not the one that leaves it out",
      args: ["http://localhost:80", ["http://localhost"]],
      expected: false,
      group: "an allowed origin, exactly",
    },
    {
      label: "nothing allowed, no Origin: allowed",
      args: [null, []],
      expected: true,
      group: "an Origin, or none",
    },
    {
      label: "nothing allowed, an Origin: refused",
      args: ["http://127.0.0.1:8080", []],
      expected: false,
      group: "an Origin, or none",
    },
    {
      label: "an allowed Origin among others",
      args: ["https://app.example", [...LOCAL, "https://app.example"]],
      expected: true,
      group: "an Origin, or none",
    },
    {
      label: "an empty Origin is an Origin, and not an allowed one",
      args: ["", LOCAL],
      expected: false,
      group: "an Origin, or none",
    },
  ],
  headerCheck: [
    check(
      "header values are compared exactly: Tools/Call is not tools/call",
      { ...todayHeaders("tools/call", "get_weather"), "mcp-method": "Tools/Call" },
      today("tools/call", { name: "get_weather" }),
      HEADER_MISMATCH,
      "values, exactly",
    ),
    check(
      "a tool's name in other letters' case is another name",
      todayHeaders("tools/call", "Get_Weather"),
      today("tools/call", { name: "get_weather" }),
      HEADER_MISMATCH,
      "values, exactly",
    ),
    check(
      "a name with capitals and a dot, exactly as the body has it, goes on",
      todayHeaders("tools/call", "Weather.Now"),
      today("tools/call", { name: "Weather.Now" }),
      null,
      "values, exactly",
    ),
    // Round 13 of issue 38's red team: "header values trimmed" kept every mark.
    check(
      "a space after the tool's name in Mcp-Name is another name",
      todayHeaders("tools/call", "get_weather "),
      today("tools/call", { name: "get_weather" }),
      HEADER_MISMATCH,
      "values, exactly",
    ),
    // Round 13: "Mcp-Name compared loosely" kept every mark: a header is text, and a name the
    // body gives as a number is no text it can equal.
    check(
      "a tool named by the number 42 is not named by the text 42",
      todayHeaders("tools/call", "42"),
      today("tools/call", { name: 42 }),
      HEADER_MISMATCH,
      "values, exactly",
    ),
    // A name in other letters' case without an underscore: "a mismatch where
    // Mcp-Name holds an underscore or is empty, else on" earned 24 % before.
    check(
      "weather.now in other letters' case is not Weather.Now",
      todayHeaders("tools/call", "weather.now"),
      today("tools/call", { name: "Weather.Now" }),
      HEADER_MISMATCH,
      "values, exactly",
    ),
    check(
      "an empty Mcp-Name is not the tool's name",
      todayHeaders("tools/call", ""),
      today("tools/call", { name: "get_weather" }),
      HEADER_MISMATCH,
      "values, exactly",
    ),
    check(
      "a tool call without Mcp-Name",
      todayHeaders("tools/call"),
      today("tools/call", { name: "get_weather" }),
      HEADER_MISMATCH,
      "each header the body calls for",
    ),
    check(
      "MCP-Protocol-Version missing",
      { "mcp-method": "tools/call", "mcp-name": "get_weather" },
      today("tools/call", { name: "get_weather" }),
      HEADER_MISMATCH,
      "each header the body calls for",
    ),
    check(
      "a prompt named by its name goes on",
      todayHeaders("prompts/get", "greeting"),
      today("prompts/get", { name: "greeting" }),
      null,
      "each header the body calls for",
    ),
    check(
      "a prompt named by another name",
      todayHeaders("prompts/get", "farewell"),
      today("prompts/get", { name: "greeting" }),
      HEADER_MISMATCH,
      "each header the body calls for",
    ),
    check(
      "a method that names nothing goes on, whatever Mcp-Name it carries",
      todayHeaders("acme/lookup", "anything"),
      today("acme/lookup", { name: "greeting" }),
      null,
      "Mcp-Name, from the field the method names by",
    ),
    check(
      "a resource named by another uri",
      todayHeaders("resources/read", "file:///b.txt"),
      today("resources/read", { uri: "file:///a.txt" }),
      HEADER_MISMATCH,
      "Mcp-Name, from the field the method names by",
    ),
    check(
      "a resource whose params hold a name beside its uri is named by the uri",
      todayHeaders("resources/read", "file:///a.txt"),
      today("resources/read", { uri: "file:///a.txt", name: "a" }),
      null,
      "Mcp-Name, from the field the method names by",
    ),
    check(
      "a header version the server speaks, a body version it does not: a mismatch",
      todayHeaders("tools/list"),
      today("tools/list", {}, { version: "2099-01-01" }),
      HEADER_MISMATCH,
      "a mismatch first",
    ),
    check(
      "a prompt of 2099-01-01, its every header alike: the version is judged",
      todayHeaders("prompts/get", "greeting", "2099-01-01"),
      today("prompts/get", { name: "greeting" }, { version: "2099-01-01" }),
      UNSUPPORTED_VERSION,
      "a mismatch first",
    ),
    check(
      "a legacy version named in _meta is no version of today's server",
      todayHeaders("tools/list", undefined, "2025-11-25"),
      today("tools/list", {}, { version: "2025-11-25" }),
      UNSUPPORTED_VERSION,
      "the versions the server speaks",
    ),
    check(
      "the second of two versions the server speaks goes on",
      todayHeaders("tools/list", undefined, "2027-01-01"),
      today("tools/list", {}, { version: "2027-01-01" }),
      null,
      "the versions the server speaks",
      ["2026-07-28", "2027-01-01"],
    ),
    check(
      "a server that speaks no version of today refuses every one",
      todayHeaders("tools/list"),
      today("tools/list"),
      UNSUPPORTED_VERSION,
      "the versions the server speaks",
      [],
    ),
    check(
      "a session id beside right headers is ignored at 2026-07-28",
      { ...todayHeaders("tools/list"), "mcp-session-id": "forged" },
      today("tools/list"),
      null,
    ),
  ],
  sessionCheck: [
    {
      label: "an empty session id is no valid id, so no session the server holds: 404",
      args: [{ initialize: false, sessionId: "" }, ["s1"]],
      expected: 404,
      group: "an empty session id",
    },
    {
      label: "initialize naming even an empty session id: 400",
      args: [{ initialize: true, sessionId: "" }, []],
      expected: 400,
      group: "an empty session id",
    },
    {
      label: "an id of one character is an id",
      args: [{ initialize: false, sessionId: "x" }, ["x"]],
      expected: null,
      group: "an empty session id",
    },
    {
      label: "initialize without a session id while the server holds none starts one",
      args: [{ initialize: true, sessionId: null }, []],
      expected: null,
      group: "an empty session id",
    },
    {
      label: "a server that holds no session knows none",
      args: [{ initialize: false, sessionId: "s1" }, []],
      expected: 404,
      group: "a server that holds no session",
    },
    {
      label: "a server that holds one session knows it",
      args: [{ initialize: false, sessionId: "s1" }, ["s1"]],
      expected: null,
      group: "a server that holds no session",
    },
    {
      label: "a request without a session while the server holds none: 400",
      args: [{ initialize: false, sessionId: null }, []],
      expected: 400,
      group: "a server that holds no session",
    },
    // initialize decides these two groups too: "404 unless the id is held,
    // initialize unread" earned 60 % of these marks before.
    {
      label: "initialize naming a session while the server holds none: 400",
      args: [{ initialize: true, sessionId: "s1" }, []],
      expected: 400,
      group: "a server that holds no session",
    },
    {
      label: "a session id in other letters' case is another session: 404",
      args: [{ initialize: false, sessionId: "S1" }, ["s1"]],
      expected: 404,
      group: "a session id, exactly",
    },
    {
      label: "a session id with a space around it is another session: 404",
      args: [{ initialize: false, sessionId: "s1 " }, ["s1"]],
      expected: 404,
      group: "a session id, exactly",
    },
    {
      label: "the second of two sessions the server holds goes on",
      args: [{ initialize: false, sessionId: "s2" }, ["s1", "s2"]],
      expected: null,
      group: "a session id, exactly",
    },
    {
      label: "initialize naming exactly a session the server holds: 400",
      args: [{ initialize: true, sessionId: "s2" }, ["s1", "s2"]],
      expected: 400,
      group: "a session id, exactly",
    },
  ],
};

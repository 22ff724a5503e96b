/**
 * Lab 02's hidden cases: of correlate and unwrap; of the client's layers,
 * more misbehaving servers; of the named tests, more faulty clients a good
 * test must fail. Instructors' repository and the autograder package only:
 * the learners' release leaves this folder out.
 *
 * @module
 */

import {
  BOTH_ERAS,
  catches,
  type ClientLayer,
  type NamedTestName,
  scenario,
} from "../cases/lab_02_client.ts";
import { discovered, failed, LAB_VERSIONS, speak, unsupported } from "../cases/lab_02.ts";
import type { GradeCase } from "../lib/grading/grading.ts";
import type { HiddenCase } from "../tools/grading/spec.ts";
import { decoys } from "./watermark.ts";

const refused = { throws: "ProtocolError" };

/** A client of the handshake's last three versions beside today's. */
const THREE = ["2026-07-28", "2025-11-25", "2025-06-18"];
/** A client of every version the library speaks. */
const EVERY = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/** A client of today's version only: it has no handshake to fall back to. */
const MODERN_ONLY = ["2026-07-28"];
/** A client of an older handshake beside today's. */
const OLDER = ["2026-07-28", "2025-03-26"];
/** A client of a later revision (a made-up one, 2027-01-01) beside today's and a handshake. */
const LATER = ["2027-01-01", "2026-07-28", "2025-06-18"];

/** `testCase` as one of the group `group`, which earns its marks together. */
const grouped = (group: string, testCase: GradeCase): HiddenCase => ({ ...testCase, group });

/** The hidden cases of eraOf: other clients' versions, other answers. */
const ERA_HOLDOUTS: readonly HiddenCase[] = [
  {
    label: "UnsupportedProtocolVersionError: from its list, not the client's newest handshake",
    args: [unsupported(["2025-06-18", "2024-11-05"]), THREE],
    expected: speak("legacy", "2025-06-18"),
  },
  {
    label: "-32601 to a client of three versions: the newest handshake it speaks",
    args: [failed(-32601, "Method not found"), THREE],
    expected: speak("legacy", "2025-11-25"),
  },
  {
    label: "a result that is no DiscoverResult: a legacy server",
    args: [{ result: { ok: true } }, OLDER],
    expected: speak("legacy", "2025-03-26"),
  },
  {
    label: "supportedVersions that is not a list: no DiscoverResult",
    args: [{ result: { supportedVersions: "2026-07-28", capabilities: {} } }, EVERY],
    expected: speak("legacy", "2025-11-25"),
  },
  {
    label: "supportedVersions without capabilities: no DiscoverResult",
    args: [{ result: { supportedVersions: ["2026-07-28"] } }, LAB_VERSIONS],
    expected: speak("legacy", "2025-06-18"),
  },
  {
    label: "-32000, server not initialized: a legacy server",
    args: [failed(-32000, "Server not initialized"), OLDER],
    expected: speak("legacy", "2025-03-26"),
  },
  {
    label: "a legacy server, and a client with no handshake: refused",
    args: [failed(-32601, "Method not found"), MODERN_ONLY],
    expected: refused,
  },
  {
    label: "silence, and a client with no handshake: refused",
    args: [{ silence: true }, MODERN_ONLY],
    expected: refused,
  },
  {
    label: "UnsupportedProtocolVersionError naming only 2024-11-05: refused",
    args: [unsupported(["2024-11-05"]), LAB_VERSIONS],
    expected: refused,
  },
  {
    label: "a later client refused its version: today's, from the list, and no handshake",
    args: [unsupported(["2026-07-28", "2025-06-18"], "2027-01-01"), LATER],
    expected: speak("modern", "2026-07-28"),
  },
  {
    label: "a later client and a server of both: the newest both speak",
    args: [discovered(["2026-07-28", "2027-01-01"]), LATER],
    expected: speak("modern", "2027-01-01"),
  },
  {
    label: "a DiscoverResult whose one shared version is a handshake's: the handshake",
    args: [discovered([42, null, "2025-06-18"]), LAB_VERSIONS],
    expected: speak("legacy", "2025-06-18"),
  },
  {
    label: "silence to a client of every version: the newest handshake",
    args: [{ silence: true }, EVERY],
    expected: speak("legacy", "2025-11-25"),
  },
  {
    label: "a supported list on another code names nothing: a legacy server",
    args: [failed(-32601, "Method not found", { supported: ["2026-07-28"] }), THREE],
    expected: speak("legacy", "2025-11-25"),
  },
  {
    label: "a DiscoverResult with no tools is still modern: what it offers is connect's to judge",
    args: [discovered(["2026-07-28"], {}), THREE],
    expected: speak("modern", "2026-07-28"),
  },
  {
    label: "UnsupportedProtocolVersionError that lists the version asked: it is in the list",
    args: [unsupported(["2026-07-28", "2025-06-18"]), LAB_VERSIONS],
    expected: speak("modern", "2026-07-28"),
  },
  {
    label: "a DiscoverResult of two old handshakes: the newer, through the handshake",
    args: [discovered(["2024-11-05", "2025-03-26"]), EVERY],
    expected: speak("legacy", "2025-03-26"),
  },
  {
    label: "UnsupportedProtocolVersionError with an empty list: refused",
    args: [unsupported([]), EVERY],
    expected: refused,
  },
  {
    label: "today's version among the old ones of a DiscoverResult",
    args: [discovered(["2024-11-05", "2026-07-28"]), EVERY],
    expected: speak("modern", "2026-07-28"),
  },
  {
    label: "-32022 with no data names no versions: no recognized modern error, a legacy server",
    args: [failed(-32022, "Unsupported protocol version"), LAB_VERSIONS],
    expected: speak("legacy", "2025-06-18"),
  },
  {
    label: "-32022 whose supported is not a list names no versions either",
    args: [unsupported("2026-07-28"), ["2026-07-28", "2024-11-05"]],
    expected: speak("legacy", "2024-11-05"),
  },
  {
    label: "UnsupportedProtocolVersionError for an old client's handshake list",
    args: [unsupported(["2025-03-26", "2024-11-05"]), OLDER],
    expected: speak("legacy", "2025-03-26"),
  },
  // Either kind of answer that names versions names either era: a guess
  // from the answer's kind alone (a result is today's, an error a legacy
  // server's) earned 23 % of these marks before this group.
  grouped("the versions named decide the era, not the answer's kind", {
    label: "a DiscoverResult that shares only a handshake's version: the handshake",
    args: [discovered(["2025-06-18", "2025-03-26"]), LAB_VERSIONS],
    expected: speak("legacy", "2025-06-18"),
  }),
  grouped("the versions named decide the era, not the answer's kind", {
    label: "a DiscoverResult that shares today's version: today's",
    args: [discovered(["2026-07-28", "2025-03-26"]), LAB_VERSIONS],
    expected: speak("modern", "2026-07-28"),
  }),
  grouped("the versions named decide the era, not the answer's kind", {
    label: "UnsupportedProtocolVersionError that lists today's version after another: today's",
    args: [unsupported(["2025-03-26", "2026-07-28"]), LAB_VERSIONS],
    expected: speak("modern", "2026-07-28"),
  }),
  grouped("the versions named decide the era, not the answer's kind", {
    label: "UnsupportedProtocolVersionError that lists only the handshake's: the handshake",
    args: [unsupported(["2025-06-18"]), LAB_VERSIONS],
    expected: speak("legacy", "2025-06-18"),
  }),
  // Round 13 of issue 38's red team: "the code compared loosely", "capabilities that are a list
  // taken for an object" and "the server's versions trimmed" each kept every mark.
  grouped("a code, exactly", {
    label: "-32022 written as text is no recognized modern error: the newest handshake",
    args: [
      { error: { code: "-32022", message: "Unsupported", data: { supported: ["2025-06-18"] } } },
      THREE,
    ],
    expected: speak("legacy", "2025-11-25"),
  }),
  grouped("a code, exactly", {
    label: "-32022 as a number: the version from its list",
    args: [unsupported(["2025-06-18"]), THREE],
    expected: speak("legacy", "2025-06-18"),
  }),
  grouped("capabilities, an object", {
    label: "capabilities that are a list: no DiscoverResult, a legacy server",
    args: [discovered(["2026-07-28"], ["tools"]), LAB_VERSIONS],
    expected: speak("legacy", "2025-06-18"),
  }),
  grouped("capabilities, an object", {
    label: "capabilities that are an object: today's",
    args: [discovered(["2026-07-28"], { tools: {} }), LAB_VERSIONS],
    expected: speak("modern", "2026-07-28"),
  }),
  grouped("versions, exactly", {
    label: "a version with a space after it is no version the client speaks",
    args: [discovered(["2026-07-28 ", "2025-06-18"]), LAB_VERSIONS],
    expected: speak("legacy", "2025-06-18"),
  }),
  grouped("versions, exactly", {
    label: "the same versions written exactly: today's",
    args: [discovered(["2026-07-28", "2025-06-18"]), LAB_VERSIONS],
    expected: speak("modern", "2026-07-28"),
  }),
  // Round 13: "an empty list of versions taken for no DiscoverResult" kept every mark.
  grouped("a DiscoverResult's list, even empty", {
    label: "a DiscoverResult that names no version shares none: refused, no fall back",
    args: [discovered([]), LAB_VERSIONS],
    expected: refused,
  }),
  grouped("a DiscoverResult's list, even empty", {
    label: "a DiscoverResult that names today's version alone: today's",
    args: [discovered(["2026-07-28"]), LAB_VERSIONS],
    expected: speak("modern", "2026-07-28"),
  }),
];

/** The hidden cases of correlate, unwrap and eraOf. */
const FUNCTION_HOLDOUTS: Readonly<
  Record<"correlate" | "unwrap" | "eraOf", readonly HiddenCase[]>
> = {
  eraOf: ERA_HOLDOUTS,
  correlate: [
    {
      label: "an id named as a tool is",
      args: ["amber_cloud_delta", { jsonrpc: "2.0", id: "amber_cloud_delta", result: {} }],
      expected: {},
      group: "names of three words",
    },
    {
      label: "a result that names a tool",
      args: [7, { jsonrpc: "2.0", id: 7, result: { tool: "maple_river_stone" } }],
      expected: { tool: "maple_river_stone" },
      group: "names of three words",
    },
    // The watermark's twins' look in each of its settings: a copy that spoils twins by their
    // shape or features (more than one text, a _meta, ids of three digits or more) spoils these.
    ...decoys("reply#id", "names of three words"),
    ...decoys("reply#text", "names of three words"),
    {
      label: "id 0 answers request 0",
      args: [0, { jsonrpc: "2.0", id: 0, result: {} }],
      expected: {},
      group: "id 0",
    },
    {
      label: 'id 0 does not answer request "0"',
      args: ["0", { jsonrpc: "2.0", id: 0, result: {} }],
      expected: refused,
      group: "id 0",
    },
    {
      label: "an error reply for another id",
      args: [5, { jsonrpc: "2.0", id: 4, error: { code: -32601, message: "Method not found" } }],
      // Refused for its id: the server's code belongs to another request.
      expected: { throws: "ProtocolError", with: { code: undefined } },
      group: "another request's reply",
    },
    {
      label: "the result for request 5",
      args: [5, { jsonrpc: "2.0", id: 5, result: { verb: "went" } }],
      expected: { verb: "went" },
      group: "another request's reply",
    },
    {
      label: "an error reply keeps its data",
      args: [6, {
        jsonrpc: "2.0",
        id: 6,
        error: { code: -32000, message: "busy", data: { retry: 1 } },
      }],
      expected: { throws: "ProtocolError", with: { code: -32000, data: { retry: 1 } } },
    },
    // Round 13 of issue 38's red team: "falsy data left out" kept every mark.
    {
      label: "an error reply keeps its data, an empty string too",
      args: [6, { jsonrpc: "2.0", id: 6, error: { code: -32000, message: "busy", data: "" } }],
      expected: { throws: "ProtocolError", with: { code: -32000, data: "" } },
    },
    {
      label: "a result for request 1 answers it",
      args: [1, { jsonrpc: "2.0", id: 1, result: {} }],
      expected: {},
      group: "id null",
    },
    {
      label: "a result with id null answers no request",
      args: [1, { jsonrpc: "2.0", id: null, result: {} }],
      expected: refused,
      group: "id null",
    },
    {
      label: "a result for request 2 answers it",
      args: [2, { jsonrpc: "2.0", id: 2, result: { n: 2 } }],
      expected: { n: 2 },
      group: "no id",
    },
    {
      label: "a reply with no id at all answers no request",
      args: [2, { jsonrpc: "2.0", result: {} }],
      expected: refused,
      group: "no id",
    },
    {
      label: "string ids that differ only in their letters' case",
      args: ["req-7", { jsonrpc: "2.0", id: "REQ-7", result: {} }],
      expected: refused,
      group: "letters' case",
    },
    {
      label: "an upper-case string id, matched exactly",
      args: ["REQ-7", { jsonrpc: "2.0", id: "REQ-7", result: {} }],
      expected: {},
      group: "letters' case",
    },
    {
      label: "an error with code 0 is still an error",
      args: [7, { jsonrpc: "2.0", id: 7, error: { code: 0, message: "zero" } }],
      expected: { throws: "ProtocolError", with: { code: 0 } },
    },
    // Round 13 of issue 38's red team: "the result read first" kept every mark: a reply with an
    // error member is refused, whatever else it holds.
    {
      label: "a reply with an error beside a result is refused",
      args: [4, {
        jsonrpc: "2.0",
        id: 4,
        result: { ok: true },
        error: { code: -32603, message: "failed" },
      }],
      expected: refused,
    },
  ],
  unwrap: [
    { label: "an empty text stays empty", args: [""], expected: "" },
    { label: "JSON true", args: ["true"], expected: true },
    { label: "JSON null", args: ["null"], expected: null },
    { label: "a JSON array", args: ["[1,2]"], expected: [1, 2] },
    { label: "JSON with spaces around it", args: [" 7 "], expected: 7 },
    { label: "two words", args: ["has eaten"], expected: "has eaten" },
    { label: "text keeps its spaces", args: [" has eaten "], expected: " has eaten " },
    { label: "NaN is not JSON", args: ["NaN"], expected: "NaN" },
    { label: "Infinity is not JSON", args: ["Infinity"], expected: "Infinity" },
    { label: "JSON false", args: ["false"], expected: false },
    { label: "JSON zero", args: ["0"], expected: 0 },
    { label: "a JSON string that holds a number stays a string", args: ['"42"'], expected: "42" },
    { label: "single quotes are not JSON", args: ["'went'"], expected: "'went'" },
    // Round 13 of issue 38's red team: "a number read from the start of the text" kept every mark.
    { label: "a number then words is no JSON", args: ["3 verbs"], expected: "3 verbs" },
  ],
};

const HANDSHAKE = { call: "initialize", show: "type" } as const;
const CONNECT = { call: "connect", show: "type" } as const;
/** What the server receives of a client of the handshake era, after a probe it refused. */
const FELL_BACK = [[0, "server/discover"], [1, "initialize"], [null, "notifications/initialized"]];
const LISTED = [HANDSHAKE, { call: "listTools", show: "type" }] as const;
const ATE = { verb: "eat", tense: "past_simple", person: "3sg" };
const PING = { call: "request", args: ["ping"] };
const LISTED_OK = [{ returned: "object" }, { returned: "object" }];
const TWO_TOOLS = {
  tools: [
    { name: "first", inputSchema: { type: "object", properties: { a: { type: "string" } } } },
    { name: "second", inputSchema: { type: "object", properties: { b: {}, c: {} } } },
  ],
};

/** Hidden cases of the client's layers (more misbehaving servers), by class name. */
const CLIENT_HOLDOUTS: Readonly<Record<ClientLayer, readonly HiddenCase[]>> = {
  ServerLink: [
    scenario(
      "a server that crashed at start: close still ends, with its code, and its stderr was shown",
      {
        server: { stderr: "fatal: no vocabulary\n", exitAtStart: 4 },
        steps: [{ call: "close" }],
        observe: ["steps", "stderr"],
      },
      {
        steps: [{ returned: { code: 4, signal: null } }],
        stderr: ["[server] grammar: ready with 4 tools", "[server] fatal: no vocabulary"],
      },
    ),
    scenario(
      "a last stderr line without a newline is still shown",
      {
        server: { stderr: "one\ntwo", exitAtStart: 0 },
        steps: [{ call: "close" }],
        observe: ["stderr"],
      },
      { stderr: ["[server] grammar: ready with 4 tools", "[server] one", "[server] two"] },
    ),
    // Round 13 of issue 38's red team: "each read of stderr decoded on its own" kept every mark:
    // a character whose bytes two reads split is still one character.
    scenario(
      "a character split across two reads of stderr is shown whole",
      {
        server: { stderrSplit: "comió\n", exitAtStart: 0 },
        steps: [{ call: "close" }],
        observe: ["stderr"],
      },
      { stderr: ["[server] grammar: ready with 4 tools", "[server] comió"] },
    ),
    scenario(
      "close and then await using: the same status, and no second kill",
      {
        steps: [{ call: "close" }, { call: "dispose" }],
        observe: ["steps", "exit", "mentions"],
        mentions: ["kill"],
      },
      {
        steps: [{ returned: { code: 0, signal: null } }, { returned: undefined }],
        exit: { code: 0, signal: null },
        mentions: { kill: false },
      },
    ),
  ],
  RpcLink: [
    scenario(
      "a stale copy of the previous reply comes before the right one",
      {
        server: {
          on: {
            ping: [{ send: { jsonrpc: "2.0", id: "{{previous}}", result: {} } }, { result: {} }],
          },
        },
        steps: [{ call: "request", args: ["tools/list"], show: "keys" }, PING],
        observe: ["steps"],
      },
      { steps: [{ returned: ["tools"] }, { threw: "ProtocolError" }] },
    ),
    // Round 15b of issue 38's red team: "a failed write thrown as it is" kept every mark. A write
    // the server can no longer take is a ProtocolError, as the lesson says: the first request
    // finds the output ended, the second cannot be written.
    scenario(
      "a request to a server that has exited is a ProtocolError, its write refused",
      {
        server: { exitAtStart: 0 },
        steps: [PING, PING],
        observe: ["steps"],
      },
      { steps: [{ threw: "ProtocolError" }, { threw: "ProtocolError" }] },
    ),
    grouped(
      "an id, exactly",
      scenario(
        'the string "0" does not answer request 0',
        {
          server: { on: { ping: [{ send: { jsonrpc: "2.0", id: "{{idText}}", result: {} } }] } },
          steps: [PING],
          observe: ["steps"],
        },
        { steps: [{ threw: "ProtocolError" }] },
      ),
    ),
    grouped(
      "an id, exactly",
      scenario(
        "the number 0 answers request 0",
        {
          server: { on: { ping: [{ send: { jsonrpc: "2.0", id: 0, result: { n: 0 } } }] } },
          steps: [PING],
          observe: ["steps"],
        },
        { steps: [{ returned: { n: 0 } }] },
      ),
    ),
    scenario(
      "a reply in three pieces is read whole",
      {
        server: {
          on: { ping: [{ chunks: ['{"jsonrpc":"2.0",', '"id":{{id}},"result":', '{"n":1}}\n'] }] },
        },
        steps: [PING],
        observe: ["steps"],
      },
      { steps: [{ returned: { n: 1 } }] },
    ),
    grouped(
      "what comes besides the reply",
      scenario(
        "a notification and the reply in one write are both read",
        {
          server: {
            on: {
              ping: [{
                chunks: [
                  '{"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n{"jsonrpc":"2.0","id":{{id}},"result":{"n":2}}\n',
                ],
              }],
            },
          },
          steps: [PING],
          observe: ["steps"],
        },
        { steps: [{ returned: { n: 2 } }] },
      ),
    ),
    grouped(
      "id null",
      scenario(
        "a server's error with id null is refused, not taken as the reply",
        {
          server: {
            on: {
              ping: [{
                send: { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
              }],
            },
          },
          steps: [PING],
          observe: ["steps"],
        },
        { steps: [{ threw: "ProtocolError" }] },
      ),
    ),
    grouped(
      "id null",
      scenario(
        "the result with the request's id is the reply",
        {
          server: { on: { ping: [{ send: { jsonrpc: "2.0", id: "{{id}}", result: { n: 3 } } }] } },
          steps: [PING],
          observe: ["steps"],
        },
        { steps: [{ returned: { n: 3 } }] },
      ),
    ),
    grouped(
      "what comes besides the reply",
      scenario(
        "a request from the server is refused",
        {
          server: {
            on: {
              ping: [{
                send: { jsonrpc: "2.0", id: "s-1", method: "sampling/createMessage", params: {} },
              }],
            },
          },
          steps: [PING],
          observe: ["steps"],
        },
        { steps: [{ threw: "ProtocolError" }] },
      ),
    ),
    // Round 13 of issue 38's red team: "a server request known by a truthy id" kept every mark:
    // a server counts its requests from 0 too.
    grouped(
      "what comes besides the reply",
      scenario(
        "a request from the server with id 0 is refused too",
        {
          server: {
            on: {
              ping: [{ send: { jsonrpc: "2.0", id: 0, method: "roots/list", params: {} } }],
            },
          },
          steps: [PING],
          observe: ["steps"],
        },
        { steps: [{ threw: "ProtocolError" }] },
      ),
    ),
    // Round 13: "an abandoned id of any type, as text" and "an abandoned id forgotten once its
    // late reply came" each kept every mark.
    grouped(
      "an abandoned id, exactly",
      scenario(
        'a late reply whose id is "0" answers neither request 0, given up, nor request 1',
        {
          server: {
            on: {
              "slow/thing": [],
              ping: [{ send: { jsonrpc: "2.0", id: "0", result: { late: true } } }, { result: {} }],
            },
          },
          steps: [{ call: "request", args: ["slow/thing", {}, 50] }, PING],
          observe: ["steps"],
        },
        { steps: [{ threw: "TimeoutError" }, { threw: "ProtocolError" }] },
      ),
    ),
    grouped(
      "an abandoned id, exactly",
      scenario(
        "two late copies of a reply to a request given up are both dropped",
        {
          server: {
            on: {
              "slow/thing": [],
              ping: [
                { send: { jsonrpc: "2.0", id: "{{previous}}", result: { late: 1 } } },
                { send: { jsonrpc: "2.0", id: "{{previous}}", result: { late: 2 } } },
                { result: {} },
              ],
            },
          },
          steps: [{ call: "request", args: ["slow/thing", {}, 50] }, PING],
          observe: ["steps"],
        },
        { steps: [{ threw: "TimeoutError" }, { returned: {} }] },
      ),
    ),
    scenario(
      "a client given no transcript option still talks",
      { noTranscript: true, steps: [PING, PING], observe: ["steps"] },
      { steps: [{ returned: {} }, { returned: {} }] },
    ),
    grouped(
      "the frame limit",
      scenario(
        "a reply over 64 KiB is a ProtocolError, valid JSON though it is",
        {
          server: { on: { ping: [{ result: { padding: "x".repeat(70_000) } }] } },
          steps: [PING],
          observe: ["steps"],
        },
        { steps: [{ threw: "ProtocolError" }] },
      ),
    ),
    grouped(
      "the frame limit",
      scenario(
        "a reply under 64 KiB is read",
        {
          server: { on: { ping: [{ result: { padding: "x".repeat(60_000) } }] } },
          steps: [{ ...PING, show: "keys" }],
          observe: ["steps"],
        },
        { steps: [{ returned: ["padding"] }] },
      ),
    ),
    scenario(
      "a reply that comes within its deadline is the result",
      { steps: [{ call: "request", args: ["ping", {}, 400] }], observe: ["steps", "cancelled"] },
      { steps: [{ returned: {} }], cancelled: [] },
    ),
    scenario(
      "notifications before the deadline do not stop it: still a TimeoutError, and cancelled",
      {
        server: {
          on: {
            "slow/thing": [{
              send: { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } },
            }],
          },
        },
        steps: [{ call: "request", args: ["slow/thing", {}, 60] }],
        observe: ["steps", "cancelled"],
      },
      { steps: [{ threw: "TimeoutError" }], cancelled: [0] },
    ),
    scenario(
      "a late error reply to a request given up is dropped too",
      {
        server: {
          on: {
            "slow/thing": [],
            ping: [{
              send: {
                jsonrpc: "2.0",
                id: "{{previous}}",
                error: { code: -32603, message: "late and failed" },
              },
            }, { grammar: true }],
          },
        },
        steps: [{ call: "request", args: ["slow/thing", {}, 50] }, PING],
        observe: ["steps"],
      },
      { steps: [{ threw: "TimeoutError" }, { returned: {} }] },
    ),
    scenario(
      "two requests given up, then one answered: each cancellation names its own",
      {
        server: { on: { "slow/thing": [] } },
        steps: [
          { call: "request", args: ["slow/thing", {}, 40] },
          { call: "request", args: ["slow/thing", {}, 40] },
          PING,
        ],
        observe: ["steps", "cancelled"],
      },
      {
        steps: [{ threw: "TimeoutError" }, { threw: "TimeoutError" }, { returned: {} }],
        cancelled: [0, 1],
      },
    ),
  ],
  HandshakeClient: [
    scenario(
      "a server with no capabilities at all is refused, and none are kept",
      {
        server: {
          on: {
            initialize: [{
              result: { protocolVersion: "2025-06-18", serverInfo: { name: "x", version: "1" } },
            }],
          },
        },
        steps: [HANDSHAKE],
        observe: ["steps", "sent", "capabilities"],
      },
      { steps: [{ threw: "ProtocolError" }], sent: [[0, "initialize"]], capabilities: undefined },
    ),
    // Round 15b of issue 38's red team: "capabilities kept before the version check" kept every
    // mark. A refused server's capabilities are not kept: the checks come first.
    scenario(
      "a server of another version is refused, and its capabilities are not kept",
      {
        server: {
          on: {
            initialize: [{
              result: {
                protocolVersion: "2024-11-05",
                capabilities: { tools: {} },
                serverInfo: { name: "x", version: "1" },
              },
            }],
          },
        },
        steps: [HANDSHAKE],
        observe: ["steps", "capabilities"],
      },
      { steps: [{ threw: "ProtocolError" }], capabilities: undefined },
    ),
    scenario(
      "an error reply to initialize is a ProtocolError with its code",
      {
        server: {
          on: {
            initialize: [{ error: { code: -32602, message: "Unsupported protocol version" } }],
          },
        },
        steps: [HANDSHAKE],
        observe: ["steps", "sent"],
      },
      { steps: [{ threw: "ProtocolError", code: -32602 }], sent: [[0, "initialize"]] },
    ),
    // Round 13 of issue 38's red team: "a tools capability tested for truth" kept every mark, in
    // the handshake and in connect: tools must be an object.
    scenario(
      "a tools capability of true is no object: refused, and never told the session started",
      {
        server: {
          on: {
            initialize: [{
              result: {
                protocolVersion: "2025-06-18",
                capabilities: { tools: true },
                serverInfo: { name: "x", version: "1" },
              },
            }],
          },
        },
        steps: [HANDSHAKE],
        observe: ["steps", "sent"],
      },
      { steps: [{ threw: "ProtocolError" }], sent: [[0, "initialize"]] },
    ),
    scenario(
      "connect: a DiscoverResult whose tools capability is true is refused",
      {
        server: {
          on: {
            "server/discover": [{
              result: { supportedVersions: ["2026-07-28"], capabilities: { tools: true } },
            }],
          },
        },
        steps: [CONNECT],
        observe: ["steps", "sent"],
      },
      { steps: [{ threw: "ProtocolError" }], sent: [[0, "server/discover"]] },
    ),
    scenario(
      "connect: -32602 to the probe, a server that wants initialize first: the handshake",
      {
        server: {
          on: { "server/discover": [{ error: { code: -32602, message: "Not initialized" } }] },
        },
        steps: [CONNECT],
        observe: ["steps", "sent", "version"],
      },
      { steps: [{ returned: "object" }], sent: FELL_BACK, version: "2025-06-18" },
    ),
    scenario(
      "connect: -32000 to the probe: the handshake",
      {
        server: {
          on: {
            "server/discover": [{ error: { code: -32000, message: "Server not initialized" } }],
          },
        },
        steps: [CONNECT],
        observe: ["sent", "version"],
      },
      { sent: FELL_BACK, version: "2025-06-18" },
    ),
    scenario(
      "connect: a result that is no DiscoverResult: the handshake",
      {
        server: { on: { "server/discover": [{ result: { ok: true } }] } },
        steps: [CONNECT],
        observe: ["sent", "version", "capabilities"],
      },
      {
        sent: FELL_BACK,
        version: "2025-06-18",
        capabilities: { tools: { listChanged: false } },
      },
    ),
    scenario(
      "connect: a DiscoverResult without tools is refused, and nothing more is sent",
      {
        server: {
          on: {
            "server/discover": [{
              result: { supportedVersions: ["2026-07-28"], capabilities: {} },
            }],
          },
        },
        steps: [CONNECT],
        observe: ["steps", "sent", "capabilities"],
      },
      {
        steps: [{ threw: "ProtocolError" }],
        sent: [[0, "server/discover"]],
        capabilities: undefined,
      },
    ),
    scenario(
      "connect: a DiscoverResult that comes after the deadline is dropped: the handshake answers",
      {
        server: {
          on: {
            "server/discover": [],
            initialize: [{
              send: {
                jsonrpc: "2.0",
                id: "{{previous}}",
                result: { supportedVersions: ["2026-07-28"], capabilities: { tools: {} } },
              },
            }, { grammar: true }],
          },
        },
        probeMs: 100,
        steps: [CONNECT],
        observe: ["steps", "version", "cancelled"],
      },
      { steps: [{ returned: "object" }], version: "2025-06-18", cancelled: [0] },
    ),
    scenario(
      "connect: a server that first refuses the version it lists is asked again, with its _meta",
      {
        server: {
          ...BOTH_ERAS,
          first: {
            "server/discover": [{
              send: {
                jsonrpc: "2.0",
                id: "{{id}}",
                error: {
                  code: -32022,
                  message: "Unsupported protocol version",
                  data: { supported: ["2026-07-28"], requested: "2026-07-28" },
                },
              },
            }],
          },
        },
        steps: [CONNECT],
        observe: ["steps", "sent", "meta", "version"],
      },
      {
        steps: [{ returned: "object" }],
        sent: [[0, "server/discover"], [1, "server/discover"]],
        meta: ["2026-07-28", "2026-07-28"],
        version: "2026-07-28",
      },
    ),
    scenario(
      "connect: a server that exits instead of answering the probe is a ProtocolError, not a fall back",
      {
        server: { on: { "server/discover": [{ exit: 1 }] } },
        steps: [CONNECT],
        observe: ["steps", "sent"],
      },
      { steps: [{ threw: "ProtocolError" }], sent: [[0, "server/discover"]] },
    ),
    scenario(
      "connect: a probe answered with a line that is not JSON is a ProtocolError, not a fall back",
      {
        server: { on: { "server/discover": [{ raw: "grammar: warming up" }] } },
        steps: [CONNECT],
        observe: ["steps", "sent"],
      },
      { steps: [{ threw: "ProtocolError" }], sent: [[0, "server/discover"]] },
    ),
    scenario(
      "connect in 2026-07-28 keeps the DiscoverResult's capabilities, and tools/list carries _meta",
      {
        server: BOTH_ERAS,
        steps: [CONNECT, { call: "request", args: ["tools/list"], show: "type" }],
        observe: ["capabilities", "meta", "version"],
      },
      {
        capabilities: { tools: { listChanged: false } },
        meta: ["2026-07-28", "2026-07-28"],
        version: "2026-07-28",
      },
    ),
  ],
  ListingClient: [
    scenario(
      "another server's two tools: the list as sent, and their schemas",
      {
        server: { on: { "tools/list": [{ result: TWO_TOOLS }] } },
        steps: [HANDSHAKE, { call: "listTools" }],
        observe: ["steps", "schemas"],
      },
      {
        steps: [{ returned: "object" }, { returned: TWO_TOOLS.tools }],
        schemas: { first: ["a"], second: ["b", "c"] },
      },
    ),
    // Round 15b of issue 38's red team: "schemas from an earlier listing kept" kept every mark. A
    // tool the server no longer lists is not listed: its schema goes with it.
    scenario(
      "listed again, a tool that is gone takes its schema with it",
      {
        server: {
          first: { "tools/list": [{ result: TWO_TOOLS }] },
          on: { "tools/list": [{ result: { tools: [TWO_TOOLS.tools[1]] } }] },
        },
        steps: [HANDSHAKE, { call: "listTools", show: "type" }, {
          call: "listTools",
          show: "type",
        }],
        observe: ["schemas"],
      },
      { schemas: { second: ["b", "c"] } },
    ),
    scenario(
      "a tool whose name is not a string is a ProtocolError",
      {
        server: { on: { "tools/list": [{ result: { tools: [{ name: 5, inputSchema: {} }] } }] } },
        steps: [HANDSHAKE, { call: "listTools", show: "type" }],
        observe: ["steps"],
      },
      { steps: [{ returned: "object" }, { threw: "ProtocolError" }] },
    ),
    // Round 13 of issue 38's red team: "an inputSchema of type object, a list too" kept every mark.
    scenario(
      "a tool whose inputSchema is a list is a ProtocolError",
      {
        server: { on: { "tools/list": [{ result: { tools: [{ name: "a", inputSchema: [] }] } }] } },
        steps: [HANDSHAKE, { call: "listTools", show: "type" }],
        observe: ["steps"],
      },
      { steps: [{ returned: "object" }, { threw: "ProtocolError" }] },
    ),
    scenario(
      "a tool without an inputSchema, after one with, is a ProtocolError",
      {
        server: {
          on: {
            "tools/list": [{
              result: {
                tools: [{ name: "fine", inputSchema: { type: "object" } }, { name: "bare" }],
              },
            }],
          },
        },
        steps: [HANDSHAKE, { call: "listTools", show: "type" }],
        observe: ["steps"],
      },
      { steps: [{ returned: "object" }, { threw: "ProtocolError" }] },
    ),
  ],
  McpClient: [
    scenario(
      "in 2026-07-28, run is a ToolError too: sent, with its _meta, and refused by the tool",
      {
        server: BOTH_ERAS,
        steps: [CONNECT, { call: "listTools", show: "type" }, {
          call: "callTool",
          args: ["conjugate", { ...ATE, verb: "run" }],
        }],
        observe: ["steps", "meta"],
      },
      {
        steps: [...LISTED_OK, {
          threw: "ToolError",
          message: "conjugate: run is outside this unit's verbs",
        }],
        meta: ["2026-07-28", "2026-07-28", "2026-07-28"],
      },
    ),
    scenario(
      "an image result is a ProtocolError, caption or not",
      {
        server: {
          on: {
            "tools/call": [{
              result: {
                content: [{ type: "image", data: "iVBORw0K", mimeType: "image/png", text: "ate" }],
                isError: false,
              },
            }],
          },
        },
        steps: [...LISTED, { call: "callTool", args: ["conjugate", ATE] }],
        observe: ["steps"],
      },
      { steps: [...LISTED_OK, { threw: "ProtocolError" }] },
    ),
    scenario(
      "a text item whose text is not a string is a ProtocolError",
      {
        server: {
          on: {
            "tools/call": [{ result: { content: [{ type: "text", text: 42 }], isError: false } }],
          },
        },
        steps: [...LISTED, { call: "callTool", args: ["conjugate", ATE] }],
        observe: ["steps"],
      },
      { steps: [...LISTED_OK, { threw: "ProtocolError" }] },
    ),
    // Round 15b of issue 38's red team: three readings of the result kept every mark. The first
    // content item must be text: a text item after an image is not read instead, a failure whose
    // first item is an image is no ToolError, and a second text item is not joined on.
    scenario(
      "a text item after an image is still a ProtocolError: the first item is what is read",
      {
        server: {
          on: {
            "tools/call": [{
              result: {
                content: [
                  { type: "image", data: "iVBORw0K", mimeType: "image/png" },
                  { type: "text", text: "ate" },
                ],
                isError: false,
              },
            }],
          },
        },
        steps: [...LISTED, { call: "callTool", args: ["conjugate", ATE] }],
        observe: ["steps"],
      },
      { steps: [...LISTED_OK, { threw: "ProtocolError" }] },
    ),
    scenario(
      "a failure whose first item is an image has no text to read: a ProtocolError",
      {
        server: {
          on: {
            "tools/call": [{
              result: {
                content: [{ type: "image", data: "iVBORw0K", mimeType: "image/png" }],
                isError: true,
              },
            }],
          },
        },
        steps: [...LISTED, { call: "callTool", args: ["conjugate", ATE] }],
        observe: ["steps"],
      },
      { steps: [...LISTED_OK, { threw: "ProtocolError" }] },
    ),
    scenario(
      "two text items: the value is the first one's",
      {
        server: {
          on: {
            "tools/call": [{
              result: {
                content: [{ type: "text", text: "ate" }, { type: "text", text: "(past simple)" }],
                isError: false,
              },
            }],
          },
        },
        steps: [...LISTED, { call: "callTool", args: ["conjugate", ATE] }],
        observe: ["steps"],
      },
      { steps: [...LISTED_OK, { returned: "ate" }] },
    ),
    // Round 15b of issue 38's red team: "structuredContent taken first" kept every mark. The
    // lesson's value is the text unwrapped, whatever else the result holds.
    scenario(
      "a result with structuredContent beside its text: the text's value",
      {
        server: {
          on: {
            "tools/call": [{
              result: {
                content: [{ type: "text", text: "ate" }],
                structuredContent: { form: "ate" },
                isError: false,
              },
            }],
          },
        },
        steps: [...LISTED, { call: "callTool", args: ["conjugate", ATE] }],
        observe: ["steps"],
      },
      { steps: [...LISTED_OK, { returned: "ate" }] },
    ),
    // Round 13 of issue 38's red team: "isError tested for truth" kept every mark: only
    // isError: true is the tool's refusal.
    scenario(
      'isError "false" is not true: no tool error, the value',
      {
        server: {
          on: {
            "tools/call": [{
              result: { content: [{ type: "text", text: "ate" }], isError: "false" },
            }],
          },
        },
        steps: [...LISTED, { call: "callTool", args: ["conjugate", ATE] }],
        observe: ["steps"],
      },
      { steps: [...LISTED_OK, { returned: "ate" }] },
    ),
    scenario(
      "a missing argument is refused before anything is sent",
      {
        steps: [...LISTED, {
          call: "callTool",
          args: ["conjugate", { verb: "eat", tense: "past_simple" }],
        }],
        observe: ["steps", "calls"],
      },
      { steps: [...LISTED_OK, { threw: "ProtocolError" }], calls: [] },
    ),
    scenario(
      "an argument the schema does not know is refused before anything is sent",
      {
        steps: [...LISTED, {
          call: "callTool",
          args: ["lookup_irregular_verb", { verb: "go", tense: "past" }],
        }],
        observe: ["steps", "calls"],
      },
      { steps: [...LISTED_OK, { threw: "ProtocolError" }], calls: [] },
    ),
    scenario(
      "a tool is refused before listTools has run, and nothing is sent",
      {
        steps: [HANDSHAKE, { call: "callTool", args: ["conjugate", ATE] }],
        observe: ["steps", "calls"],
      },
      { steps: [{ returned: "object" }, { threw: "ProtocolError" }], calls: [] },
    ),
    scenario(
      "a tool error whose text is JSON is still a ToolError, not a value",
      {
        server: {
          on: {
            "tools/call": [{
              result: { content: [{ type: "text", text: '{"retry":true}' }], isError: true },
            }],
          },
        },
        steps: [...LISTED, { call: "callTool", args: ["conjugate", ATE] }],
        observe: ["steps"],
      },
      { steps: [...LISTED_OK, { threw: "ToolError", message: '{"retry":true}' }] },
    ),
    scenario(
      "a result with no content is a ProtocolError",
      {
        server: { on: { "tools/call": [{ result: { isError: false } }] } },
        steps: [...LISTED, { call: "callTool", args: ["conjugate", ATE] }],
        observe: ["steps"],
      },
      { steps: [...LISTED_OK, { threw: "ProtocolError" }] },
    ),
    scenario(
      "after a ToolError the next call works",
      {
        steps: [
          ...LISTED,
          { call: "callTool", args: ["conjugate", { ...ATE, verb: "run" }], show: "type" },
          { call: "callTool", args: ["conjugate", { ...ATE, tense: "present_perfect" }] },
        ],
        observe: ["steps"],
      },
      {
        steps: [...LISTED_OK, {
          threw: "ToolError",
          message: "conjugate: run is outside this unit's verbs",
        }, {
          returned: "has eaten",
        }],
      },
    ),
    scenario(
      "a number in the text comes back as a number",
      {
        server: {
          on: {
            "tools/call": [{ result: { content: [{ type: "text", text: "42" }], isError: false } }],
          },
        },
        steps: [...LISTED, { call: "callTool", args: ["conjugate", ATE] }],
        observe: ["steps"],
      },
      { steps: [...LISTED_OK, { returned: 42 }] },
    ),
  ],
};

/** Hidden cases of the named tests: more faulty clients each test must fail. */
const TEST_HOLDOUTS: Readonly<Record<NamedTestName, readonly HiddenCase[]>> = {
  testInitializeReturnsToolsCapability: [
    catches("a client whose initialize resolves with nothing", {
      method: "initialize",
      change: "return-nothing",
    }),
  ],
  testListToolsReturnsFour: [
    catches("a client that lists the first tool twice", {
      method: "listTools",
      change: "duplicate-first",
    }),
    catches("a client that gives the last tool the first one's name", {
      method: "listTools",
      change: "rename-last",
    }),
  ],
  testCallConjugateReturnsAte: [
    catches("a client that returns the value as JSON text", {
      method: "callTool",
      change: "quoted",
    }),
  ],
  testCallOutOfScopeRaisesToolError: [
    catches("a client that returns a tool's failure as its text", {
      method: "callTool",
      change: "return-message",
      from: "ToolError",
    }),
    catches("a client that throws a plain Error for a tool's failure", {
      method: "callTool",
      change: "rethrow",
      from: "ToolError",
      to: "Error",
    }),
  ],
  testUnknownToolRaisesProtocolError: [
    catches("a client that resolves with the refusal's message", {
      method: "callTool",
      change: "return-message",
      from: "ProtocolError",
    }),
    catches("a client that throws a TypeError for an unknown tool", {
      method: "callTool",
      change: "rethrow",
      from: "ProtocolError",
      to: "TypeError",
    }),
  ],
  testClientCleansUpOnException: [
    catches("a client whose await using does nothing, though close works", {
      method: "dispose",
      change: "do-nothing",
    }),
  ],
};

/** Lab 02's hidden cases, by the graded function's (or class's, or test's) name. */
export const HOLDOUTS: Readonly<
  Record<"correlate" | "unwrap" | "eraOf" | ClientLayer | NamedTestName, readonly HiddenCase[]>
> = { ...FUNCTION_HOLDOUTS, ...CLIENT_HOLDOUTS, ...TEST_HOLDOUTS };

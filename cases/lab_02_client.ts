/**
 * Lab 02's visible cases for what the learner builds that is more than a
 * function: the client, layer by layer (Blocks B to F), each case a scenario
 * that `tools/grading/drivers/lab_02_client.ts` runs on the grammar server (or
 * a scripted one) in the learner's own process; and the named tests of Block
 * H, each case a client the test must pass or a faulty client it must fail
 * (`tools/grading/drivers/lab_02_tests.ts`). The notebook's grade tables show
 * them, and the autograder runs them again, with hidden ones that only the
 * instructors' grader has.
 *
 * @module
 */

import type { GradeCase } from "../lib/grading/grading.ts";
import type { GrammarCommandOptions } from "../lib/course/course.ts";
import { MCP_VERSIONS } from "../lib/mcp/shared/versions.ts";
import type { Scenario } from "../tools/grading/drivers/lab_02_client.ts";
import type { Fault } from "../tools/grading/drivers/faulty_client.ts";

/** The client's layers, in the order the learner writes them. */
export type ClientLayer =
  | "ServerLink"
  | "RpcLink"
  | "HandshakeClient"
  | "ListingClient"
  | "McpClient";

/** The six named tests of Block H. */
export type NamedTestName =
  | "testInitializeReturnsToolsCapability"
  | "testListToolsReturnsFour"
  | "testCallConjugateReturnsAte"
  | "testCallOutOfScopeRaisesToolError"
  | "testUnknownToolRaisesProtocolError"
  | "testClientCleansUpOnException";

/** A case of a client layer: a scenario and the observation it must give. */
export function scenario(
  label: string,
  run: Scenario,
  expected: Record<string, unknown>,
): GradeCase {
  return { label, args: [run], expected };
}

/** The case a named test must pass: a correct client. */
export function passesCorrect(label: string): GradeCase {
  return { label, args: [{}], expected: { correct: "passed" } };
}

/** A case of a named test: it must pass the correct client and fail the one with `fault`. */
export function catches(label: string, fault: Fault): GradeCase {
  return { label, args: [{ fault }], expected: { correct: "passed", faulty: "failed" } };
}

const EXITED_0 = { code: 0, signal: null };
const KILLED = { code: 137, signal: "SIGKILL" };
const HANDSHAKE = { call: "initialize", show: "type" } as const;
const LISTED = [HANDSHAKE, { call: "listTools", show: "type" }] as const;
const ATE = { verb: "eat", tense: "past_simple", person: "3sg" };
const PING = { call: "request", args: ["ping"] };
const GRAMMAR_CAPABILITIES = { tools: { listChanged: false } };
const CONNECT = { call: "connect", show: "type" } as const;
/** A grammar server of both eras, as `grammar.ts --versions` with every version serves it. */
export const BOTH_ERAS = { versions: [...MCP_VERSIONS] };
/** What the server receives of a client of the handshake era, after a probe it refused. */
const FELL_BACK = [[0, "server/discover"], [1, "initialize"], [null, "notifications/initialized"]];
/** The probe's `_meta`: today's version, the client's name, and no capabilities. */
const PROBE = {
  _meta: {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "lab-02-client", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  },
};
/** More than a pipe holds: a server that writes this much on a stderr nobody reads waits. */
const CHATTY = 200_000;

/** Lab 02's visible cases of the client's layers, by class name. */
export const CLIENT_CASES: Readonly<Record<ClientLayer, readonly GradeCase[]>> = {
  ServerLink: [
    scenario(
      "close ends the server's input: it exits 0 by itself, and the client logs nothing of its own",
      { steps: [{ call: "close" }], observe: ["steps", "exit", "notes"] },
      { steps: [{ returned: EXITED_0 }], exit: EXITED_0, notes: 0 },
    ),
    scenario(
      "each stderr line is shown as it comes, marked [server]",
      {
        server: { stderr: "warming up\nready\n" },
        steps: [{ call: "close" }],
        observe: ["stderr"],
      },
      {
        stderr: [
          "[server] grammar: ready with 4 tools",
          "[server] warming up",
          "[server] ready",
          "[server] grammar: input ended, exiting",
        ],
      },
    ),
    scenario(
      "a server that ignores the end of its input is killed after the grace period, and the kill is logged",
      {
        server: { atEnd: "ignore" },
        graceMs: 50,
        steps: [{ call: "close" }],
        observe: ["steps", "exit", "mentions"],
        mentions: ["kill"],
      },
      { steps: [{ returned: KILLED }], exit: KILLED, mentions: { kill: true } },
    ),
    scenario(
      "a server that exits with code 3 has its code logged",
      {
        server: { atEnd: 3 },
        steps: [{ call: "close" }],
        observe: ["steps", "mentions"],
        mentions: ["3"],
      },
      { steps: [{ returned: { code: 3, signal: null } }], mentions: { 3: true } },
    ),
    scenario(
      "a server that writes 200 KB on stderr as it starts still ends by itself: its stderr is read as it comes",
      {
        server: { stderrBytes: CHATTY },
        steps: [{ call: "close" }],
        observe: ["steps"],
      },
      { steps: [{ returned: EXITED_0 }] },
    ),
    scenario(
      "closing twice gives the same status twice",
      { steps: [{ call: "close" }, { call: "close" }], observe: ["steps", "exit"] },
      { steps: [{ returned: EXITED_0 }, { returned: EXITED_0 }], exit: EXITED_0 },
    ),
    scenario(
      "leaving an await using block ends the server",
      { steps: [{ call: "dispose" }], observe: ["steps", "exit"] },
      { steps: [{ returned: undefined }], exit: EXITED_0 },
    ),
  ],
  RpcLink: [
    scenario(
      "ids count from 0, a notification has none, and each result comes back",
      {
        steps: [
          {
            call: "request",
            args: ["initialize", { protocolVersion: "2025-06-18" }],
            show: "keys",
          },
          { call: "notify", args: ["notifications/initialized"], show: "type" },
          { call: "request", args: ["tools/list"], show: "keys" },
          PING,
        ],
        observe: ["steps", "sent"],
      },
      {
        steps: [
          { returned: ["capabilities", "protocolVersion", "serverInfo"] },
          { returned: "undefined" },
          { returned: ["tools"] },
          { returned: {} },
        ],
        sent: [[0, "initialize"], [null, "notifications/initialized"], [1, "tools/list"], [
          2,
          "ping",
        ]],
      },
    ),
    scenario(
      "every message goes to the transcript exactly as it crossed, with params {} when there are none",
      { steps: [PING], observe: ["transcript"] },
      {
        transcript: [
          [">", { jsonrpc: "2.0", id: 0, method: "ping", params: {} }],
          ["<", { jsonrpc: "2.0", id: 0, result: {} }],
        ],
      },
    ),
    scenario(
      "a notification carries jsonrpc 2.0 and params {}, and no id",
      { steps: [{ call: "notify", args: ["notifications/initialized"] }], observe: ["transcript"] },
      {
        transcript: [
          [">", { jsonrpc: "2.0", method: "notifications/initialized", params: {} }],
        ],
      },
    ),
    scenario(
      "a server that writes 200 KB on stderr before it answers is still answered: nothing waits on a full pipe",
      {
        server: { on: { ping: [{ stderrBytes: CHATTY }, { grammar: true }] } },
        steps: [PING],
        observe: ["steps"],
      },
      { steps: [{ returned: {} }] },
    ),
    scenario(
      "a reply with another id is a ProtocolError",
      {
        server: { on: { ping: [{ send: { jsonrpc: "2.0", id: 7, result: {} } }] } },
        steps: [PING],
        observe: ["steps"],
      },
      { steps: [{ threw: "ProtocolError" }] },
    ),
    scenario(
      "a JSON-RPC error reply is a ProtocolError that keeps the server's code",
      { steps: [{ call: "request", args: ["no/such/method"] }], observe: ["steps"] },
      { steps: [{ threw: "ProtocolError", code: -32601 }] },
    ),
    scenario(
      "a notification that comes before the reply is skipped",
      {
        server: {
          on: {
            ping: [{
              send: {
                jsonrpc: "2.0",
                method: "notifications/message",
                params: { level: "info", data: "hi" },
              },
            }, {
              result: { ok: true },
            }],
          },
        },
        steps: [PING],
        observe: ["steps"],
      },
      { steps: [{ returned: { ok: true } }] },
    ),
    scenario(
      "a line that is not JSON is a ProtocolError",
      {
        server: { on: { ping: [{ raw: "hello from the server" }] } },
        steps: [PING],
        observe: ["steps"],
      },
      { steps: [{ threw: "ProtocolError" }] },
    ),
    scenario(
      "a server that exits before it answers is a ProtocolError, not a wait forever",
      { server: { on: { ping: [{ exit: 1 }] } }, steps: [PING], observe: ["steps"] },
      { steps: [{ threw: "ProtocolError" }] },
    ),
    scenario(
      "past its deadline a request is a TimeoutError, cancelled; its late reply answers nobody",
      {
        server: {
          on: {
            "slow/thing": [],
            ping: [{ send: { jsonrpc: "2.0", id: "{{previous}}", result: { late: true } } }, {
              grammar: true,
            }],
          },
        },
        steps: [{ call: "request", args: ["slow/thing", {}, 50] }, PING],
        observe: ["steps", "sent", "cancelled"],
      },
      {
        steps: [{ threw: "TimeoutError" }, { returned: {} }],
        sent: [[0, "slow/thing"], [null, "notifications/cancelled"], [1, "ping"]],
        cancelled: [0],
      },
    ),
  ],
  HandshakeClient: [
    scenario(
      "initialize sends 2025-06-18, no capabilities and the client's name, then notifications/initialized",
      { steps: [{ call: "initialize", show: "keys" }], observe: ["steps", "sent", "initialize"] },
      {
        steps: [{ returned: ["capabilities", "protocolVersion", "serverInfo"] }],
        sent: [[0, "initialize"], [null, "notifications/initialized"]],
        initialize: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "lab-02-client", version: "1.0.0" },
        },
      },
    ),
    scenario(
      "the server's capabilities are kept",
      { steps: [HANDSHAKE], observe: ["capabilities"] },
      { capabilities: GRAMMAR_CAPABILITIES },
    ),
    scenario(
      "a server without tools is refused, and is never told the session started",
      {
        server: {
          on: {
            initialize: [{
              result: {
                protocolVersion: "2025-06-18",
                capabilities: {},
                serverInfo: { name: "empty", version: "1" },
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
      "a server that answers another protocol version is refused",
      {
        server: {
          on: {
            initialize: [{
              result: {
                protocolVersion: "2024-11-05",
                capabilities: GRAMMAR_CAPABILITIES,
                serverInfo: { name: "old", version: "1" },
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
      "connect: a server of both eras answers the probe with a DiscoverResult: 2026-07-28, and no handshake",
      {
        server: BOTH_ERAS,
        steps: [CONNECT],
        observe: ["steps", "sent", "probe", "version", "capabilities"],
      },
      {
        steps: [{ returned: "object" }],
        sent: [[0, "server/discover"]],
        probe: PROBE,
        version: "2026-07-28",
        capabilities: GRAMMAR_CAPABILITIES,
      },
    ),
    scenario(
      "after connect in 2026-07-28, a request carries _meta with its version",
      {
        server: BOTH_ERAS,
        steps: [CONNECT, { call: "request", args: ["tools/list"], show: "type" }],
        observe: ["steps", "sent", "meta"],
      },
      {
        steps: [{ returned: "object" }, { returned: "object" }],
        sent: [[0, "server/discover"], [1, "tools/list"]],
        meta: ["2026-07-28", "2026-07-28"],
      },
    ),
    scenario(
      "connect: a legacy server answers the probe -32601: the handshake, and no _meta after it",
      {
        steps: [CONNECT, { call: "request", args: ["tools/list"], show: "type" }],
        observe: ["steps", "sent", "version", "meta"],
      },
      {
        steps: [{ returned: "object" }, { returned: "object" }],
        sent: [...FELL_BACK, [2, "tools/list"]],
        version: "2025-06-18",
        meta: ["2026-07-28", null, null, null],
      },
    ),
    scenario(
      "connect: a legacy server that never answers the probe: cancelled at its deadline, then the handshake",
      {
        server: { on: { "server/discover": [] } },
        probeMs: 100,
        steps: [CONNECT],
        observe: ["steps", "sent", "cancelled", "version"],
      },
      {
        steps: [{ returned: "object" }],
        sent: [
          [0, "server/discover"],
          [null, "notifications/cancelled"],
          [1, "initialize"],
          [null, "notifications/initialized"],
        ],
        cancelled: [0],
        version: "2025-06-18",
      },
    ),
    scenario(
      "connect: UnsupportedProtocolVersionError listing 2025-11-25 and 2025-06-18: 2025-06-18, by handshake",
      {
        server: { versions: ["2025-11-25", "2025-06-18"] },
        steps: [CONNECT],
        observe: ["steps", "sent", "version"],
      },
      { steps: [{ returned: "object" }], sent: FELL_BACK, version: "2025-06-18" },
    ),
    scenario(
      "connect: UnsupportedProtocolVersionError listing 2025-11-25 only: refused, and no initialize sent",
      { server: { versions: ["2025-11-25"] }, steps: [CONNECT], observe: ["steps", "sent"] },
      { steps: [{ threw: "ProtocolError" }], sent: [[0, "server/discover"]] },
    ),
  ],
  ListingClient: [
    scenario(
      "listTools resolves with the tools as listed",
      { steps: [HANDSHAKE, { call: "listTools", show: "names" }], observe: ["steps", "sent"] },
      {
        steps: [
          { returned: "object" },
          {
            returned: [
              "conjugate",
              "lookup_spanish",
              "lookup_irregular_verb",
              "check_subject_verb_agreement",
            ],
          },
        ],
        sent: [[0, "initialize"], [null, "notifications/initialized"], [1, "tools/list"]],
      },
    ),
    scenario(
      "each tool's inputSchema is kept by name",
      { steps: [...LISTED], observe: ["schemas"] },
      {
        schemas: {
          conjugate: ["person", "tense", "verb"],
          lookup_spanish: ["english_form"],
          lookup_irregular_verb: ["verb"],
          check_subject_verb_agreement: ["subject", "verb_form"],
        },
      },
    ),
    scenario(
      "a tools/list answer that is not a list is a ProtocolError",
      {
        server: { on: { "tools/list": [{ result: { tools: { conjugate: {} } } }] } },
        steps: [HANDSHAKE, { call: "listTools", show: "type" }],
        observe: ["steps"],
      },
      { steps: [{ returned: "object" }, { threw: "ProtocolError" }] },
    ),
  ],
  McpClient: [
    scenario(
      "conjugate eat past_simple 3sg gives ate",
      {
        steps: [...LISTED, { call: "callTool", args: ["conjugate", ATE] }],
        observe: ["steps", "calls"],
      },
      {
        steps: [{ returned: "object" }, { returned: "object" }, { returned: "ate" }],
        calls: [{ name: "conjugate", arguments: ATE }],
      },
    ),
    scenario(
      "lookup_spanish ate gives comió, which is not JSON",
      {
        steps: [...LISTED, { call: "callTool", args: ["lookup_spanish", { english_form: "ate" }] }],
        observe: ["steps"],
      },
      { steps: [{ returned: "object" }, { returned: "object" }, { returned: "comió" }] },
    ),
    scenario(
      "lookup_irregular_verb go gives an object",
      {
        steps: [...LISTED, { call: "callTool", args: ["lookup_irregular_verb", { verb: "go" }] }],
        observe: ["steps"],
      },
      {
        steps: [{ returned: "object" }, { returned: "object" }, {
          returned: { verb: "go", irregular: true, past_simple: "went", past_participle: "gone" },
        }],
      },
    ),
    scenario(
      "check_subject_verb_agreement for he and go gives an object",
      {
        steps: [...LISTED, {
          call: "callTool",
          args: ["check_subject_verb_agreement", { subject: "he", verb_form: "go" }],
        }],
        observe: ["steps"],
      },
      {
        steps: [{ returned: "object" }, { returned: "object" }, {
          returned: { subject: "he", verb_form: "go", agrees: false, expected: "goes" },
        }],
      },
    ),
    scenario(
      "conjugate run is a ToolError with the tool's own text, and it was sent",
      {
        steps: [...LISTED, { call: "callTool", args: ["conjugate", { ...ATE, verb: "run" }] }],
        observe: ["steps", "calls"],
      },
      {
        steps: [{ returned: "object" }, { returned: "object" }, {
          threw: "ToolError",
          message: "conjugate: run is outside this unit's verbs",
        }],
        calls: [{ name: "conjugate", arguments: { ...ATE, verb: "run" } }],
      },
    ),
    scenario(
      "a verb outside the schema's enum is a ProtocolError, and nothing is sent",
      {
        steps: [...LISTED, { call: "callTool", args: ["conjugate", { ...ATE, person: "4sg" }] }],
        observe: ["steps", "calls"],
      },
      {
        steps: [{ returned: "object" }, { returned: "object" }, { threw: "ProtocolError" }],
        calls: [],
      },
    ),
    scenario(
      "an unknown tool is a ProtocolError, and nothing is sent",
      {
        steps: [...LISTED, { call: "callTool", args: ["not_a_tool", {}] }],
        observe: ["steps", "calls"],
      },
      {
        steps: [{ returned: "object" }, { returned: "object" }, { threw: "ProtocolError" }],
        calls: [],
      },
    ),
    scenario(
      "a JSON-RPC error reply to tools/call is a ProtocolError with its code",
      {
        server: { on: { "tools/call": [{ error: { code: -32603, message: "Internal error" } }] } },
        steps: [...LISTED, { call: "callTool", args: ["conjugate", ATE] }],
        observe: ["steps"],
      },
      {
        steps: [{ returned: "object" }, { returned: "object" }, {
          threw: "ProtocolError",
          code: -32603,
        }],
      },
    ),
    scenario(
      "in 2026-07-28, connect, list and call: ate, each request with its _meta",
      {
        server: BOTH_ERAS,
        steps: [CONNECT, { call: "listTools", show: "type" }, {
          call: "callTool",
          args: ["conjugate", ATE],
        }],
        observe: ["steps", "meta", "calls"],
      },
      {
        steps: [{ returned: "object" }, { returned: "object" }, { returned: "ate" }],
        meta: ["2026-07-28", "2026-07-28", "2026-07-28"],
        calls: [{ name: "conjugate", arguments: ATE, _meta: PROBE._meta }],
      },
    ),
  ],
};

/** A row of Block D's table: a real grammar server, started as `server` says, and a scenario. */
export type EraServer = GradeCase & { server: GrammarCommandOptions };

/** Long enough for a server process to start on a busy machine: it covers only that wait. */
const STARTING_MS = 15_000;

/** Connect, ask for the tools, close: what Block D's table does with each real server. */
function meeting(label: string, server: GrammarCommandOptions, said: string[]): EraServer {
  return {
    label,
    server,
    args: [
      {
        stepMs: STARTING_MS,
        steps: [CONNECT, { call: "request", args: ["tools/list"], show: "type" }, {
          call: "close",
          show: "type",
        }],
        observe: ["steps", "version", "said"],
      } satisfies Scenario,
    ],
    expected: {
      steps: [{ returned: "object" }, { returned: "object" }, { returned: "object" }],
      version: said[1] === "tools/list" ? "2026-07-28" : "2025-06-18",
      said,
    },
  };
}

const HANDSHAKE_AFTER = ["initialize", "notifications/initialized", "tools/list"];

/** Block D's table: the client against five real grammar servers, of both eras. */
export const ERA_SERVERS: readonly EraServer[] = [
  meeting("both eras: a DiscoverResult, then 2026-07-28 at once", BOTH_ERAS, [
    "server/discover",
    "tools/list",
  ]),
  meeting("the handshake era: -32601 to the probe, then the handshake", {}, [
    "server/discover",
    ...HANDSHAKE_AFTER,
  ]),
  meeting(
    "the handshake era, silent before initialize: the probe cancelled, then the handshake",
    { silentBeforeInitialize: true },
    ["server/discover", "notifications/cancelled", ...HANDSHAKE_AFTER],
  ),
  meeting(
    "2025-11-25 and 2025-06-18: UnsupportedProtocolVersionError, and 2025-06-18 from its list",
    { versions: ["2025-11-25", "2025-06-18"] },
    ["server/discover", ...HANDSHAKE_AFTER],
  ),
  {
    label: "2025-11-25 only: UnsupportedProtocolVersionError, and nothing to speak: refused",
    server: { versions: ["2025-11-25"] },
    args: [
      {
        stepMs: STARTING_MS,
        steps: [CONNECT, { call: "close", show: "type" }],
        observe: ["steps", "said"],
      } satisfies Scenario,
    ],
    expected: {
      steps: [{ threw: "ProtocolError" }, { returned: "object" }],
      said: ["server/discover"],
    },
  },
];

/** Lab 02's visible cases of the named tests, by test name. */
export const TEST_CASES: Readonly<Record<NamedTestName, readonly GradeCase[]>> = {
  testInitializeReturnsToolsCapability: [
    passesCorrect("passes against a client that works"),
    catches("fails against a client whose initialize drops the tools capability", {
      method: "initialize",
      change: "drop-tools-capability",
    }),
  ],
  testListToolsReturnsFour: [
    passesCorrect("passes against a client that works"),
    catches("fails against a client that loses the last tool", {
      method: "listTools",
      change: "drop-last",
    }),
  ],
  testCallConjugateReturnsAte: [
    passesCorrect("passes against a client that works"),
    catches("fails against a client that returns the whole result, not the value", {
      method: "callTool",
      change: "as-content",
    }),
  ],
  testCallOutOfScopeRaisesToolError: [
    passesCorrect("passes against a client that works"),
    catches("fails against a client that calls a tool's failure a ProtocolError", {
      method: "callTool",
      change: "rethrow",
      from: "ToolError",
      to: "ProtocolError",
    }),
  ],
  testUnknownToolRaisesProtocolError: [
    passesCorrect("passes against a client that works"),
    catches("fails against a client that calls an unknown tool a ToolError", {
      method: "callTool",
      change: "rethrow",
      from: "ProtocolError",
      to: "ToolError",
    }),
  ],
  testClientCleansUpOnException: [
    passesCorrect("passes against a client that works"),
    catches("fails against a client whose close and await using leave the server running", {
      method: ["close", "dispose"],
      change: "do-nothing",
    }),
  ],
};

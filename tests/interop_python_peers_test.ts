// Python peers of both eras, both ways: FastMCP 4.2.3 servers held to each era
// (fixtures/fastmcp_peer.py: both eras as FastMCP comes, 2026-07-28 alone,
// each handshake version alone) against the course's client over stdio and
// Streamable HTTP; and the official Python SDK's client (mcp 2.3.0) in each of
// its modes ('auto', its default; the handshake alone, at one version; and
// 2026-07-28 alone) against the course's grammar server and the teaching
// server's sampling mode over stdio and serveHttp of each era. Each session
// agrees on the newest version both speak, is answered correctly, and sends
// nothing of the other era from the course's side (tests/_era_wire.ts): the
// client's transcript, the stdio tap, the recording proxy. FastMCP and the
// SDK come from PyPI into tools/interop/.venv (`sh tools/setup.sh test`).

import assert from "node:assert/strict";
import { freshLog, grammarCommand, serverCommand } from "../lib/course/course.ts";
import { serveHttp } from "../lib/mcp/server/http_server.ts";
import { LEGACY_VERSIONS, MCP_VERSIONS, MODERN_VERSIONS } from "../lib/mcp/shared/versions.ts";
import { eraSlips, httpWire, tapWires, type Version } from "./_era_wire.ts";
import { assertProcessGone } from "./_helpers.ts";
import { freePort, listeningServer } from "./_listening.ts";
import {
  crowdedSession,
  type Expected,
  peerSession,
  refusedSession,
  type Server,
} from "./_peer_sessions.ts";
import {
  askingGrammar,
  fastmcpPeer,
  LEGACY,
  ORDER,
  type PeerEra,
  pythonClient,
  pythonInstalled,
  type PythonSession,
  tapped,
} from "./_peers.ts";
import { type RecordingProxy, recordingProxy } from "./_wire_proxy.ts";

const ignore = !pythonInstalled;
/** FastMCP asks the user and the model at 2026-07-28 and from 2025-06-18; before, it cannot. */
const asks = (version: string) => version >= "2025-06-18";

/** Sessions of the course's client, run at once (a FastMCP server takes seconds to start), each judged on its own. */
async function allAtOnce(sessions: [string, () => Promise<void>][]): Promise<void> {
  const outcomes = await Promise.allSettled(sessions.map(([, run]) => run()));
  const failed = outcomes.flatMap((outcome, index) =>
    outcome.status === "rejected"
      ? [`${sessions[index][0]}: ${outcome.reason?.stack ?? outcome.reason}`]
      : []
  );
  assert.deepEqual(failed, []);
}

/** The session of the dual-era client with FastMCP of `era`, served at `server`. */
function withFastmcp(era: PeerEra, server: Server): [string, () => Promise<void>] {
  const version = era === "dual" || era === "modern" ? "2026-07-28" : era;
  const expected: Expected = { version, asks: asks(version) };
  return [`FastMCP (${era})`, () => peerSession(server, MCP_VERSIONS, expected)];
}

Deno.test({
  name: "the course's client speaks each era of FastMCP 4.2.3 over stdio",
  ignore,
  fn: async () => {
    await allAtOnce([
      ...(["dual", "modern", ...LEGACY] as PeerEra[]).map((era) =>
        withFastmcp(era, fastmcpPeer(era))
      ),
      [
        "a client of the handshake alone with FastMCP as it comes: 2025-11-25",
        () =>
          peerSession(fastmcpPeer("dual"), LEGACY_VERSIONS, { version: "2025-11-25", asks: true }),
      ],
      [
        "a client of the handshake alone, refused by FastMCP of 2026-07-28 alone",
        () => refusedSession(fastmcpPeer("modern"), LEGACY_VERSIONS, /-32022|2026-07-28/),
      ],
      [
        "a client of 2026-07-28 alone, refused by FastMCP of the handshake",
        () => refusedSession(fastmcpPeer("2025-06-18"), MODERN_VERSIONS, /not a modern one/),
      ],
    ]);
  },
});

Deno.test({
  name: "the course's client speaks each era of FastMCP 4.2.3 over Streamable HTTP",
  ignore,
  fn: async () => {
    // A FastMCP HTTP server takes about 4 s of CPU to start: three, the handshake
    // at 2025-03-26 (the version of the slips) for the four legacy versions,
    // which the stdio test above and the SDK v2 server's test over HTTP cover.
    const eras: PeerEra[] = ["dual", "modern", "2025-03-26"];
    const servers = await Promise.all(eras.map((era) => {
      const port = freePort();
      return listeningServer(fastmcpPeer(era, port), port);
    }));
    try {
      const url = (era: PeerEra) => servers[eras.indexOf(era)].url;
      for (const era of eras) await withFastmcp(era, url(era))[1]();
      await peerSession(url("dual"), LEGACY_VERSIONS, { version: "2025-11-25", asks: true });
      await crowdedSession(url("dual"), MCP_VERSIONS, "2026-07-28");
      await crowdedSession(url("dual"), LEGACY_VERSIONS, "2025-11-25");
      await refusedSession(url("modern"), LEGACY_VERSIONS, /-32602|_meta/);
      await refusedSession(url("2025-03-26"), MODERN_VERSIONS, /not a modern one/);
    } finally {
      for (const server of servers) await server[Symbol.asyncDispose]();
    }
  },
});

/** One session of the Python SDK's client: how it is set up, and what it must come to. */
interface PythonCase {
  name: string;
  session: PythonSession;
  /** The version agreed; or, for a refusal, what the client's error says and the era the course's server was judged in. */
  version?: Version;
  refused?: RegExp;
  judgedAt?: Version;
  /** The text of each call, in order. */
  texts?: string[];
  /** What it heard when it listened for a change: a subscription's event, or why it had none. */
  heard?: RegExp;
}

const EAT: [string, Record<string, unknown>] = [
  "conjugate",
  { verb: "eat", tense: "past_simple", person: "3sg" },
];
const COUNT: [string, Record<string, unknown>] = [
  "word_count",
  { text: "vanilla stock needs review" },
];
const GREET: [string, Record<string, unknown>] = ["greet", {}];
const DESCRIBE: [string, Record<string, unknown>] = ["describe", { flavor: "vanilla", tubs: 12 }];

Deno.test({
  name: "the Python SDK's client in each of its modes with the course's servers",
  ignore,
  fn: async () => {
    await using dual = serveHttp(askingGrammar());
    await using modern = serveHttp(askingGrammar(["2026-07-28"]));
    await using early = serveHttp(askingGrammar(["2025-03-26"]));
    const sampling = serverCommand("sampling", await freshLog("python-sdk-sampling"));
    const said = "4 (the client's model said: ice cream)";
    const asking = { sampling: "ice cream", user: "Ada" };
    const cases: PythonCase[] = [
      {
        name: "grammar, auto",
        session: { server: grammarCommand(), mode: "auto", calls: [EAT] },
        version: "2025-06-18",
        texts: ["ate"],
      },
      {
        name: "grammar, the handshake at 2024-11-05",
        session: { server: grammarCommand(), mode: "legacy", offer: "2024-11-05", calls: [EAT] },
        version: "2024-11-05",
        texts: ["ate"],
      },
      {
        name: "grammar, 2026-07-28 alone",
        session: { server: grammarCommand(), mode: "2026-07-28", calls: [EAT] },
        // The legacy server answers tools/list as the handshake era has it; the SDK refuses that.
        refused: /resultType/,
        judgedAt: "2025-06-18",
      },
      {
        name: "sampling mode, auto",
        session: { server: sampling, mode: "auto", calls: [COUNT], ...asking },
        version: "2026-07-28",
        texts: [said],
      },
      {
        name: "sampling mode, 2026-07-28 alone",
        session: { server: sampling, mode: "2026-07-28", calls: [COUNT], ...asking },
        version: "2026-07-28",
        texts: [said],
      },
      {
        name: "sampling mode, the handshake",
        session: { server: sampling, mode: "legacy", calls: [COUNT], ...asking },
        version: "2025-11-25",
        texts: [said],
      },
      {
        name: "sampling mode, the handshake at 2025-03-26",
        session: {
          server: sampling,
          mode: "legacy",
          offer: "2025-03-26",
          calls: [COUNT],
          ...asking,
        },
        version: "2025-03-26",
        texts: [said],
      },
      {
        name: "serveHttp of both eras, auto",
        session: {
          server: dual.url.href,
          mode: "auto",
          calls: [EAT, GREET, DESCRIBE],
          ...asking,
          listen: "change",
        },
        version: "2026-07-28",
        heard: /^ToolsListChanged$/,
        texts: ["ate", "ice cream, Ada", JSON.stringify(ORDER)],
      },
      {
        name: "serveHttp of both eras, the handshake",
        session: {
          server: dual.url.href,
          mode: "legacy",
          calls: [EAT, GREET],
          ...asking,
          listen: "change",
        },
        version: "2025-11-25",
        heard: /^cannot listen/,
        texts: ["ate", "ice cream, Ada"],
      },
      {
        name: "serveHttp of both eras, the handshake at 2025-06-18",
        session: {
          server: dual.url.href,
          mode: "legacy",
          offer: "2025-06-18",
          calls: [EAT, GREET, DESCRIBE],
          ...asking,
        },
        version: "2025-06-18",
        texts: ["ate", "ice cream, Ada", JSON.stringify(ORDER)],
      },
      {
        name: "serveHttp of 2026-07-28 alone, auto",
        session: {
          server: modern.url.href,
          mode: "auto",
          calls: [EAT, GREET],
          ...asking,
          listen: "change",
        },
        version: "2026-07-28",
        heard: /^ToolsListChanged$/,
        texts: ["ate", "ice cream, Ada"],
      },
      {
        name: "serveHttp of 2026-07-28 alone, the handshake",
        session: { server: modern.url.href, mode: "legacy", calls: [EAT] },
        refused: /2026-07-28/,
        judgedAt: "2026-07-28",
      },
      {
        name: "serveHttp of 2025-03-26 alone, auto",
        session: { server: early.url.href, mode: "auto", calls: [EAT, DESCRIBE] },
        version: "2025-03-26",
        texts: ["ate", JSON.stringify(ORDER)],
      },
    ];
    // Each stdio session through a tap of its own, each HTTP session through a proxy of its own.
    const logs: (string | undefined)[] = [];
    const proxies: (RecordingProxy | undefined)[] = [];
    const sessions = await Promise.all(cases.map(async ({ session }, index) => {
      if (typeof session.server === "string") {
        proxies[index] = recordingProxy(new URL(session.server));
        return { ...session, server: proxies[index]!.url.href };
      }
      logs[index] = await Deno.makeTempFile({ prefix: "python-sdk-tap-" });
      return { ...session, server: tapped(logs[index]!, session.server) };
    }));
    try {
      const seen = await pythonClient(sessions);
      for (const [index, { name, version, refused, judgedAt, texts, heard }] of cases.entries()) {
        const saw = seen[index];
        if (refused !== undefined) {
          assert.match(saw.error ?? "", refused, `${name}: ${JSON.stringify(saw)}`);
        } else {
          assert.equal(saw.error, undefined, `${name}: ${saw.error}`);
          assert.equal(saw.protocolVersion, version, name);
          assert.deepEqual(saw.calls?.map((call) => call.text), texts, name);
          if (heard !== undefined) assert.match(saw.heard ?? "", heard, name);
          // Structured content, only where the version has it (from 2025-06-18).
          for (const [call, [tool]] of (cases[index].session.calls ?? []).entries()) {
            if (tool !== "describe") continue;
            assert.deepEqual(saw.calls![call].structured, version! >= "2025-06-18" ? ORDER : null);
          }
        }
        const agreed = judgedAt ?? version!;
        if (proxies[index] !== undefined) {
          await proxies[index]!.settled();
          assert.deepEqual(
            eraSlips(httpWire(proxies[index]!.exchanges), agreed, "server"),
            [],
            name,
          );
        } else {
          for (const { tap, serverPid, wire } of tapWires(await Deno.readTextFile(logs[index]!))) {
            assertProcessGone(tap);
            assertProcessGone(serverPid);
            assert.deepEqual(eraSlips(wire, agreed, "server"), [], name);
          }
        }
      }
    } finally {
      for (const proxy of proxies) await proxy?.[Symbol.asyncDispose]();
      for (const log of logs) if (log !== undefined) await Deno.remove(log);
    }
  },
});

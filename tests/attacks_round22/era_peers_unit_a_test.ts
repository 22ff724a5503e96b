// Round 22 of the red team, part 1: the learners' release's Client, given a
// learner's own Unit A functions (the library's answerFor and authorize are
// withheld there, stubs that throw WithheldError), against peers of both
// eras: the SDK's v2 server (@modelcontextprotocol/server 2.4.0, 2026-07-28
// and the handshake), its 1.x server (@modelcontextprotocol/sdk 1.32.2, the
// handshake), and a hand-written peer of either era that answers what no
// careful client may take (fixtures/round22_era_peer.ts). The release's
// Client is the library's (only answer.ts and allowlist.ts differ), so it is
// run here with what the release hands it: the stubs `deno task release`
// writes, and a learner's functions.
// What failed:
// - A learner who gave the release's answerFor or authorize (lib/mcp/mod.ts
//   still exports both, as stubs) as the Client's option was told "pass your
//   answerFor as the Client's answer option": what they had done. They are
//   now told the option they gave is the withheld one.
// - An answerFor of the learner's whose refusal is an error of its own class
//   (a `class ProtocolError extends Error` of theirs passes Unit A's cases,
//   which judge an error by its name) left every later request with "A reply
//   was refused", no reason given: it now says what their function said.
// What held (kept here, compactly): the worked Unit A and a learner's that
// passes its visible cases (its own error class, an authorize that lower-
// cases names) get the right answer from the SDK servers of both eras;
// refuse a reply carrying the other request's id, in either era; time out on
// a late reply and drop it when it comes, the next calls answered; refuse an
// initialize result to server/discover from a modern-only server; and end a
// server that forks and exits with its process group.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client, type ClientOptions } from "../../lib/mcp/client/client.ts";
import { answerFor } from "../../lib/mcp/client/answer.ts";
import { authorize } from "../../lib/mcp/client/allowlist.ts";
import { TimeoutError } from "../../lib/mcp/shared/errors.ts";
import type { JsonRpcResponse, RequestId } from "../../lib/mcp/shared/jsonrpc.ts";
import { MCP_VERSIONS } from "../../lib/mcp/shared/versions.ts";
import { withheldStub } from "../../tools/release/withheld.ts";
import { assertGroupGone } from "../_helpers.ts";
import { sdkFixtureCommand } from "../_interop.ts";
import { sdkV2Peer } from "../_peers.ts";

const PEER = fileURLToPath(new URL("../fixtures/round22_era_peer.ts", import.meta.url));

/** The hand-written peer of `era` that behaves as `mode` says. */
const eraPeer = (era: string, mode: string) => [
  Deno.execPath(),
  "run",
  "--no-config",
  "--quiet",
  "--allow-run=sleep",
  PEER,
  era,
  mode,
];

/** The release's answer.ts and allowlist.ts, as `deno task release` writes them, imported. */
const withheld = await (async () => {
  const folder = await Deno.makeTempDir({ prefix: "round 22 withheld " });
  try {
    const answer = `${folder}/answer.ts`;
    const allowlist = `${folder}/allowlist.ts`;
    await Deno.writeTextFile(answer, withheldStub("lib/mcp/client/answer.ts", ["answerFor"]));
    await Deno.writeTextFile(allowlist, withheldStub("lib/mcp/client/allowlist.ts", ["authorize"]));
    return {
      answer: (await import(`file://${answer}`)).answerFor,
      authorize: (await import(`file://${allowlist}`)).authorize,
    } as Pick<ClientOptions, "answer" | "authorize">;
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
})();

/** The worked Unit A's functions (the library's are the same code). */
const WORKED: ClientOptions = { answer: answerFor, authorize };

/** A learner's own error class: Unit A's cases judge an error by its name. */
class TheirProtocolError extends Error {
  override name = "ProtocolError";
}

/** A learner's Unit A that passes its visible cases: its own error class, names lower-cased. */
const THEIRS: ClientOptions = {
  answer: (requestId: RequestId, message: JsonRpcResponse) => {
    if (message.id !== requestId) throw new TheirProtocolError("not the reply I am waiting for");
    if ("error" in message) throw new TheirProtocolError(message.error.message);
    return message.result;
  },
  authorize: (name, catalog, allowed) => {
    const lower = name.toLowerCase();
    return Object.keys(catalog).some((tool) => tool.toLowerCase() === lower) &&
      [...allowed].some((tool) => tool.toLowerCase() === lower);
  },
};

/** What each step came to: the call's text, or the error's class and message. */
async function outcome(step: () => Promise<unknown>): Promise<string> {
  try {
    const result = await step();
    return typeof result === "string" ? result : "ok";
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

/**
 * Connect to `server` with `options`, list its tools and call `tool` with
 * each of `calls` in turn (`wait` first, when given, before each call after
 * the first): what each step came to. The server's process group is gone
 * once it is closed.
 */
async function session(
  server: string[],
  options: ClientOptions,
  tool: string,
  calls: Record<string, unknown>[],
  wait?: () => Promise<void>,
): Promise<string[]> {
  const client = new Client(server, { allowed: [tool], ...options });
  const pid = client.pid;
  const said: string[] = [];
  try {
    said.push(await outcome(() => client.initialize({ timeoutMs: 30_000 })));
    said.push(await outcome(() => client.listTools()));
    for (const [n, args] of calls.entries()) {
      if (n > 0) await wait?.();
      said.push(await outcome(() => client.callTool(tool, args)));
    }
  } finally {
    await client.close();
  }
  assertGroupGone(pid);
  return said;
}

const WORDS = { text: "one two three" };

Deno.test("a learner who gives the release's own answerFor as the answer option is not told to give it", async () => {
  const said = await session(
    sdkV2Peer("dual"),
    {
      ...withheld,
      versions: MCP_VERSIONS,
    },
    "word_count",
    [WORDS],
  );
  assert.deepEqual(said.slice(1), [
    "Error: Call initialize() before listTools()",
    "Error: Call initialize() before callTool()",
  ]);
  assert.match(
    said[0],
    /^ProtocolError: A reply cannot be checked: answerFor \(lib\/mcp\/client\/answer\.ts\) is withheld .*; the answer option you gave is that withheld answerFor: give your own, Unit A's$/,
  );
  assert.doesNotMatch(said[0], /pass your answerFor|\n/);
});

Deno.test("a learner who gives the release's own authorize as the authorize option is not told to give it", async () => {
  const said = await session(
    eraPeer("legacy", "normal"),
    { answer: THEIRS.answer, authorize: withheld.authorize },
    "word_count",
    [WORDS],
  );
  assert.deepEqual(said.slice(0, 2), ["ok", "ok"]);
  assert.match(
    said[2],
    /^PermissionDenied: No tool is called: authorize \(lib\/mcp\/client\/allowlist\.ts\) is withheld .*; the authorize option you gave is that withheld authorize: give your own, Unit A's$/,
  );
  assert.doesNotMatch(said[2], /pass your authorize|\n/);
});

Deno.test("an answerFor of the learner's own error class refuses the other request's reply, and later requests say why", async () => {
  for (const [era, versions] of [["legacy", undefined], ["modern", MCP_VERSIONS]] as const) {
    const said = await session(
      eraPeer(era, "other-id"),
      { ...THEIRS, ...(versions ? { versions } : {}) },
      "word_count",
      [WORDS, WORDS],
    );
    assert.deepEqual(said, [
      "ok",
      "ok",
      "ProtocolError: not the reply I am waiting for",
      "ProtocolError: A reply was refused: ProtocolError: not the reply I am waiting for",
    ], era);
  }
});

Deno.test("the worked Unit A and a learner's get the right answer from the SDK's servers of both eras", async () => {
  const runs: [string, string[], ClientOptions, string, Record<string, unknown>, string][] = [
    [
      "v2, 2026-07-28",
      sdkV2Peer("dual"),
      { ...WORKED, versions: MCP_VERSIONS },
      "word_count",
      WORDS,
      "3",
    ],
    ["v2, handshake", sdkV2Peer("dual"), THEIRS, "word_count", WORDS, "3"],
    [
      "v1, handshake",
      sdkFixtureCommand("sdk_server.ts"),
      { ...THEIRS, versions: MCP_VERSIONS },
      "add",
      { a: 2, b: 3 },
      "5",
    ],
  ];
  for (const [name, server, options, tool, args, expected] of runs) {
    assert.deepEqual(await session(server, options, tool, [args]), ["ok", "ok", expected], name);
  }
});

Deno.test("what a hostile peer of either era sends is refused, and no process is left", async () => {
  // A reply carrying the other request's id, to the worked Unit A.
  const other = await session(
    eraPeer("modern", "other-id"),
    {
      ...WORKED,
      versions: MCP_VERSIONS,
    },
    "word_count",
    [WORDS],
  );
  assert.deepEqual(other.slice(0, 2), ["ok", "ok"]);
  assert.match(other[2], /^ProtocolError: The reply's id \d+ does not match the request's id \d+$/);

  // An initialize result to server/discover, from a server of 2026-07-28 alone.
  const shaped = await session(
    eraPeer("modern", "init-for-discover"),
    {
      ...THEIRS,
      versions: MCP_VERSIONS,
    },
    "word_count",
    [],
  );
  assert.match(
    shaped[0],
    /^ProtocolError: The server and this client share no version: .*not a DiscoverResult$/,
  );

  // A server that forks and exits: refused at once, its group ended with it.
  const forked = await session(
    eraPeer("dual", "fork-exit"),
    {
      ...THEIRS,
      versions: MCP_VERSIONS,
    },
    "word_count",
    [WORDS],
  );
  assert.deepEqual(forked.slice(0, 2), ["ok", "ok"]);
  assert.match(forked[2], /^ProtocolError: The server exited/);
});

Deno.test("a late reply is a timeout, dropped when it comes; the calls after it get their own answers", async () => {
  const wire: string[] = [];
  const late = Promise.withResolvers<void>();
  let waited = 0;
  const said = await session(
    eraPeer("dual", "late"),
    {
      ...THEIRS,
      versions: MCP_VERSIONS,
      timeoutMs: 2000,
      transcript: (direction, line) => {
        wire.push(`${direction} ${line}`);
        if (direction === "<" && line.includes("WRONG")) late.resolve();
      },
    },
    "word_count",
    [WORDS, { text: "one two" }, { text: "one" }],
    // The second call at once; the third once the late reply has come.
    async () => {
      if (waited++ === 1) await late.promise;
    },
  );
  assert.equal(said.slice(0, 2).join(), "ok,ok");
  assert.match(said[2], new RegExp(`^${TimeoutError.name}: tools/call \\(id \\d+\\) had no reply`));
  assert.deepEqual(said.slice(3), ["2", "1"]);
  assert.ok(wire.some((line) => line.includes("WRONG")), "the late reply came");
  assert.ok(!said.includes("WRONG"));
});

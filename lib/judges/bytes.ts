/**
 * The first judge of a server: a hand-crafted byte stream of both eras of
 * MCP, written to the server's stdin in awkward pieces (a message split in
 * two, several in one write, a write that ends inside a UTF-8 character),
 * then the end of input. It opens as a client of both eras does, with
 * `server/discover`, speaks 2026-07-28 (every request's `_meta` naming it),
 * then shakes hands as a 2025 client would and calls once more. Every line
 * the server writes on stdout must be a JSON-RPC message; the replies must
 * come in order, one for each request and none for the notification; each
 * result must be of its request's era (today's marked `resultType:
 * "complete"`, the handshake's not); the server must exit by itself with
 * status 0.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { sleep } from "../mcp/shared/_async.ts";
import { readFrames } from "../mcp/shared/framing.ts";
import { isObject, type JsonObject, parseMessage } from "../mcp/shared/jsonrpc.ts";
import { META } from "../mcp/shared/meta.ts";
import { describeExit, ServerProcess } from "../mcp/client/server_process.ts";
import { answerFrom, CANONICAL_CALLS, type ClientReport, verdictOf } from "./expected.ts";

/** Today's version, which every modern request of the stream names. */
const MODERN = "2026-07-28";
/** The version the stream asks for in its handshake. */
const HANDSHAKE = "2025-06-18";

/** The `_meta` of a request of `version`, from a client called "à mano". */
const meta = (version: string) => ({
  [META.protocolVersion]: version,
  [META.clientCapabilities]: {},
  [META.clientInfo]: { name: "à mano", version: "1.0.0" },
});

const request = (id: string | number, method: string, params: JsonObject) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });

const call = (id: number, name: string, args: JsonObject, version = MODERN) =>
  request(id, "tools/call", { name, arguments: args, _meta: meta(version) });

/** The whole stream, one message a line: what a client of both eras sends, and four mistakes. */
export const HAND_CRAFTED: readonly string[] = [
  request("discover", "server/discover", { _meta: meta(MODERN) }),
  request("list", "tools/list", { _meta: meta(MODERN) }),
  ...CANONICAL_CALLS.map(([name, args], index) => call(3 + index, name, args)),
  "this line is not JSON",
  call(7, "not_a_tool", {}),
  call(8, "conjugate", { verb: "run", tense: "past_simple", person: "3sg" }),
  call(9, "conjugate", { verb: "eat", tense: "past_simple", person: "3sg" }, "2099-01-01"),
  request(10, "initialize", {
    protocolVersion: HANDSHAKE,
    capabilities: {},
    clientInfo: { name: "à mano", version: "1.0.0" },
  }),
  '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  JSON.stringify({
    jsonrpc: "2.0",
    id: 11,
    method: "tools/call",
    params: { name: "conjugate", arguments: { verb: "eat", tense: "past_simple", person: "3sg" } },
  }),
];

/** The ids the replies must carry, in order: none for the notification. */
export const REPLY_IDS: readonly (string | number | null)[] = [
  "discover",
  "list",
  3,
  4,
  5,
  6,
  null,
  7,
  8,
  9,
  10,
  11,
];

/** The ids of the requests of today's protocol, whose results must say they are complete. */
const MODERN_IDS = ["discover", "list", 3, 4, 5, 6, 8];

/**
 * The stream cut into the pieces it is written in: the middle of the `à` in
 * the first message's client name falls between the first two pieces; the
 * second ends 20 bytes into the second message, the third after the fourth,
 * the fourth after the sixth, and the last holds the rest.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const pieces = handCraftedPieces();
 * const joined = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
 * pieces.reduce((at, p) => (joined.set(p, at), at + p.length), 0);
 * assert.equal(new TextDecoder().decode(joined), HAND_CRAFTED.join("\n") + "\n");
 * assert.throws(() => new TextDecoder("utf-8", { fatal: true }).decode(pieces[0]));
 * ```
 */
export function handCraftedPieces(): Uint8Array[] {
  const bytes = new TextEncoder().encode(HAND_CRAFTED.join("\n") + "\n");
  const inside = bytes.indexOf(0xc3) + 1; // between the two bytes of "à"
  const secondLine = bytes.indexOf(0x0a) + 1;
  const halfSecond = secondLine + 20;
  const afterFourth = nthNewline(bytes, 4);
  const afterSixth = nthNewline(bytes, 6);
  const cuts = [inside, halfSecond, afterFourth, afterSixth, bytes.length];
  return cuts.map((end, i) => bytes.slice(i === 0 ? 0 : cuts[i - 1], end));
}

/** Options for {@linkcode judgeWithBytes}. */
export interface BytesOptions {
  /** The pause between two pieces, so that each arrives in a read of its own. @default {20} */
  pauseMs?: number;
}

/**
 * Start `command`, write the hand-crafted stream, close its input, and judge
 * everything it wrote and how it ended. The server is always ended.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grammarCommand } from "../course/course.ts";
 *
 * const report = await judgeWithBytes(grammarCommand());
 * assert.equal(report.answers.conjugate, "ate");
 * assert.equal(report.errors.not_json, -32700);
 * assert.equal(report.errors.unknown_tool, -32602);
 * ```
 */
export async function judgeWithBytes(
  command: readonly string[],
  options: BytesOptions = {},
): Promise<ClientReport> {
  const server = new ServerProcess(command, { graceMs: 2000 });
  const problems: string[] = [];
  const replies: JsonObject[] = [];
  const reading = (async () => {
    for await (const frames of readFrames(server.stdout, { signal: server.closed })) {
      for (const frame of frames) {
        try {
          replies.push(parseMessage(frame) as unknown as JsonObject);
        } catch (error) {
          problems.push(
            `stdout held a line that is not a JSON-RPC message: ${(error as Error).message}`,
          );
        }
      }
    }
  })().catch((error) => problems.push(`reading stdout failed: ${(error as Error).message}`));
  let status: Deno.CommandStatus;
  try {
    for (const piece of handCraftedPieces()) {
      await server.send(piece);
      await sleep(options.pauseMs ?? 20);
    }
  } catch (error) {
    problems.push(`writing to the server failed: ${(error as Error).message}`);
  } finally {
    status = await server.close();
    await reading;
  }
  if (status.code !== 0 || status.signal !== null) {
    const tail = server.stderrLines().slice(-3).join(" | ");
    problems.push(
      `the server's exit was ${describeExit(status)}, expected 0${tail ? `: ${tail}` : ""}`,
    );
  }
  const ids = replies.map((reply) => reply.id);
  if (!isDeepStrictEqual(ids, REPLY_IDS)) {
    problems.push(
      `the replies' ids were ${JSON.stringify(ids)}, expected ${JSON.stringify(REPLY_IDS)}`,
    );
  }
  const byId = new Map(replies.map((reply) => [reply.id, reply]));
  for (const id of MODERN_IDS) {
    const result = byId.get(id)?.result;
    if (isObject(result) && result.resultType !== "complete") {
      problems.push(
        `the 2026-07-28 result of request ${JSON.stringify(id)} is not marked complete`,
      );
    }
  }
  const handshake = byId.get(11)?.result;
  if (isObject(handshake) && "resultType" in handshake) {
    problems.push("the handshake's call was answered with a result of 2026-07-28 (resultType)");
  }
  const list = byId.get("list")?.result;
  const tools = isObject(list) && Array.isArray(list.tools)
    ? list.tools.map((tool) => String(isObject(tool) ? tool.name : tool))
    : [];
  const answers = Object.fromEntries(
    CANONICAL_CALLS.map(([name], index) => [name, answerOf(name, byId.get(3 + index))]),
  );
  const handshakeAnswer = answerOf("conjugate", byId.get(11));
  if (handshakeAnswer !== "ate") {
    problems.push(
      `conjugate answered ${
        JSON.stringify(handshakeAnswer) ?? "nothing"
      } after the handshake, expected "ate"`,
    );
  }
  const errors = {
    not_json: errorOf(byId.get(null)),
    unknown_tool: errorOf(byId.get(7)),
    out_of_scope: errorOf(byId.get(8)),
    unsupported_version: errorOf(byId.get(9)),
  };
  return verdictOf("bytes", { spoke: spokenWith(byId), tools, answers, errors, problems }, {
    not_json: -32700,
    unknown_tool: -32602,
    out_of_scope: "isError",
    unsupported_version: -32022,
  });
}

/**
 * The versions the stream spoke with the server, in order: 2026-07-28 when
 * the server's `server/discover` named it, then the version its
 * `initialize` agreed on.
 */
function spokenWith(byId: Map<unknown, JsonObject>): string[] {
  const discovered = byId.get("discover")?.result;
  const modern = isObject(discovered) && Array.isArray(discovered.supportedVersions) &&
    discovered.supportedVersions.includes(MODERN);
  const agreed = byId.get(10)?.result;
  const handshake = isObject(agreed) && typeof agreed.protocolVersion === "string"
    ? [agreed.protocolVersion]
    : [];
  return [...(modern ? [MODERN] : []), ...handshake];
}

/** A tool result's answer; `undefined` for anything else. */
function answerOf(tool: string, reply: JsonObject | undefined): unknown {
  const result = reply?.result;
  if (!isObject(result) || result.isError === true || !Array.isArray(result.content)) {
    return undefined;
  }
  const item = result.content[0];
  return isObject(item) && typeof item.text === "string" ? answerFrom(tool, item.text) : undefined;
}

/** A reply's error code, `"isError"` for a tool's failure, `"result"`, or `"no reply"`. */
function errorOf(reply: JsonObject | undefined): number | string {
  if (reply === undefined) return "no reply";
  if (isObject(reply.error)) return reply.error.code as number;
  return isObject(reply.result) && reply.result.isError === true ? "isError" : "result";
}

function nthNewline(bytes: Uint8Array, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i++) at = bytes.indexOf(0x0a, at + 1);
  return at + 1;
}

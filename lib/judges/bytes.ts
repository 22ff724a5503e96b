/**
 * The first judge of a server: a hand-crafted byte stream, written to the
 * server's stdin in awkward pieces (a message split in two, several in one
 * write, a write that ends inside a UTF-8 character), then the end of input.
 * Every line the server writes on stdout must be a JSON-RPC message; the
 * replies must come in order, one for each request and none for the
 * notification; the server must exit by itself with status 0.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { sleep } from "../mcp/shared/_async.ts";
import { readFrames } from "../mcp/shared/framing.ts";
import { isObject, type JsonObject, parseMessage } from "../mcp/shared/jsonrpc.ts";
import { describeExit, ServerProcess } from "../mcp/client/server_process.ts";
import { answerFrom, CANONICAL_CALLS, type ClientReport, verdictOf } from "./expected.ts";

const call = (id: number, name: string, args: JsonObject) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "à mano", version: "1.0.0" },
  },
});

/** The whole stream, one message a line: what a client would send, and three mistakes. */
export const HAND_CRAFTED: readonly string[] = [
  initialize,
  '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  '{"jsonrpc":"2.0","id":"list","method":"tools/list"}',
  ...CANONICAL_CALLS.map(([name, args], index) => call(3 + index, name, args)),
  "this line is not JSON",
  call(7, "not_a_tool", {}),
  call(8, "conjugate", { verb: "run", tense: "past_simple", person: "3sg" }),
];

/** The ids the replies must carry, in order: none for the notification. */
export const REPLY_IDS: readonly (string | number | null)[] = [1, "list", 3, 4, 5, 6, null, 7, 8];

/**
 * The stream cut into the pieces it is written in: the first message and
 * half of the second, then the rest of it, then the middle of the `à` in
 * the first message's client name falls between the first two pieces.
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
 * assert.equal(report.status, "PASSED");
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
  const list = byId.get("list")?.result;
  const tools = isObject(list) && Array.isArray(list.tools)
    ? list.tools.map((tool) => String(isObject(tool) ? tool.name : tool))
    : [];
  const answers = Object.fromEntries(
    CANONICAL_CALLS.map(([name], index) => [name, answerOf(name, byId.get(3 + index))]),
  );
  const errors = {
    not_json: errorOf(byId.get(null)),
    unknown_tool: errorOf(byId.get(7)),
    out_of_scope: errorOf(byId.get(8)),
  };
  return verdictOf("bytes", { tools, answers, errors, problems }, {
    not_json: -32700,
    unknown_tool: -32602,
    out_of_scope: "isError",
  });
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

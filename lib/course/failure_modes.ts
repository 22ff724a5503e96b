/**
 * Every mode of the teaching server, run through a client: what it reported,
 * how long it took, what reached the server, and whether anything was left
 * running. The table Unit B builds, and `deno task course` prints.
 *
 * @module
 */

import type { AnswerFunction } from "../mcp/client/connection_options.ts";
import type { Authorize } from "../mcp/client/tool_call.ts";
import { Client } from "../mcp/client/client.ts";
import { freshLog, serverCalls, serverCommand } from "./course.ts";
import type { SplitFrames } from "../mcp/shared/framing.ts";
import { liveMembers } from "../mcp/client/process_group.ts";
import { describeExit } from "../mcp/client/server_process.ts";

/** The outcome a careful client should reach in each mode, with a one-second deadline for each call. */
export const EXPECTED_OUTCOMES = {
  "normal": "answered 4 and 3",
  "wrong-id": "ProtocolError",
  "stale": "ProtocolError",
  "oversized": "ProtocolError",
  "stdout-log": "ProtocolError",
  "stderr-log": "answered 4 and 3",
  "notify": "answered 4 and 3",
  "hang": "TimeoutError",
  "old-version": "ProtocolError",
  "lingering": "answered 4 and 3",
} as const;

/** A mode of the teaching server. */
export type TeachingMode = keyof typeof EXPECTED_OUTCOMES;

/** Every mode, in the order the course runs them. */
export const TEACHING_MODES = Object.keys(EXPECTED_OUTCOMES) as TeachingMode[];

/** The two questions asked in every mode, and the words in each. */
export const QUESTIONS = ["vanilla stock needs review", "one two three"] as const;

/** What happened in one mode. */
export interface ModeOutcome {
  mode: string;
  /** `answered A and B`, or the name of the error that ended the attempt. */
  outcome: string;
  /** The error's message, when there was one. */
  detail: string;
  /** Seconds from starting the server until it had been closed. */
  seconds: number;
  /** How many `tools/call` the server's own log recorded. */
  serverCalls: number;
  /** How the server exited: `0`, `143 (SIGTERM)`, ... */
  exit: string;
  /** Processes of the server's group still alive after `close()`. */
  leftRunning: number;
}

/** Options for {@linkcode tryMode}. */
export interface TryModeOptions {
  /** The tools the client may call. @default {["word_count"]} */
  allowed?: Iterable<string>;
  /** The deadline for each request after the handshake. @default {1000} */
  timeoutMs?: number;
  /** The frame splitter the client reads with. @default {the library's splitFrames} */
  splitFrames?: SplitFrames;
  /** The reply check the client uses. @default {the library's answerFor} */
  answer?: AnswerFunction;
  /** The allowlist check the client uses. @default {the library's authorize} */
  authorize?: Authorize;
}

/**
 * The handshake's deadline: a server just started may take seconds to answer
 * on a busy machine, and the short deadline is for the calls a mode is about.
 */
export const HANDSHAKE_MS = 30_000;

/**
 * Start the teaching server in `mode`, handshake (with a deadline of
 * {@linkcode HANDSHAKE_MS}), list its tools, ask both {@linkcode QUESTIONS}
 * with `word_count`, close it, and report.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const row = await tryMode("stale");
 * assert.equal(row.outcome, "ProtocolError");
 * assert.equal(row.leftRunning, 0);
 * ```
 */
export async function tryMode(mode: string, options: TryModeOptions = {}): Promise<ModeOutcome> {
  const log = await freshLog(mode);
  const started = performance.now();
  const client = new Client(serverCommand(mode, log), {
    allowed: options.allowed ?? ["word_count"],
    timeoutMs: options.timeoutMs ?? 1000,
    splitFrames: options.splitFrames,
    answer: options.answer,
    authorize: options.authorize,
  });
  let outcome: string;
  let detail = "";
  try {
    await client.initialize({ timeoutMs: HANDSHAKE_MS });
    await client.listTools();
    const answers = [];
    for (const text of QUESTIONS) answers.push(await client.callTool("word_count", { text }));
    outcome = `answered ${answers.join(" and ")}`;
  } catch (error) {
    outcome = error instanceof Error ? error.name : typeof error;
    detail = error instanceof Error ? error.message : String(error);
  }
  const status = await client.close();
  return {
    mode,
    outcome,
    detail,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    serverCalls: (await serverCalls(log)).length,
    exit: describeExit(status),
    leftRunning: liveMembers(client.pid)?.length ?? 0,
  };
}

/** Run {@linkcode tryMode} for each of `modes` in turn, yielding each row as it finishes. */
export async function* tryModes(
  modes: readonly string[] = TEACHING_MODES,
  options: TryModeOptions = {},
): AsyncGenerator<ModeOutcome> {
  for (const mode of modes) yield await tryMode(mode, options);
}

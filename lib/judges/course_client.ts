/**
 * The second judge of a server: the course's own careful `Client`, which
 * refuses any reply it cannot trust, speaking both eras as a client of today
 * does: it probes with `server/discover` and speaks 2026-07-28 with a server
 * that answers it (the handshake only with one that does not, which this
 * judge then fails). It lists the tools, makes the four canonical calls,
 * calls `conjugate` with `run` (a tool error), and closes the server, which
 * must then exit by itself with status 0.
 *
 * @module
 */

import { Client } from "../mcp/client/client.ts";
import { describeExit } from "../mcp/client/server_process.ts";
import { MCP_VERSIONS } from "../mcp/shared/versions.ts";
import type { AnswerFunction } from "../mcp/client/connection_options.ts";
import type { Authorize } from "../mcp/client/tool_call.ts";
import {
  answerFrom,
  CANONICAL_CALLS,
  type ClientReport,
  GRAMMAR_TOOL_NAMES,
  verdictOf,
} from "./expected.ts";

/** Options for {@linkcode judgeWithCourseClient}. */
export interface CourseClientOptions {
  /** The deadline of each request after the handshake. @default {5000} */
  timeoutMs?: number;
  /**
   * The handshake's deadline: the server is just starting, which a busy
   * machine makes slow. @default {30000}
   */
  handshakeMs?: number;
  /**
   * The reply check the `Client` uses (Lab 01 passes the learner's Unit A
   * `answerFor`). @default {the library's answerFor}
   */
  answer?: AnswerFunction;
  /**
   * The allowlist check the `Client` uses (the learner's Unit A
   * `authorize`). @default {the library's authorize}
   */
  authorize?: Authorize;
}

/**
 * Judge the server `command` with the course's `Client`. The server is always ended.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grammarCommand } from "../course/course.ts";
 *
 * const report = await judgeWithCourseClient(grammarCommand());
 * assert.equal(report.answers.conjugate, "ate");
 * assert.deepEqual(report.errors, { out_of_scope: "ToolError" });
 * ```
 */
export async function judgeWithCourseClient(
  command: readonly string[],
  options: CourseClientOptions = {},
): Promise<ClientReport> {
  const problems: string[] = [];
  const observed = {
    spoke: [] as string[],
    tools: [] as string[],
    answers: {} as Record<string, unknown>,
  };
  const errors: Record<string, string> = {};
  const client = new Client(command, {
    versions: MCP_VERSIONS,
    allowed: GRAMMAR_TOOL_NAMES,
    timeoutMs: options.timeoutMs ?? 5000,
    answer: options.answer,
    authorize: options.authorize,
  });
  try {
    await client.initialize({ timeoutMs: options.handshakeMs ?? 30_000 });
    observed.spoke = [client.protocolVersion!];
    observed.tools = Object.keys(await client.listTools());
    for (const [name, args] of CANONICAL_CALLS) {
      observed.answers[name] = answerFrom(name, await client.callTool(name, args));
    }
    try {
      await client.callTool("conjugate", { verb: "run", tense: "past_simple", person: "3sg" });
      errors.out_of_scope = "result";
    } catch (error) {
      errors.out_of_scope = (error as Error).name;
    }
  } catch (error) {
    problems.push(`${(error as Error).name}: ${(error as Error).message}`);
  } finally {
    const status = await client.close();
    if (status.code !== 0 || status.signal !== null) {
      problems.push(`the server's exit was ${describeExit(status)}, expected 0`);
    }
  }
  return verdictOf("course", { ...observed, errors, problems }, { out_of_scope: "ToolError" });
}

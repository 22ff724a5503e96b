/**
 * Two judges of a server: the official MCP TypeScript SDK's clients, each
 * over its own stdio transport, as MCP hosts use them. The v2 `Client`
 * (`@modelcontextprotocol/client`) is pinned to 2026-07-28: every request
 * names that version in `_meta`, and it refuses a result that does not say it
 * is complete or a list without caching hints. The 1.x `Client`
 * (`@modelcontextprotocol/sdk`) speaks the handshake: it asks for the newest
 * version it knows, and takes what the server negotiates. Each lists the
 * tools, makes the four canonical calls, and sees what an unknown tool and
 * arguments outside the schema come back as: a JSON-RPC error (-32602) for
 * the unknown tool in both eras; for the arguments, a tool's failure
 * (`isError`) at 2026-07-28 and -32602 through 2025-06-18's handshake. Each
 * goes on past a line it cannot read, or a reply to no request; each such
 * complaint is a problem here.
 *
 * The 1.x package gives the types of `client/index.js` at a path that does
 * not exist, so each of its imports names its types with `@ts-types`.
 *
 * @module
 */

import { Client as SdkV2Client } from "@modelcontextprotocol/client";
import { StdioClientTransport as SdkV2StdioTransport } from "@modelcontextprotocol/client/stdio";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { isObject } from "../mcp/shared/jsonrpc.ts";
import { answerFrom, CANONICAL_CALLS, type ClientReport, verdictOf } from "./expected.ts";

/** Options for {@linkcode judgeWithSdkClient} and {@linkcode judgeWithSdkV2Client}. */
export interface SdkClientOptions {
  /** The deadline of each request after the handshake. @default {5000} */
  timeoutMs?: number;
  /**
   * The handshake's deadline: the server is just starting, which a busy
   * machine makes slow. @default {30000}
   */
  handshakeMs?: number;
}

/** The version the SDK's v2 client is pinned to. */
const MODERN = "2026-07-28";

/** What the two SDK clients have in common, as a judge uses them. */
interface SdkJudged {
  connect(transport: never, options: { timeout: number }): Promise<void>;
  listTools(
    params: undefined,
    options: { timeout: number },
  ): Promise<{ tools: { name: string }[] }>;
  callTool(
    params: { name: string; arguments: Record<string, unknown> },
    schema?: undefined,
    options?: { timeout: number },
  ): Promise<unknown>;
  close(): Promise<void>;
  onerror?: (error: Error) => void;
}

/** A transport of either SDK, as a judge uses it. */
interface SdkTransport {
  stderr: { on(event: "data", listener: (chunk: Uint8Array) => void): unknown } | null;
}

/**
 * Judge the server `command` with the SDK's 1.x `Client`, which speaks the
 * handshake. The server is always ended.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grammarCommand } from "../course/course.ts";
 *
 * const report = await judgeWithSdkClient(grammarCommand());
 * assert.equal(report.answers.lookup_spanish, "comió");
 * ```
 */
export function judgeWithSdkClient(
  command: readonly string[],
  options: SdkClientOptions = {},
): Promise<ClientReport> {
  const [program, ...args] = command;
  const transport = new StdioClientTransport({ command: program, args, stderr: "pipe" });
  const spoke: string[] = [];
  // The client tells a transport the version the handshake agreed on, where the transport asks.
  Object.assign(transport, { setProtocolVersion: (version: string) => spoke.push(version) });
  const client = new SdkClient({ name: "lab-01-judge", version: "1.0.0" });
  return judgeWith("sdk", client as unknown as SdkJudged, transport, {
    spoke: () => spoke,
    invalidArguments: -32602,
    timeoutMs: options.timeoutMs,
    handshakeMs: options.handshakeMs,
  });
}

/**
 * Judge the server `command` with the SDK's v2 `Client`, pinned to
 * 2026-07-28. The server is always ended.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grammarCommand } from "../course/course.ts";
 *
 * const report = await judgeWithSdkV2Client(grammarCommand());
 * // A server passes when nothing went wrong: one that does not speak 2026-07-28 is failed.
 * assert.equal(report.status, report.problems.length === 0 ? "PASSED" : "FAILED");
 * ```
 */
export function judgeWithSdkV2Client(
  command: readonly string[],
  options: SdkClientOptions = {},
): Promise<ClientReport> {
  const [program, ...args] = command;
  const transport = new SdkV2StdioTransport({ command: program, args, stderr: "pipe" });
  const client = new SdkV2Client({ name: "lab-01-judge", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: MODERN } },
  });
  return judgeWith("sdk_v2", client as unknown as SdkJudged, transport, {
    spoke: () => {
      const version = client.getNegotiatedProtocolVersion();
      return version === undefined ? [] : [version];
    },
    invalidArguments: "isError",
    timeoutMs: options.timeoutMs,
    handshakeMs: options.handshakeMs,
  });
}

/** How one SDK client is judged. */
interface JudgeWith {
  /** The versions the client spoke, once it has connected. */
  spoke: () => string[];
  /** What arguments outside the schema must come back as in the version it speaks. */
  invalidArguments: number | string;
  timeoutMs?: number;
  /** The handshake's deadline (the server is just starting). @default {30000} */
  handshakeMs?: number;
}

/** Judge a server with an SDK client over its `transport`. */
async function judgeWith(
  name: "sdk" | "sdk_v2",
  client: SdkJudged,
  transport: SdkTransport,
  how: JudgeWith,
): Promise<ClientReport> {
  const stderr: string[] = [];
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr.push(new TextDecoder().decode(chunk)));
  const timeout = { timeout: how.timeoutMs ?? 5000 };
  const problems: string[] = [];
  // The SDK goes on past a line it cannot read, or a reply to nothing, and says so here.
  client.onerror = (error: Error) => problems.push(`the SDK's client reported: ${error.message}`);
  const observed = {
    spoke: [] as string[],
    tools: [] as string[],
    answers: {} as Record<string, unknown>,
  };
  const errors: Record<string, number | string> = {};
  try {
    await client.connect(transport as never, { timeout: how.handshakeMs ?? 30_000 });
    observed.spoke = how.spoke();
    observed.tools = (await client.listTools(undefined, timeout)).tools.map((tool) => tool.name);
    for (const [tool, args] of CANONICAL_CALLS) {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, timeout);
      observed.answers[tool] = isObject(result) && result.isError
        ? undefined
        : answerFrom(tool, textOf(result));
    }
    errors.unknown_tool = await codeOf(
      client.callTool({ name: "not_a_tool", arguments: {} }, undefined, timeout),
    );
    errors.invalid_arguments = await codeOf(
      client.callTool({ name: "conjugate", arguments: { verb: "fly" } }, undefined, timeout),
    );
  } catch (error) {
    const tail = stderr.join("").trim().split("\n").slice(-3).join(" | ");
    problems.push(`${(error as Error).message}${tail ? ` (the server's stderr: ${tail})` : ""}`);
  } finally {
    await client.close();
  }
  return verdictOf(name, { ...observed, errors, problems }, {
    unknown_tool: -32602,
    invalid_arguments: how.invalidArguments,
  });
}

/** The text items of a tool result, joined. */
function textOf(result: unknown): string {
  const content = isObject(result) && Array.isArray(result.content) ? result.content : [];
  return content.filter((item) => isObject(item) && item.type === "text")
    .map((item) => String(item.text)).join("\n");
}

/** The JSON-RPC code a call was refused with, or what came back instead. */
async function codeOf(calling: Promise<unknown>): Promise<number | string> {
  try {
    const result = await calling;
    return isObject(result) && result.isError === true ? "isError" : "result";
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "number" ? code : (error as Error).message;
  }
}

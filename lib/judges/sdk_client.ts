/**
 * The third judge of a server: the official MCP TypeScript SDK's `Client`
 * over its own stdio transport, as an MCP host would use it. It negotiates
 * the protocol version its own way (it asks for the newest it knows), lists
 * the tools, makes the four canonical calls, and checks that an unknown tool
 * and arguments outside the schema come back as JSON-RPC errors (-32602).
 * It goes on past a line it cannot read, or a reply to no request; each such
 * complaint is a problem here.
 *
 * The SDK's package gives the types of `client/index.js` at a path that does
 * not exist, so each import names its types with `@ts-types`.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { isObject } from "../mcp/shared/jsonrpc.ts";
import { answerFrom, CANONICAL_CALLS, type ClientReport, verdictOf } from "./expected.ts";

/** Options for {@linkcode judgeWithSdkClient}. */
export interface SdkClientOptions {
  /** The deadline of each request after the handshake. @default {5000} */
  timeoutMs?: number;
  /**
   * The handshake's deadline: the server is just starting, which a busy
   * machine makes slow. @default {30000}
   */
  handshakeMs?: number;
}

/**
 * Judge the server `command` with the SDK's `Client`. The server is always ended.
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
export async function judgeWithSdkClient(
  command: readonly string[],
  options: SdkClientOptions = {},
): Promise<ClientReport> {
  const [program, ...args] = command;
  const transport = new StdioClientTransport({ command: program, args, stderr: "pipe" });
  const stderr: string[] = [];
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr.push(new TextDecoder().decode(chunk)));
  const client = new SdkClient({ name: "lab-01-judge", version: "1.0.0" });
  const timeout = { timeout: options.timeoutMs ?? 5000 };
  const problems: string[] = [];
  // The SDK goes on past a line it cannot read, or a reply to nothing, and says so here.
  client.onerror = (error: Error) => problems.push(`the SDK's client reported: ${error.message}`);
  const observed = { tools: [] as string[], answers: {} as Record<string, unknown> };
  const errors: Record<string, number | string> = {};
  try {
    await client.connect(transport, { timeout: options.handshakeMs ?? 30_000 });
    observed.tools = (await client.listTools(undefined, timeout)).tools.map((tool) => tool.name);
    for (const [name, args] of CANONICAL_CALLS) {
      const result = await client.callTool({ name, arguments: args }, undefined, timeout);
      observed.answers[name] = result.isError ? undefined : answerFrom(name, textOf(result));
    }
    errors.unknown_tool = await codeOf(client.callTool({ name: "not_a_tool", arguments: {} }));
    errors.invalid_arguments = await codeOf(
      client.callTool({ name: "conjugate", arguments: { verb: "fly" } }, undefined, timeout),
    );
  } catch (error) {
    const tail = stderr.join("").trim().split("\n").slice(-3).join(" | ");
    problems.push(`${(error as Error).message}${tail ? ` (the server's stderr: ${tail})` : ""}`);
  } finally {
    await client.close();
  }
  return verdictOf("sdk", { ...observed, errors, problems }, {
    unknown_tool: -32602,
    invalid_arguments: -32602,
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

/**
 * The fifth judge of a server: the MCP Inspector's command-line mode, the
 * tool MCP's own documentation sends server authors to, speaking the
 * handshake (`--protocol-era legacy`, its default), as a 2025-era client
 * does. Each run starts the server afresh: one run lists the tools, and one
 * run makes each canonical call.
 *
 * The Inspector is pinned in `tools/inspector/package.json` and installed by
 * `tools/setup.sh` with `npm ci`: Deno's `npm:` specifiers cannot install it,
 * because a package it names as optional is not on the registry. It runs
 * under Deno from that folder, with `--allow-all`: it reads `/proc` (to tell
 * whether it runs under WSL), which Deno allows only with every permission.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { isObject } from "../mcp/shared/jsonrpc.ts";
import { answerFrom, CANONICAL_CALLS, type ClientReport, notRun, verdictOf } from "./expected.ts";

/** The Inspector's launcher, as `npm ci` in `tools/inspector/` installs it. */
export const INSPECTOR = fileURLToPath(
  new URL(
    "../../tools/inspector/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
    import.meta.url,
  ),
);

/**
 * The command that runs the Inspector's command-line mode against the server
 * `command`, through the handshake, with the Inspector's own `args`
 * (`--method tools/list`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const command = inspectorCommand(["deno", "run", "server.ts"], ["--method", "tools/list"]);
 * assert.deepEqual(command.slice(-8), ["--cli", "deno", "run", "server.ts", "--protocol-era", "legacy", "--method", "tools/list"]);
 * ```
 */
export function inspectorCommand(command: readonly string[], args: readonly string[]): string[] {
  return [
    Deno.execPath(),
    "run",
    "--no-config",
    "--node-modules-dir=manual",
    "--quiet",
    "--allow-all",
    INSPECTOR,
    "--cli",
    ...command,
    "--protocol-era",
    "legacy",
    ...args,
  ];
}

/** Options for {@linkcode judgeWithInspector}. */
export interface InspectorOptions {
  /** The most one run of the Inspector may take. @default {30000} */
  timeoutMs?: number;
}

/**
 * Judge the server `command` with the Inspector's command-line mode; a report
 * that did `NOT_RUN` when the Inspector is not installed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grammarCommand } from "../course/course.ts";
 *
 * const report = await judgeWithInspector(grammarCommand());
 * assert.notEqual(report.status, "FAILED");
 * ```
 */
export async function judgeWithInspector(
  command: readonly string[],
  options: InspectorOptions = {},
): Promise<ClientReport> {
  try {
    await Deno.stat(INSPECTOR);
  } catch {
    return notRun("inspector", "the MCP Inspector is not installed: run sh tools/setup.sh");
  }
  const run = (args: string[]) => runInspector(inspectorCommand(command, args), options);
  const problems: string[] = [];
  let tools: string[] = [];
  const answers: Record<string, unknown> = {};
  try {
    const listed = await run(["--method", "tools/list"]);
    tools = isObject(listed) && Array.isArray(listed.tools)
      ? listed.tools.map((tool) => String(isObject(tool) ? tool.name : tool))
      : [];
    for (const [name, args] of CANONICAL_CALLS) {
      const toolArgs = Object.entries(args).flatMap(([key, value]) => [
        "--tool-arg",
        `${key}=${value}`,
      ]);
      const result = await run(["--method", "tools/call", "--tool-name", name, ...toolArgs]);
      const item = isObject(result) && Array.isArray(result.content)
        ? result.content[0]
        : undefined;
      answers[name] = isObject(result) && result.isError !== true && isObject(item) &&
          typeof item.text === "string"
        ? answerFrom(name, item.text)
        : result;
    }
  } catch (error) {
    problems.push((error as Error).message);
  }
  return verdictOf("inspector", { spoke: [], tools, answers, errors: {}, problems });
}

/** Run the Inspector once; the JSON it printed, or an `Error` saying what went wrong. */
async function runInspector(command: string[], options: InspectorOptions): Promise<unknown> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  const { code, stdout, stderr } = await new Deno.Command(command[0], {
    args: command.slice(1),
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal,
  }).output();
  const out = new TextDecoder().decode(stdout).trim();
  if (code !== 0) {
    const why = signal.aborted ? "it ran out of time" : `it exited with ${code}`;
    const said = (out || new TextDecoder().decode(stderr).trim()).split("\n").slice(-3).join(" | ");
    throw new Error(`The Inspector's ${command.slice(-4).join(" ")} failed (${why}): ${said}`);
  }
  try {
    return JSON.parse(out);
  } catch {
    throw new Error(`The Inspector printed what is not JSON: ${out.slice(0, 200)}`);
  }
}

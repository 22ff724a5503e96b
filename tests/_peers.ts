// The real peers of both eras the interop tests of issue 39 start: the
// TypeScript SDK's v2 server (fixtures/sdk_v2_peer.ts), FastMCP 4.2.3
// (fixtures/fastmcp_peer.py), and the official Python SDK's client
// (fixtures/python_peer_client.py), each held to an era; the stdio tap that
// reads the wire between two programs neither of which is the test; and the
// course's grammar server with a tool that asks, for serveHttp of each era.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { ChangeFeed } from "../lib/mcp/server/change_feed.ts";
import type { SessionSpec, SessionTool } from "../lib/mcp/server/session_spec.ts";
import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { GRAMMAR } from "../servers/grammar.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const CONFIG = `${root}deno.json`;

/** The Python of `tools/interop/.venv`, which `sh tools/setup.sh test` makes. */
export const PYTHON = `${root}tools/interop/.venv/bin/python`;
/** Whether that Python (with FastMCP 4.2.3 and mcp 2.3.0) is installed. */
export const pythonInstalled = await Deno.stat(PYTHON).then(() => true, () => false);

/** What a peer of one era speaks: 2026-07-28 and the handshake, 2026-07-28 alone, or one legacy version. */
export type PeerEra = "dual" | "modern" | "2024-11-05" | "2025-03-26" | "2025-06-18" | "2025-11-25";
/** Every legacy version, oldest first. */
export const LEGACY: readonly PeerEra[] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/**
 * The command of the SDK v2 server of `era` (`fixture`, a file of
 * `tests/fixtures/`): over stdio, or over HTTP on `port`.
 */
export function sdkV2Peer(era: PeerEra, port?: number, fixture = "sdk_v2_peer.ts"): string[] {
  const script = `${root}tests/fixtures/${fixture}`;
  const http = port === undefined ? [] : ["http", String(port)];
  const net = port === undefined ? [] : ["--allow-net=127.0.0.1"];
  return [
    Deno.execPath(),
    "run",
    "--config",
    CONFIG,
    "--frozen",
    "--quiet",
    ...net,
    script,
    era,
    ...http,
  ];
}

/**
 * The command of the SDK v2 server of `era` that exits in its `crash` tool
 * (`tests/fixtures/round15_crash_peer.ts`), recording each run of it in `log`.
 */
export function crashPeer(era: PeerEra, log: string): string[] {
  const command = sdkV2Peer(era, undefined, "round15_crash_peer.ts");
  command.splice(command.indexOf("--quiet"), 0, `--allow-write=${log}`);
  return [...command, log];
}

/**
 * The command of the SDK v2 server of `era` whose tool `order` asks `form`
 * just as written (`tests/fixtures/form_peer.ts`), over stdio.
 */
export function formPeer(era: PeerEra, form: JsonObject): string[] {
  return [...sdkV2Peer(era, undefined, "form_peer.ts"), JSON.stringify(form)];
}

/**
 * The command of the SDK v1 server whose tool `order` asks `form` just as
 * written, the SDK checking the answer against it with ajv
 * (`tests/fixtures/sdk_v1_form_peer.ts`), over stdio.
 */
export function sdkV1FormPeer(form: JsonObject): string[] {
  const script = `${root}tests/fixtures/sdk_v1_form_peer.ts`;
  const run = ["run", "--config", CONFIG, "--frozen", "--quiet", script, JSON.stringify(form)];
  return [Deno.execPath(), ...run];
}

/**
 * The command of the FastMCP server whose tool `order` asks the form FastMCP
 * makes of a pydantic model, four defaults breaking their fields' bounds, or
 * with `model` "odd" a form with a multipleOf, bounds, a pattern and a set
 * (`tests/fixtures/fastmcp_form_peer.py`), over stdio.
 */
export function fastmcpFormPeer(model: "order" | "odd" = "order"): string[] {
  const script = [PYTHON, `${root}tests/fixtures/fastmcp_form_peer.py`];
  return model === "odd" ? [...script, model] : script;
}

/** The command of the FastMCP server of `era`: over stdio, or over HTTP on `port`. */
export function fastmcpPeer(era: PeerEra, port?: number): string[] {
  const http = port === undefined ? [] : ["http", String(port)];
  return [PYTHON, `${root}tests/fixtures/fastmcp_peer.py`, era, ...http];
}

/** `command`, with the stdio tap between it and whoever starts it, logging to `log`. */
export function tapped(log: string, command: readonly string[]): string[] {
  const tap = `${root}tests/fixtures/wire_tap.ts`;
  return [
    Deno.execPath(),
    "run",
    "--no-config",
    "--quiet",
    "--allow-run",
    `--allow-write=${log}`,
    tap,
    log,
    ...command,
  ];
}

/** One session of the Python SDK's client (see fixtures/python_peer_client.py). */
export interface PythonSession {
  server: readonly string[] | string;
  mode: "auto" | "legacy" | "2026-07-28";
  offer?: string;
  sampling?: string;
  calls?: [string, Record<string, unknown>][];
  /** The tool to call while listening for a change of the tool list. */
  listen?: string;
}

/** What the Python SDK's client saw in one session. */
export interface PythonSeen {
  protocolVersion?: string;
  tools?: string[];
  calls?: { isError: boolean; text: string; structured: unknown }[];
  /** The first change heard on the subscription, or why it could not listen. */
  heard?: string;
  error?: string;
}

/** Run `sessions` with the Python SDK's client, one after another in one process. */
export async function pythonClient(sessions: readonly PythonSession[]): Promise<PythonSeen[]> {
  const { code, stdout, stderr } = await new Deno.Command(PYTHON, {
    args: [`${root}tests/fixtures/python_peer_client.py`, JSON.stringify(sessions)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stdout);
  assert.equal(code, 0, `the Python client failed: ${new TextDecoder().decode(stderr)}`);
  return text.trim().split("\n").map((line) => JSON.parse(line));
}

/** A tool of the course's server that asks the user's name, then the client's model to greet them. */
const GREET: SessionTool = {
  name: "greet",
  description: "Asks the user's name, then the client's model to greet them.",
  inputSchema: { type: "object" },
  run: async (_args, context) => {
    const named = await context.request("elicitation/create", {
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    }, "name");
    const said = await context.request("sampling/createMessage", {
      messages: [{ role: "user", content: { type: "text", text: "Say hello" } }],
      maxTokens: 8,
    }, "greeting");
    const name = (named.content as JsonObject).name;
    return { content: [{ type: "text", text: `${(said.content as JsonObject).text}, ${name}` }] };
  },
};

/** An order, described: structured content beside its JSON text, which versions before 2025-06-18 are sent without. */
const DESCRIBE: SessionTool = {
  name: "describe",
  description: "An order, described.",
  inputSchema: {
    type: "object",
    properties: { flavor: { type: "string" }, tubs: { type: "integer" } },
    required: ["flavor", "tubs"],
  },
  run: ({ flavor, tubs }) => {
    const order = { flavor, tubs, large: (tubs as number) > 10 };
    return { content: [{ type: "text", text: JSON.stringify(order) }], structuredContent: order };
  },
};

/** What `describe` answers for 12 tubs of vanilla, as structured content. */
export const ORDER = { flavor: "vanilla", tubs: 12, large: true };

/**
 * Lab 02's grammar tools, `greet` (which answers "MODEL'S TEXT, NAME"),
 * `change` (which tells subscribers that the tool list changed) and
 * `describe` (structured content), speaking `versions` (all by default), for
 * serveHttp.
 */
export function askingGrammar(versions?: string[]): SessionSpec {
  const changes = new ChangeFeed();
  const change: SessionTool = {
    name: "change",
    description: "Tells subscribers that the tool list changed.",
    inputSchema: { type: "object" },
    run: () => {
      changes.toolsChanged();
      return { content: [{ type: "text", text: "changed" }] };
    },
  };
  return {
    ...GRAMMAR,
    sessionTools: [GREET, change, DESCRIBE],
    changes,
    ...(versions === undefined ? {} : { versions }),
  };
}

// Commands that start MCP servers this course did not write: fixtures built on
// the official TypeScript SDK, and the servers published on the npm registry
// (everything, memory, filesystem), at the versions deno.json pins and
// deno.lock locks, each with the narrowest Deno flags it runs with.

import config from "../deno.json" with { type: "json" };
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const CONFIG = fileURLToPath(new URL("../deno.json", import.meta.url));

/** The published "everything" server, as deno.json pins it. */
export const EVERYTHING = config.imports["@modelcontextprotocol/server-everything"];

/** The published knowledge-graph server, as deno.json pins it. */
export const MEMORY = config.imports["@modelcontextprotocol/server-memory"];

/** The published filesystem server, as deno.json pins it. */
export const FILESYSTEM = config.imports["@modelcontextprotocol/server-filesystem"];

/** The environment variable the filesystem server's pattern matcher reads as it loads. */
const MINIMATCH_ENV = "__MINIMATCH_TESTING_PLATFORM__";

/** The environment variables the everything server reads as it starts: all it may read. */
export const EVERYTHING_ENV = [
  "GZIP_MAX_FETCH_SIZE",
  "GZIP_MAX_FETCH_TIME_MILLIS",
  "GZIP_ALLOWED_DOMAINS",
];

/**
 * The command that starts the SDK fixture `script` (in tests/fixtures/) with
 * `args`. It gets no permission at all: an SDK server on stdio needs none.
 */
export function sdkFixtureCommand(script: string, ...args: string[]): string[] {
  const path = fileURLToPath(new URL(`./fixtures/${script}`, import.meta.url));
  return [Deno.execPath(), "run", "--frozen", "--quiet", path, ...args];
}

/**
 * The command that starts the everything server on stdio, with no permission
 * but reading the environment variables it needs to start and its own
 * documents (which it serves as resources): no other file, no network, no
 * subprocesses.
 */
export function everythingCommand(): string[] {
  return [
    ...runPinned(`--allow-env=${EVERYTHING_ENV.join(",")}`, `--allow-read=${everythingDocs()}`),
    EVERYTHING,
    "stdio",
  ];
}

/**
 * The command that starts the memory server on stdio, keeping its knowledge
 * graph in `folder/memory.jsonl`: it may read and write that folder (it
 * writes a temporary file beside the graph, then renames it), and read the
 * one variable that names the file, which `env` gives it.
 */
export function memoryCommand(folder: string): { command: string[]; env: Record<string, string> } {
  const flags = [
    "--allow-env=MEMORY_FILE_PATH",
    `--allow-read=${folder}`,
    `--allow-write=${folder}`,
  ];
  return {
    command: [...runPinned(...flags), MEMORY],
    env: { MEMORY_FILE_PATH: join(folder, "memory.jsonl") },
  };
}

/** The command that starts the filesystem server on stdio, allowed `folder` and nothing else. */
export function filesystemCommand(folder: string): string[] {
  const flags = [
    `--allow-env=${MINIMATCH_ENV}`,
    `--allow-read=${folder}`,
    `--allow-write=${folder}`,
  ];
  return [...runPinned(...flags), FILESYSTEM, folder];
}

/** `deno run` with the project's config and lock, quietly, with `flags`. */
function runPinned(...flags: string[]): string[] {
  return [Deno.execPath(), "run", "--config", CONFIG, "--frozen", "--quiet", ...flags];
}

/** The everything server's `docs/` folder in Deno's npm cache, where its documents are. */
function everythingDocs(): string {
  const info = new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stderr: "null" })
    .outputSync();
  const { npmCache } = JSON.parse(new TextDecoder().decode(info.stdout)) as { npmCache: string };
  const [name, version] = EVERYTHING.slice("npm:".length).split(/(?<=.)@/);
  for (const registry of Deno.readDirSync(npmCache)) {
    const docs = join(npmCache, registry.name, name, version, "dist", "docs");
    if (existsSync(docs)) return docs;
  }
  throw new Error(`${EVERYTHING} is not in Deno's npm cache (${npmCache}): cache it first`);
}

/**
 * Download the pinned npm packages (from the npm registry, as deno.lock says)
 * before a test starts a server from them, so that no request deadline has to
 * cover a first download.
 */
export async function cachePinnedPackages(): Promise<void> {
  const { success, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["cache", "--frozen", "--quiet", "--config", CONFIG, EVERYTHING, MEMORY, FILESYSTEM],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!success) throw new Error(`deno cache failed: ${new TextDecoder().decode(stderr)}`);
}

/** What the official SDKs' clients (the 1.x line and v2) have alike: listing tools and calling one. */
export interface SdkToolClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

/** The text items of an SDK client's tool result, joined. */
export function sdkText(result: unknown): string {
  return (result as { content: { type: string; text: string }[] }).content
    .filter((item) => item.type === "text").map((item) => item.text).join("\n");
}

/**
 * Lab 02's calls of the grammar server, made by an SDK's `client`: its four
 * tools listed, `conjugate eat` is `ate`, `lookup_spanish ate` is `comió`,
 * and `run` (in the schema's enum but outside the tool's scope) is a tool
 * error, not a protocol error.
 */
export async function grammarCallsBySdk(client: SdkToolClient): Promise<void> {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name).sort(), [
    "check_subject_verb_agreement",
    "conjugate",
    "lookup_irregular_verb",
    "lookup_spanish",
  ]);
  const ate = await client.callTool({
    name: "conjugate",
    arguments: { verb: "eat", tense: "past_simple", person: "3sg" },
  });
  assert.equal(sdkText(ate), "ate");
  const spanish = await client.callTool({
    name: "lookup_spanish",
    arguments: { english_form: "ate" },
  });
  assert.equal(sdkText(spanish), "comió");
  const run = await client.callTool({
    name: "conjugate",
    arguments: { verb: "run", tense: "past_simple", person: "3sg" },
  });
  assert.equal((run as { isError?: boolean }).isError, true);
}

// Commands that start MCP servers this course did not write: fixtures built on
// the official TypeScript SDK, and a server published on the npm registry, at
// the versions deno.json pins and deno.lock locks.

import config from "../deno.json" with { type: "json" };
import { fileURLToPath } from "node:url";

const CONFIG = fileURLToPath(new URL("../deno.json", import.meta.url));

/** The published "everything" server, as deno.json pins it. */
export const EVERYTHING = config.imports["@modelcontextprotocol/server-everything"];

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
 * but reading the environment variables it needs to start: no files beyond
 * its own package, no network, no subprocesses.
 */
export function everythingCommand(): string[] {
  return [
    Deno.execPath(),
    "run",
    "--config",
    CONFIG,
    "--frozen",
    "--quiet",
    `--allow-env=${EVERYTHING_ENV.join(",")}`,
    EVERYTHING,
    "stdio",
  ];
}

/**
 * Download the pinned npm packages (from the npm registry, as deno.lock says)
 * before a test starts a server from them, so that no request deadline has to
 * cover a first download.
 */
export async function cachePinnedPackages(): Promise<void> {
  const { success, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["cache", "--frozen", "--quiet", "--config", CONFIG, EVERYTHING],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!success) throw new Error(`deno cache failed: ${new TextDecoder().decode(stderr)}`);
}

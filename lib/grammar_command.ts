/**
 * How to start Lab 02's grammar server.
 *
 * @module
 */

const SCRIPT = new URL("../servers/grammar.ts", import.meta.url);

/**
 * The command that starts the grammar server, with the narrowest `deno run`:
 * the Deno that runs this code (not whichever `deno` comes first on `PATH`),
 * no permissions at all, no config file, and the script's absolute path, so
 * the server starts the same from any working folder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const command = grammarCommand();
 * assert.equal(command[0], Deno.execPath());
 * assert.ok(command.at(-1)!.endsWith("/servers/grammar.ts"));
 * assert.ok(!command.some((part) => part.startsWith("--allow")));
 * ```
 */
export function grammarCommand(): string[] {
  return [Deno.execPath(), "run", "--no-config", "--quiet", SCRIPT.pathname];
}

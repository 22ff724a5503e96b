/**
 * A command the hub's set-up cannot go on without.
 *
 * @module
 */

/**
 * Run `command` in `cwd`, with `env` added; what it printed, or an error that says what failed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(await must("echo", ["hi"], "/"), "hi\n");
 * await assert.rejects(must("false", [], "/"), /^Error: false failed/);
 * ```
 */
export async function must(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<string> {
  const { success, stdout, stderr } = await new Deno.Command(command, {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...env },
  }).output();
  if (!success) {
    const said = new TextDecoder().decode(stderr).trim();
    throw new Error(
      `${[command, ...args].join(" ")} failed${said === "" ? "" : `: ${said}`}`,
    );
  }
  return new TextDecoder().decode(stdout);
}

/**
 * What a program says about itself: the help a tool prints, which the units
 * show a learner instead of a list of its options to copy.
 *
 * @module
 */

/**
 * The text `program` prints when run with `args` (its stdout, or its stderr
 * when stdout is empty, as some tools print their help there), without
 * colour. A program that is not installed gives a sentence saying so.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.match(await helpOf(Deno.execPath(), "run", "--help"), /--allow-read/);
 * assert.match(await helpOf("no-such-program-here"), /is not installed/);
 * ```
 */
export async function helpOf(program: string, ...args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await new Deno.Command(program, {
      args,
      env: { NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(stdout.length > 0 ? stdout : stderr);
    // deno's help underlines and colours even without a terminal unless told otherwise.
    // deno-lint-ignore no-control-regex
    return text.replace(/\x1b\[[0-9;]*m/g, "").trimEnd();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return `${program} is not installed on this machine.`;
    }
    throw error;
  }
}

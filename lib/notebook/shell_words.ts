/**
 * A command as a person would type it into a shell: each word quoted when
 * it holds anything a shell would read otherwise (a space, a quote, a `$`),
 * so that a path with a space can be copied and run as it is shown.
 *
 * @module
 */

/**
 * `command` as one line a POSIX shell reads back into the same words.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(shellWords(["deno", "run", "/home/ada/my course/server.mts"]), "deno run '/home/ada/my course/server.mts'");
 * assert.equal(shellWords(["echo", "it's"]), `echo 'it'"'"'s'`);
 * assert.equal(shellWords(["printf", ""]), "printf ''");
 * ```
 */
export function shellWords(command: readonly string[]): string {
  return command.map((word) =>
    /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`
  ).join(" ");
}
